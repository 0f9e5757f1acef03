/// A small JSON reader for `import`: values plus the line each array element starts on, so
/// every bad row can be named by its line. Written here (not `JSONSerialization`) for the
/// line numbers and for a depth limit that keeps hostile input from exhausting the stack.
public enum JSONValue: Equatable, Sendable {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)), (.number(let a), .number(let b)): a == b
        case (.bool(let a), .bool(let b)): a == b
        case (.null, .null): true
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a.map(\.key) == b.map(\.key) && a.map(\.value) == b.map(\.value)
        default: false
        }
    }
}

public struct JSONReader {
    /// Nesting deeper than this is refused (records are a few levels deep).
    public static let maximumDepth = 64

    public struct Failure: Error, Equatable {
        public var message: String
        public var line: Int
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    /// A top-level array: each element with the line it starts on.
    /// An empty file (or only blanks) has no rows, as an empty CSV file has none; a leading
    /// byte-order mark (as spreadsheets write) is skipped.
    public static func rows(_ text: String) throws(Failure) -> [(line: Int, value: JSONValue)] {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var reader = JSONReader(bytes: bytes)
        reader.skipBlanks()
        if reader.peek == nil { return [] }
        guard reader.peek == UInt8(ascii: "[") else {
            throw Failure(message: "expected a JSON array of objects", line: reader.line)
        }
        reader.position += 1
        var rows: [(line: Int, value: JSONValue)] = []
        reader.skipBlanks()
        if reader.peek == UInt8(ascii: "]") {
            reader.position += 1
        } else {
            while true {
                reader.skipBlanks()
                let line = reader.line
                rows.append((line, try reader.value(depth: 1)))
                reader.skipBlanks()
                guard let next = reader.peek else {
                    throw Failure(message: "the array is not closed", line: reader.line)
                }
                reader.position += 1
                if next == UInt8(ascii: "]") { break }
                guard next == UInt8(ascii: ",") else {
                    throw Failure(message: "expected ',' or ']'", line: reader.line)
                }
            }
        }
        reader.skipBlanks()
        guard reader.peek == nil else { throw Failure(message: "unexpected text after the array", line: reader.line) }
        return rows
    }

    private var peek: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipBlanks() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            if byte == 0x0A { line += 1 }
            position += 1
        }
    }

    private mutating func value(depth: Int) throws(Failure) -> JSONValue {
        guard depth <= Self.maximumDepth else { throw Failure(message: "nested too deeply", line: line) }
        skipBlanks()
        guard let byte = peek else { throw Failure(message: "unexpected end of file", line: line) }
        switch byte {
        case UInt8(ascii: "{"):
            position += 1
            var members: [(key: String, value: JSONValue)] = []
            skipBlanks()
            if peek == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            while true {
                skipBlanks()
                guard peek == UInt8(ascii: "\"") else {
                    throw Failure(message: "expected a field name in quotes", line: line)
                }
                let key = try string()
                // A repeated key would silently keep one of two values: refuse it.
                if members.contains(where: { $0.key == key }) {
                    throw Failure(message: "the field \"\(key)\" appears twice in one object", line: line)
                }
                skipBlanks()
                guard peek == UInt8(ascii: ":") else {
                    throw Failure(message: "expected ':' after \"\(key)\"", line: line)
                }
                position += 1
                members.append((key, try value(depth: depth + 1)))
                skipBlanks()
                guard let next = peek else { throw Failure(message: "the object is not closed", line: line) }
                position += 1
                if next == UInt8(ascii: "}") { return .object(members) }
                guard next == UInt8(ascii: ",") else { throw Failure(message: "expected ',' or '}'", line: line) }
            }
        case UInt8(ascii: "["):
            position += 1
            var elements: [JSONValue] = []
            skipBlanks()
            if peek == UInt8(ascii: "]") {
                position += 1
                return .array(elements)
            }
            while true {
                elements.append(try value(depth: depth + 1))
                skipBlanks()
                guard let next = peek else { throw Failure(message: "the array is not closed", line: line) }
                position += 1
                if next == UInt8(ascii: "]") { return .array(elements) }
                guard next == UInt8(ascii: ",") else { throw Failure(message: "expected ',' or ']'", line: line) }
            }
        case UInt8(ascii: "\""):
            return .string(try string())
        case UInt8(ascii: "t"): return try literal("true", .bool(true))
        case UInt8(ascii: "f"): return try literal("false", .bool(false))
        case UInt8(ascii: "n"): return try literal("null", .null)
        default:
            let start = position
            while let next = peek,
                (next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9")) || "+-.eE".utf8.contains(next)
            {
                position += 1
            }
            guard position > start else { throw Failure(message: "unexpected character", line: line) }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            guard Double(text) != nil else { throw Failure(message: "'\(text)' is not a number", line: line) }
            return .number(text)
        }
    }

    private mutating func literal(_ word: String, _ value: JSONValue) throws(Failure) -> JSONValue {
        let utf8 = Array(word.utf8)
        guard position + utf8.count <= bytes.count, Array(bytes[position..<(position + utf8.count)]) == utf8 else {
            throw Failure(message: "unexpected character", line: line)
        }
        position += utf8.count
        return value
    }

    private mutating func string() throws(Failure) -> String {
        position += 1  // opening quote
        var out: [UInt8] = []
        while let byte = peek {
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let escaped = peek else { break }
                position += 1
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(escaped)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if (0xD800...0xDBFF).contains(scalar), peek == UInt8(ascii: "\\"),
                        position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u")
                    {
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else {
                            throw Failure(message: "a broken surrogate pair", line: line)
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let unicode = Unicode.Scalar(scalar) else {
                        throw Failure(message: "a broken \\u escape", line: line)
                    }
                    out += Array(String(Character(unicode)).utf8)
                default:
                    throw Failure(message: "unknown escape in a string", line: line)
                }
            case 0x0A:
                throw Failure(message: "a line break inside a string", line: line)
            default:
                out.append(byte)
            }
        }
        throw Failure(message: "a string is not closed", line: line)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard position + 4 <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16)
        else { throw Failure(message: "a broken \\u escape", line: line) }
        position += 4
        return value
    }
}
