/// Reads what closet needs from a picture's bytes, with no image library: the format from
/// its signature and the pixel size from its header (PNG `IHDR`, JPEG `SOFn`, its sides
/// swapped when the EXIF orientation turns it a quarter: the size it is seen at). It also walks
/// the file's structure to its end marker, so a truncated file is refused, not half-stored.
public enum ImageHeader {
    /// Larger pictures are refused: an app's photo does not need more, and the cache's
    /// byte limit should hold many.
    public static let maximumBytes = 20 << 20

    public enum Problem: Error, Equatable, Sendable {
        case notAnImage
        case truncated(ImageInfo.Format)
        case tooLarge(Int)

        public var message: String {
            switch self {
            case .notAnImage: "not a PNG or JPEG file"
            case .truncated(let format): "a truncated or damaged \(format == .png ? "PNG" : "JPEG") file"
            case .tooLarge(let bytes):
                "\(bytes) bytes is over the \(ImageHeader.maximumBytes >> 20)MB limit for pictures"
            }
        }
    }

    public static func inspect(_ bytes: [UInt8]) throws(Problem) -> ImageInfo {
        guard bytes.count <= maximumBytes else { throw .tooLarge(bytes.count) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return try png(bytes) }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return try jpeg(bytes) }
        throw .notAnImage
    }

    private static func bigEndian(_ bytes: [UInt8], _ at: Int, _ count: Int) -> Int {
        var value = 0
        for i in at..<(at + count) { value = value << 8 | Int(bytes[i]) }
        return value
    }

    private static func png(_ bytes: [UInt8]) throws(Problem) -> ImageInfo {
        // The first chunk must be IHDR; then chunks run length | type | data | crc to IEND.
        guard bytes.count >= 33, bigEndian(bytes, 8, 4) == 13, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
            throw .truncated(.png)
        }
        // The header's own checksum, and the format's limit of 2^31 - 1 pixels a side: a
        // header claiming 4294967295 x 4294967295 is damage, not a picture.
        guard Checksum.crc32(bytes[12..<29]) == UInt32(bigEndian(bytes, 29, 4)) else { throw .truncated(.png) }
        let width = bigEndian(bytes, 16, 4)
        let height = bigEndian(bytes, 20, 4)
        guard width <= Int(Int32.max), height <= Int(Int32.max) else { throw .truncated(.png) }
        var position = 8
        while true {
            guard position + 12 <= bytes.count else { throw .truncated(.png) }
            let length = bigEndian(bytes, position, 4)
            let type = Array(bytes[(position + 4)..<(position + 8)])
            guard length <= bytes.count - position - 12 else { throw .truncated(.png) }
            position += 12 + length
            if type == Array("IEND".utf8) { break }
        }
        guard width > 0, height > 0 else { throw .truncated(.png) }
        return ImageInfo(format: .png, width: width, height: height, bytes: bytes.count)
    }

    private static func jpeg(_ bytes: [UInt8]) throws(Problem) -> ImageInfo {
        guard bytes.count >= 4, bytes[bytes.count - 2] == 0xFF, bytes[bytes.count - 1] == 0xD9 else {
            throw .truncated(.jpeg)
        }
        var position = 2
        var orientation = 1
        while position + 4 <= bytes.count {
            guard bytes[position] == 0xFF else { throw .truncated(.jpeg) }
            let marker = bytes[position + 1]
            if marker == 0xFF {
                position += 1
                continue
            }  // fill byte
            let length = bigEndian(bytes, position + 2, 2)
            guard length >= 2, position + 2 + length <= bytes.count else { throw .truncated(.jpeg) }
            let isStartOfFrame = (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker)
            if isStartOfFrame {
                guard length >= 7 else { throw .truncated(.jpeg) }
                let height = bigEndian(bytes, position + 5, 2)
                let width = bigEndian(bytes, position + 7, 2)
                guard width > 0, height > 0 else { throw .truncated(.jpeg) }
                let turned = ExifOrientation.swapsSides(orientation)
                return ImageInfo(
                    format: .jpeg, width: turned ? height : width, height: turned ? width : height, bytes: bytes.count)
            }
            if marker == 0xE1, let value = ExifOrientation.read(bytes[(position + 4)..<(position + 2 + length)]) {
                orientation = value
            }
            if marker == 0xDA || marker == 0xD9 { break }  // scan data before any frame header
            position += 2 + length
        }
        throw .truncated(.jpeg)
    }
}
