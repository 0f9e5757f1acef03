import Foundation

/// One way to store what closet knows of a picture, and to name its blob: the packs that
/// keep pictures (the wardrobe, saved photos, products, stories) share it.
extension ImageInfo {
    /// `<UUID>-<CRC32 in 8 hex digits>.png|jpg`: the blob name of the picture `owner` keeps.
    /// Written as bytes: formatting it with interpolation was a tenth of seeding a product.
    public func blobName(owner: UUID) -> String {
        let id = owner.text
        let suffix: StaticString = format == .png ? ".png" : ".jpg"
        return String(unsafeUninitializedCapacity: 36 + 1 + 8 + 4) { buffer in
            var at = 0
            for byte in id.utf8 {
                buffer[at] = byte
                at += 1
            }
            buffer[at] = UInt8(ascii: "-")
            at += 1
            for shift in stride(from: 28, through: 0, by: -4) {
                buffer[at] = HexDigit.uppercase(UInt8(truncatingIfNeeded: checksum >> UInt32(shift)))
                at += 1
            }
            for index in 0..<suffix.utf8CodeUnitCount {
                buffer[at] = suffix.utf8Start[index]
                at += 1
            }
            return at
        }
    }
}

extension ImageInfo {
    /// The checksum a blob name holds (what `blobName(owner:)` wrote), to check a file's bytes
    /// against; nil when the name has not that shape.
    public static func checksum(inBlobName name: String) -> UInt32? {
        let digits = name.utf8.dropFirst(37).prefix(8)
        guard digits.count == 8 else { return nil }
        return UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
    }

    /// Whether a stored picture's bytes are what its blob name says they are: the one rule
    /// `closet check` and a backup (`.dump --images`) hold a picture to. A name without a
    /// checksum is not one closet made, so nothing matches it.
    public static func isIntact(_ bytes: [UInt8], blobName name: String) -> Bool {
        checksum(inBlobName: name) == Checksum.crc32(bytes)
    }
}

extension ByteWriter {
    /// Format (1 PNG, 2 JPEG), width, height, byte count, checksum.
    public mutating func imageInfo(_ info: ImageInfo) {
        u8(info.format == .png ? 1 : 2)
        u32(UInt32(clamping: info.width))
        u32(UInt32(clamping: info.height))
        u64(UInt64(clamping: info.bytes))
        u32(info.checksum)
    }
}

extension ByteReader {
    public mutating func imageInfo() throws(Malformed) -> ImageInfo {
        let format: ImageInfo.Format
        switch try u8() {
        case 1: format = .png
        case 2: format = .jpeg
        default: throw Malformed()
        }
        return ImageInfo(
            format: format, width: Int(try u32()), height: Int(try u32()), bytes: Int(clamping: try u64()),
            checksum: try u32())
    }
}

/// Digits grouped by threes with commas, as the apps' decimal number formatters show money
/// and audiences (`353,274`, `KRW 30,000`, `10,000원`).
public enum DigitGrouping {
    public static func grouped(_ number: Int) -> String {
        let digits = String(number.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out += "," }
            out.append(digit)
        }
        return (number < 0 ? "-" : "") + out
    }
}
