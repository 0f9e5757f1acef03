import ClosetCore
import ClosetPictures
import Foundation
import WardrobePack

/// Real, small pictures made in code: a PNG with a valid zlib stream (stored blocks) and a
/// baseline JPEG skeleton (SOI, APP0, SOF0, EOI) that header readers accept.
package enum SampleImages {
    /// A real picture from `Tests/Fixtures/pictures` (made by libjpeg-turbo's cjpeg), for the
    /// fixture servers' answers that the picture goldens draw.
    package static func fixture(_ name: String) -> [UInt8] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().path
        return (FileManager.default.contents(atPath: root + "/Fixtures/pictures/" + name)).map { [UInt8]($0) } ?? []
    }

    /// A PNG of noise, which no compression shrinks: `side`² RGBA pixels make a file of about
    /// 4·side² bytes (a 40×40 one is over the store's inline limit).
    package static func noisyPNG(side: Int, seed: UInt64 = 26) -> [UInt8] {
        var random = SplitMix64(seed: seed)
        let pixels = (0..<(side * side * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        return PNGEncoder.encode(Bitmap(width: side, height: side, pixels: pixels))
    }

    /// A PNG whose header claims any size, with no pixels (header readers only).
    package static func pngHeader(width: Int, height: Int) -> [UInt8] {
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IEND", [])
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(Checksum.crc32(typed)))
    }

    package static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for row in 0..<height {
            raw.append(0)  // filter: none
            for column in 0..<width { raw += [UInt8(row * 40 % 256), UInt8(column * 60 % 256), 128] }
        }
        // zlib: header, one stored block, Adler-32.
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        let length = raw.count
        let zlib =
            [
                0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF),
                UInt8((~length >> 8) & 0xFF),
            ]
            + raw + be32(Int(b << 16 | a))
        let header = be32(width) + be32(height) + [8, 2, 0, 0, 0]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlib)
            + chunk("IEND", [])
    }

    /// A real JPEG of that size (a diagonal gradient), made by closet's own encoder: one that
    /// decodes, as every picture closet keeps must.
    package static func jpeg(width: Int, height: Int) -> [UInt8] {
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let at = (y * width + x) * 4
                pixels[at] = UInt8(truncatingIfNeeded: 40 + x * 180 / max(1, width))
                pixels[at + 1] = UInt8(truncatingIfNeeded: 60 + y * 160 / max(1, height))
                pixels[at + 2] = UInt8(truncatingIfNeeded: 140 - (x + y) * 100 / max(1, width + height))
            }
        }
        return JPEGEncoder.encode(Bitmap(width: width, height: height, pixels: pixels), quality: 75)
    }

    /// A JPEG header naming a size with no picture after it (what closet must refuse).
    package static func jpegStub(width: Int, height: Int) -> [UInt8] {
        let app0: [UInt8] = [0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0]
        let sof0: [UInt8] =
            [0xFF, 0xC0, 0x00, 0x11, 8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return [0xFF, 0xD8] + app0 + sof0 + [0xFF, 0xD9]
    }

    static func be32(_ value: Int) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
}
