/// JSON literals (RFC 8259) as closet writes them everywhere: the renderer's output and a
/// pack's served answers (`closet serve`), so both escape text alike.
public enum JSONText {
    /// A finite number as JSON writes it: integral values without a fraction.
    public static func number(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
        return String(number)
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; other
    /// text (Hangul included) kept as UTF-8.
    public static func string(_ text: String) -> String {
        // Most text needs no escape: it is copied whole. Otherwise the UTF-8 bytes are
        // escaped one by one (appending scalars to a String one at a time was most of
        // rendering a page of rows).
        let utf8 = text.utf8
        let needsEscape =
            utf8.withContiguousStorageIfAvailable { bytes in
                bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
            } ?? utf8.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C }
        guard needsEscape else { return "\"" + text + "\"" }
        var out: [UInt8] = [0x22]
        out.reserveCapacity(utf8.count + 8)
        for byte in utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, 0x6E]
            case 0x0D: out += [0x5C, 0x72]
            case 0x09: out += [0x5C, 0x74]
            case 0x08: out += [0x5C, 0x62]
            case 0x0C: out += [0x5C, 0x66]
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out += [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
        return String(decoding: out, as: UTF8.self)
    }
}
