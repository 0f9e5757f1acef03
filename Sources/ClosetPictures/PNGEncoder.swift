import ClosetCore

/// RGBA8 to PNG, for terminals that take a picture file (iTerm2's inline images): colour type
/// 6, each row with the filter that leaves it smallest (the sum of its bytes as signed values,
/// the PNG specification's heuristic), the rows deflated by `Deflate`.
public enum PNGEncoder {
    public static func encode(_ bitmap: Bitmap) -> [UInt8] {
        let zlib = Deflate.zlib(filteredRows(bitmap))
        var header: [UInt8] = bigEndian(UInt32(bitmap.width)) + bigEndian(UInt32(bitmap.height))
        header += [8, 6, 0, 0, 0]
        return PNGDecoder.signature + chunk("IHDR", header) + chunk("IDAT", zlib) + chunk("IEND", [])
    }

    /// The rows as PNG's image data before compression: each a filter byte and the row filtered.
    static func filteredRows(_ bitmap: Bitmap) -> [UInt8] {
        let stride = bitmap.width * 4
        var out: [UInt8] = []
        out.reserveCapacity(bitmap.height * (1 + stride))
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: stride), count: 5)
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            for y in 0..<bitmap.height {
                let row = y * stride
                let above = y > 0 ? row - stride : -1
                for filter in 0..<5 {
                    candidates[filter].withUnsafeMutableBufferPointer { target in
                        for x in 0..<stride {
                            let value = pixels[row + x]
                            let left = x >= 4 ? pixels[row + x - 4] : 0
                            let up = above >= 0 ? pixels[above + x] : 0
                            let upLeft = above >= 0 && x >= 4 ? pixels[above + x - 4] : 0
                            switch filter {
                            case 0: target[x] = value
                            case 1: target[x] = value &- left
                            case 2: target[x] = value &- up
                            case 3: target[x] = value &- UInt8((Int(left) + Int(up)) / 2)
                            default: target[x] = value &- PNGDecoder.paeth(left, up, upLeft)
                            }
                        }
                    }
                }
                var best = 0
                var bestSum = Int.max
                for filter in 0..<5 {
                    var sum = 0
                    for byte in candidates[filter] { sum += byte < 128 ? Int(byte) : 256 - Int(byte) }
                    if sum < bestSum { (best, bestSum) = (filter, sum) }
                }
                out.append(UInt8(best))
                out += candidates[best]
            }
        }
        return out
    }

    static func chunk(_ kind: String, _ body: [UInt8]) -> [UInt8] {
        let named = Array(kind.utf8) + body
        return bigEndian(UInt32(body.count)) + named + bigEndian(Checksum.crc32(named))
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
