#!/usr/bin/env python3
"""Writes the decoders' reference corpus into Tests/Fixtures/pictures (issue 26): zlib streams
made by Python's zlib (every level and strategy) with the bytes they hold, and PNGs written here
by hand (every colour type and bit depth, palettes with tRNS, Adam7 interlace, every filter) with
the RGBA8 pixels they must decode to. Python's standard library only; seeded, so a rerun writes the
same bytes. The expected pixels follow the PNG specification: samples below 8 bits scaled to
0-255 (v * 255 / (2^bits - 1)), 16-bit samples by their high byte, tRNS giving alpha 0. Pillow
(11.x) decodes every one of them to the same pixels except where it does not apply tRNS as the
specification says (grey below 8 bits compared after scaling, and 16-bit RGB)."""
import os, random, struct, zlib

root = os.path.join(os.path.dirname(__file__), "..", "..", "Tests", "Fixtures", "pictures")
os.makedirs(root, exist_ok=True)
rng = random.Random(26)


def write(name, data):
    with open(os.path.join(root, name), "wb") as f:
        f.write(data)


# zlib: text-like, random and repetitive data, every level, and the strategies that make fixed
# Huffman blocks, Huffman-only and run-length streams.
samples = {
    "text": (b"closet shows pictures at the prompt; " * 40 + bytes(range(256))),
    "random": bytes(rng.getrandbits(8) for _ in range(3000)),
    "runs": b"".join(bytes([rng.getrandbits(8)]) * rng.randint(1, 300) for _ in range(60)),
    "empty": b"",
}
for name, data in samples.items():
    for level in (0, 1, 6, 9):
        write(f"zlib-{name}-l{level}.z", zlib.compress(data, level))
    for strategy, label in ((zlib.Z_FIXED, "fixed"), (zlib.Z_HUFFMAN_ONLY, "huffman"), (zlib.Z_RLE, "rle")):
        c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, strategy)
        write(f"zlib-{name}-{label}.z", c.compress(data) + c.flush())
    write(f"zlib-{name}.raw", data)


def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
PASSES = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]


def pack_row(samples, depth):
    """Samples (ints) of one row into bytes, big-endian, packed below 8 bits."""
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out, acc, bits = bytearray(), 0, 0
    for s in samples:
        acc = (acc << depth) | s
        bits += depth
        if bits == 8:
            out.append(acc)
            acc, bits = 0, 0
    if bits:
        out.append(acc << (8 - bits))
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def filter_rows(rows, bpp):
    """Each row behind a random filter type (0-4), as an encoder may choose."""
    out, previous = bytearray(), bytes(len(rows[0])) if rows else b""
    for row in rows:
        kind = rng.randrange(5)
        filtered = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            predictor = (0, a, b, (a + b) // 2, paeth(a, b, c))[kind]
            filtered.append((x - predictor) & 0xFF)
        out += bytes([kind]) + filtered
        previous = row
    return bytes(out)


def png(width, height, depth, colour, interlace, palette=None, trns=None):
    channels = CHANNELS[colour]
    maximum = (1 << depth) - 1
    top = len(palette) - 1 if palette else maximum
    image = [[[rng.randint(0, top) for _ in range(channels)] for _ in range(width)] for _ in range(height)]
    if trns is not None and colour in (0, 2) and width * height > 1:
        image[0][0] = list(trns)  # at least one pixel takes the transparent value
    bpp = max(1, channels * depth // 8)
    raw = bytearray()
    passes = PASSES if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        xs, ys = list(range(x0, width, dx)), list(range(y0, height, dy))
        if not xs or not ys:
            continue
        rows = [pack_row([s for x in xs for s in image[y][x]], depth) for y in ys]
        raw += filter_rows(rows, bpp)
    body = chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, interlace))
    if palette:
        body += chunk(b"PLTE", b"".join(bytes(p) for p in palette))
    if trns is not None:
        if colour == 3:
            body += chunk(b"tRNS", bytes(trns))
        else:
            body += chunk(b"tRNS", b"".join(struct.pack(">H", v) for v in trns))
    data = zlib.compress(bytes(raw), rng.choice([0, 1, 6, 9]))
    cut = rng.randint(0, len(data))  # two IDAT chunks: decoders join them
    body += chunk(b"IDAT", data[:cut]) + chunk(b"IDAT", data[cut:]) + chunk(b"IEND", b"")
    rgba = bytearray()
    for y in range(height):
        for x in range(width):
            px = image[y][x]
            if colour == 3:
                r, g, b = palette[px[0]]
                a = trns[px[0]] if trns is not None and px[0] < len(trns) else 255
            else:
                def eight(v):
                    return v >> 8 if depth == 16 else v * 255 // maximum
                if colour in (0, 4):
                    r = g = b = eight(px[0])
                else:
                    r, g, b = (eight(v) for v in px[:3])
                if colour in (4, 6):
                    a = eight(px[-1])
                elif trns is not None and list(px) == list(trns):
                    a = 0
                else:
                    a = 255
            rgba += bytes([r, g, b, a])
    return b"\x89PNG\r\n\x1a\n" + body, bytes(rgba)


DEPTHS = {0: (1, 2, 4, 8, 16), 2: (8, 16), 3: (1, 2, 4, 8), 4: (8, 16), 6: (8, 16)}
for colour, depths in DEPTHS.items():
    for depth in depths:
        for width, height in ((1, 1), (17, 9), (5, 33)):
            for interlace in (0, 1):
                palette = trns = None
                if colour == 3:
                    palette = [tuple(rng.getrandbits(8) for _ in range(3)) for _ in range(min(1 << depth, 200))]
                    if interlace:
                        trns = [rng.getrandbits(8) for _ in range(len(palette) // 2)]
                elif colour in (0, 2) and interlace and width > 1:
                    trns = [rng.randint(0, (1 << depth) - 1) for _ in range(CHANNELS[colour])]
                data, rgba = png(width, height, depth, colour, interlace, palette, trns)
                name = f"png-c{colour}-d{depth}-{width}x{height}{'-i' if interlace else ''}"
                write(name + ".png", data)
                write(name + ".rgba", rgba)
