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
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count + 2)
        write(text, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The literal's bytes appended: output is built as bytes and made a string once (small
    /// strings appended one by one were most of rendering a page of rows).
    public static func write(_ text: String, into out: inout [UInt8]) {
        out.append(0x22)
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { bytes in
            // Runs with nothing to escape are copied whole.
            var start = 0
            for index in bytes.indices where bytes[index] < 0x20 || bytes[index] == 0x22 || bytes[index] == 0x5C {
                out.append(contentsOf: bytes[start..<index])
                escape(bytes[index], into: &out)
                start = index + 1
            }
            out.append(contentsOf: bytes[start...])
        }
        if copied == nil {
            for byte in text.utf8 {
                if byte < 0x20 || byte == 0x22 || byte == 0x5C { escape(byte, into: &out) } else { out.append(byte) }
            }
        }
        out.append(0x22)
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// One byte that needs an escape: only ASCII ones do (UTF-8's other bytes are ≥ 0x80).
    private static func escape(_ byte: UInt8, into out: inout [UInt8]) {
        switch byte {
        case 0x22: out += [0x5C, 0x22]
        case 0x5C: out += [0x5C, 0x5C]
        case 0x0A: out += [0x5C, 0x6E]
        case 0x0D: out += [0x5C, 0x72]
        case 0x09: out += [0x5C, 0x74]
        case 0x08: out += [0x5C, 0x62]
        case 0x0C: out += [0x5C, 0x66]
        default: out += [0x5C, 0x75, 0x30, 0x30, hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
        }
    }

    /// Compact JSON text (closet's own, one value per line) indented two spaces a level, as
    /// `jq .` shows it: for people at a terminal. Strings are copied untouched; an empty
    /// object or list stays `{}` or `[]`.
    public static func pretty(_ compact: String) -> String {
        let bytes = Array(compact.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        var depth = 0
        var index = 0
        func newline() {
            out.append(0x0A)
            out.append(contentsOf: repeatElement(0x20, count: 2 * depth))
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x22:  // a string, escapes and all
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != 0x22 { index += bytes[index] == 0x5C ? 2 : 1 }
                out.append(contentsOf: bytes[start..<min(index + 1, bytes.count)])
            case 0x7B, 0x5B:  // { [
                out.append(byte)
                if index + 1 < bytes.count, bytes[index + 1] == byte + 2 {
                    out.append(byte + 2)
                    index += 1
                } else {
                    depth += 1
                    newline()
                }
            case 0x7D, 0x5D:  // } ]
                depth = max(0, depth - 1)
                newline()
                out.append(byte)
            case 0x2C:  // ,
                out.append(byte)
                newline()
            case 0x3A:  // :
                out.append(contentsOf: [0x3A, 0x20])
            default:
                out.append(byte)
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
