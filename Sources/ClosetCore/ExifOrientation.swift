/// The EXIF orientation (TIFF tag 0x0112 of the first IFD, 1-8) in a JPEG's APP1 segment: how
/// a camera's picture is turned to be seen upright. Read by the header reader (5-8 swap the
/// picture's sides, so its stored size is the size it is seen at) and by the decoder.
public enum ExifOrientation {
    /// The orientation an APP1 segment's body gives; nil when it is not EXIF or has none.
    public static func read<Bytes: Collection<UInt8>>(_ segment: Bytes) -> Int? {
        let bytes = Array(segment)
        guard bytes.count >= 14, bytes[0..<6].elementsEqual([0x45, 0x78, 0x69, 0x66, 0, 0]) else { return nil }
        let tiff = 6
        let little: Bool
        switch (bytes[tiff], bytes[tiff + 1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func number(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= bytes.count else { return nil }
            var value = 0
            for i in 0..<count { value |= Int(bytes[at + i]) << (8 * (little ? i : count - 1 - i)) }
            return value
        }
        guard let first = number(tiff + 4, 4), let entries = number(tiff + first, 2) else { return nil }
        for entry in 0..<min(entries, 512) {
            let at = tiff + first + 2 + entry * 12
            guard let tag = number(at, 2) else { return nil }
            if tag == 0x0112, let type = number(at + 2, 2), type == 3, let value = number(at + 8, 2),
                (1...8).contains(value)
            {
                return value
            }
        }
        return nil
    }

    /// Whether the orientation turns the picture a quarter (its sides swap).
    public static func swapsSides(_ orientation: Int) -> Bool { orientation >= 5 && orientation <= 8 }
}
