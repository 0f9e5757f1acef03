import ClosetCore

/// RGBA8 to PNG, for terminals that take a picture file (iTerm2's inline images): colour type
/// 6, no row filter, the zlib stream in stored blocks. Larger than a compressed PNG, but
/// written at memory speed and trivially correct; a terminal on the same machine reads it.
public enum PNGEncoder {
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(bitmap.height * (1 + bitmap.width * 4))
        for y in 0..<bitmap.height {
            raw.append(0)
            raw += bitmap.pixels[(y * bitmap.width * 4)..<((y + 1) * bitmap.width * 4)]
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let count = min(65535, raw.count - at)
            let last: UInt8 = at + count == raw.count ? 1 : 0
            zlib += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[at..<(at + count)]
            at += count
        } while at < raw.count
        zlib += bigEndian(Inflate.adler32(raw))
        var header: [UInt8] = bigEndian(UInt32(bitmap.width)) + bigEndian(UInt32(bitmap.height))
        header += [8, 6, 0, 0, 0]
        return PNGDecoder.signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    static func chunk(_ kind: String, _ body: [UInt8]) -> [UInt8] {
        let named = Array(kind.utf8) + body
        return bigEndian(UInt32(body.count)) + named + bigEndian(Checksum.crc32(named))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
