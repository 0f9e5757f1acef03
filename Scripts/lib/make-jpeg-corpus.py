#!/usr/bin/env python3
"""Writes a JPEG reference corpus (issue 26) into the folder named: pictures drawn here
(gradients, edges, noise; seeded, so a rerun writes the same pixels) encoded by libjpeg-turbo's
`cjpeg` in every mode closet reads (baseline and progressive, 4:4:4, 4:2:2, 4:2:0, 4:4:0 and
grayscale, restart intervals, several qualities, odd sizes), each beside `NAME.rgba`: the RGBA8
pixels `djpeg` (default settings: accurate integer IDCT, fancy upsampling) decodes it to. Also
pictures with an EXIF orientation, whose `.rgba` is djpeg's pixels turned as the tag says, and
`arithmetic.jpg`, which closet must refuse. `--small` writes only the small ones (the committed
fixtures). Needs cjpeg and djpeg (Debian: libjpeg-turbo-progs); Python's standard library."""
import os, random, struct, subprocess, sys, tempfile

out = sys.argv[1]
small = "--small" in sys.argv
os.makedirs(out, exist_ok=True)
rng = random.Random(2026)


def picture(width, height, seed):
    r = random.Random(seed)
    px = bytearray()
    cx, cy = r.uniform(0, width), r.uniform(0, height)
    for y in range(height):
        for x in range(width):
            edge = 255 if (x * 7 + y * 3) % 23 < 11 else 0
            dist = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5
            red = int(255 * x / max(1, width - 1))
            green = int(255 * y / max(1, height - 1)) ^ (edge // 4)
            blue = int(128 + 127 * ((dist / 9.0) % 2 - 1)) if dist < 40 else r.randrange(256)
            px += bytes((red & 255, green & 255, blue & 255))
    return px


def ppm(width, height, rgb):
    return b"P6\n%d %d\n255\n" % (width, height) + bytes(rgb)


def decode_reference(path, side=8):
    """djpeg's pixels as RGB, with the size; `side` below 8 decodes at `side`/8 (`-scale`)."""
    scale = ["-scale", f"{side}/8"] if side != 8 else []
    data = subprocess.run(["djpeg", *scale, "-ppm", path], check=True, capture_output=True).stdout
    # The header is three lines (`P6`, `W H`, `255`); the pixels may start with a space byte.
    kind, size, _, body = data.split(b"\n", 3)
    width, height = map(int, size.split())
    if kind == b"P5":
        body = b"".join(bytes((v, v, v)) for v in body)
    return width, height, body


def rgba(rgb):
    out = bytearray()
    for i in range(0, len(rgb), 3):
        out += rgb[i : i + 3] + b"\xff"
    return bytes(out)


def orient(width, height, rgb, value):
    """The pixels as EXIF orientation `value` shows them."""
    turned = value >= 5
    nw, nh = (height, width) if turned else (width, height)
    out = bytearray(nw * nh * 3)
    for y in range(nh):
        for x in range(nw):
            sx, sy = {
                2: (width - 1 - x, y), 3: (width - 1 - x, height - 1 - y), 4: (x, height - 1 - y),
                5: (y, x), 6: (y, height - 1 - x), 7: (width - 1 - y, height - 1 - x), 8: (width - 1 - y, x),
            }[value]
            out[(y * nw + x) * 3 : (y * nw + x) * 3 + 3] = rgb[(sy * width + sx) * 3 : (sy * width + sx) * 3 + 3]
    return nw, nh, bytes(out)


def with_exif(jpeg, value, little):
    """`jpeg` with an APP1 Exif segment holding orientation `value`, after SOI."""
    e = "<" if little else ">"
    tiff = (b"II" if little else b"MM") + struct.pack(e + "HI", 42, 8)
    tiff += struct.pack(e + "H", 1) + struct.pack(e + "HHIHH", 0x0112, 3, 1, value, 0) + struct.pack(e + "I", 0)
    body = b"Exif\0\0" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(body) + 2) + body + jpeg[2:]


sizes = [(1, 1), (17, 9), (8, 8), (16, 16), (33, 31)] if small else [
    (1, 1), (17, 9), (8, 8), (16, 16), (33, 31), (4001, 3), (3, 301), (96, 64), (333, 217), (640, 480)]
samplings = {"444": "1x1", "422": "2x1", "420": "2x2", "440": "1x2"}
made = 0
with tempfile.TemporaryDirectory() as tmp:
    for (w, h) in sizes:
        source = os.path.join(tmp, "in.ppm")
        with open(source, "wb") as f:
            f.write(ppm(w, h, picture(w, h, w * 1000 + h)))
        cases = []
        for name, sample in samplings.items():
            cases.append((f"{name}-q90", ["-quality", "90", "-sample", sample]))
            cases.append((f"{name}-q90-progressive", ["-quality", "90", "-sample", sample, "-progressive"]))
        cases += [
            ("gray-q85", ["-quality", "85", "-grayscale"]),
            ("gray-q85-progressive", ["-quality", "85", "-grayscale", "-progressive"]),
            ("420-q50-restart1", ["-quality", "50", "-sample", "2x2", "-restart", "1"]),
            ("420-q100-restart2b-progressive", ["-quality", "100", "-sample", "2x2", "-restart", "2B", "-progressive"]),
            ("444-q75-optimize", ["-quality", "75", "-sample", "1x1", "-optimize"]),
        ]
        for label, options in cases:
            name = f"jpeg-{w}x{h}-{label}"
            path = os.path.join(out, name + ".jpg")
            subprocess.run(["cjpeg", *options, "-outfile", path, source], check=True)
            for side in (8, 4, 2, 1):
                width, height, rgb = decode_reference(path, side)
                suffix = "" if side == 8 else f".side{side}"
                with open(os.path.join(out, name + suffix + ".rgba"), "wb") as f:
                    f.write(struct.pack(">II", width, height) + rgba(rgb))
            made += 1
    # EXIF orientations, both byte orders.
    w, h = (13, 7)
    source = os.path.join(tmp, "in.ppm")
    with open(source, "wb") as f:
        f.write(ppm(w, h, picture(w, h, 7)))
    plain = subprocess.run(["cjpeg", "-quality", "95", "-sample", "1x1", source], check=True, capture_output=True).stdout
    for value in range(1, 9):
        name = f"jpeg-orientation-{value}"
        path = os.path.join(out, name + ".jpg")
        with open(path, "wb") as f:
            f.write(with_exif(plain, value, little=value % 2 == 0))
        for side in (8, 4, 2, 1):
            width, height, rgb = decode_reference(path, side)
            nw, nh, turned = orient(width, height, rgb, value) if value > 1 else (width, height, rgb)
            suffix = "" if side == 8 else f".side{side}"
            with open(os.path.join(out, name + suffix + ".rgba"), "wb") as f:
                f.write(struct.pack(">II", nw, nh) + rgba(turned))
        made += 1
    subprocess.run(["cjpeg", "-arithmetic", "-outfile", os.path.join(out, "arithmetic.jpg"), source], check=True)
print(f"jpeg corpus: {made} pictures in {out}", file=sys.stderr)
