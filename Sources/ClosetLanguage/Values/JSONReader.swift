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
    package static let maximumDepth = 64

    public struct Failure: Error, Equatable {
        public var message: String
        public var line: Int
    }

    private let bytes: [UInt8]
    private var position = 0
    private var line = 1

    /// One JSON value and nothing after it but blanks (a request's body).
    public static func value(_ bytes: [UInt8]) throws(Failure) -> JSONValue {
        var reader = JSONReader(bytes: bytes)
        reader.skipBlanks()
        let value = try reader.value(depth: 1)
        reader.skipBlanks()
        guard reader.peek == nil else { throw Failure(message: "more follows the JSON value", line: reader.line) }
        return value
    }

    /// A top-level array: each element with the line it starts on. An empty file (or only
    /// blanks) is not JSON, and refused: a truncated export must not import as nothing (`[]`
    /// is the file of no rows). A leading byte-order mark (as spreadsheets write) is skipped.
    public static func rows(_ text: String) throws(Failure) -> [(line: Int, value: JSONValue)] {
        let bytes = Array(text.utf8)
        do throws(ImportFileProblem) {
            let cursor = try JSONFileCursor(
                BytesReading(bytes), pieceSize: bytes.count + 4, longestRecord: FilePieces.longestRecord)
            var rows: [(line: Int, value: JSONValue)] = []
            while let row = try cursor.next() { rows.append(row) }
            return rows
        } catch {
            switch error {
            case .syntax(let message, let line): throw Failure(message: message, line: line)
            case .notUTF8, .cannotRead: throw Failure(message: "not UTF-8", line: 1)  // (a string is UTF-8)
            case .changedWhileRead(let row): throw Failure(message: row.message, line: row.line)  // (read once)
            }
        }
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
            return .number(try number())
        }
    }

    /// RFC 8259 §6 exactly: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`, and a
    /// value a double can hold (`01`, `1.`, `.5`, `+1` and `1e400` are refused).
    private mutating func number() throws(Failure) -> String {
        let start = position
        func isDigit(_ byte: UInt8?) -> Bool {
            byte.map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false
        }
        func digits() -> Int {
            var count = 0
            while isDigit(peek) {
                position += 1
                count += 1
            }
            return count
        }
        if peek == UInt8(ascii: "-") { position += 1 }
        guard isDigit(peek) else { throw Failure(message: "unexpected character", line: line) }
        if peek == UInt8(ascii: "0") {
            position += 1
        } else {
            _ = digits()
        }
        if peek == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw Failure(message: "a number needs digits after its '.'", line: line) }
        }
        if peek == UInt8(ascii: "e") || peek == UInt8(ascii: "E") {
            position += 1
            if peek == UInt8(ascii: "+") || peek == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw Failure(message: "a number needs digits in its exponent", line: line) }
        }
        // What follows a number is a blank, a ',', a ']' or a '}' (never `01` or `1.2.3`).
        if let next = peek, isDigit(next) || "+-.eE".utf8.contains(next) {
            throw Failure(
                message: "'\(String(decoding: bytes[start...position], as: UTF8.self))' is not a number", line: line)
        }
        let text = String(decoding: bytes[start..<position], as: UTF8.self)
        guard let value = Double(text), value.isFinite else {
            throw Failure(message: "'\(text)' is too large a number", line: line)
        }
        return text
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
        // Most strings have no escape: their bytes are the text, made a string at once.
        let start = position
        let (end, closed) = bytes.withUnsafeBufferPointer { all -> (Int, Bool) in
            var index = start
            while index < all.count {
                let byte = all[index]
                if byte == UInt8(ascii: "\"") { return (index, true) }
                if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                index += 1
            }
            return (index, false)
        }
        position = end
        if closed {
            position += 1
            return bytes.withUnsafeBufferPointer {
                String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self)
            }
        }
        var out = Array(bytes[start..<position])
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
            case 0x00..<0x20:
                // RFC 8259 §7: control characters are written escaped (\t, \u0001), never raw.
                throw Failure(message: "a control character inside a string (write it as \\u00XX)", line: line)
            default:
                out.append(byte)
            }
        }
        throw Failure(message: "a string is not closed", line: line)
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        // Four hex digits exactly (UInt32(_:radix:) alone would take a sign).
        guard position + 4 <= bytes.count,
            bytes[position..<(position + 4)].allSatisfy({
                ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x66)
            }),
            let value = UInt32(String(decoding: bytes[position..<(position + 4)], as: UTF8.self), radix: 16)
        else { throw Failure(message: "a broken \\u escape", line: line) }
        position += 4
        return value
    }
}
