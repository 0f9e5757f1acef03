import ClosetCore

/// Lexer: statement text → tokens.
///
/// Works on UTF-8 bytes (fast, and every delimiter is ASCII, so a Hangul or emoji byte is
/// never mistaken for one). A `#` outside quotes ends the statement. In "..." the escapes
/// \" \\ \n \t \r \e and \u{hex} work (so a dump can write any text a store holds, control
/// characters included, as printable ASCII); in '...' nothing is special. The first malformed
/// token stops lexing with a diagnostic pointing at it.
package enum Lexer {
    package static func tokenize(_ text: String) throws(Diagnostic) -> [Token] {
        let bytes = Array(text.utf8)
        var tokens: [Token] = []
        var position = 0
        var sawBlank = true

        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case .space, .tab, .newline, .carriageReturn:
                sawBlank = true
                position += 1
                continue
            case .hash:
                return tokens
            case .equals:
                tokens.append(Token(kind: .equals, range: SourceRange(position, position + 1), followsBlank: sawBlank))
                position += 1
            case .comma:
                tokens.append(Token(kind: .comma, range: SourceRange(position, position + 1), followsBlank: sawBlank))
                position += 1
            case .doubleQuote, .singleQuote:
                let (value, end) = try quoted(bytes, from: position)
                tokens.append(Token(kind: .quoted(value), range: SourceRange(position, end), followsBlank: sawBlank))
                position = end
            default:
                let start = position
                while position < bytes.count, !isDelimiter(bytes[position]) { position += 1 }
                let word = String(decoding: bytes[start..<position], as: UTF8.self)
                tokens.append(Token(kind: .word(word), range: SourceRange(start, position), followsBlank: sawBlank))
            }
            sawBlank = false
        }
        return tokens
    }

    private static func isDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case .space, .tab, .newline, .carriageReturn, .hash, .equals, .comma, .doubleQuote, .singleQuote: true
        default: false
        }
    }

    /// Reads a quoted string starting at `start` (the opening quote); returns its value and
    /// the offset just past the closing quote.
    private static func quoted(_ bytes: [UInt8], from start: Int) throws(Diagnostic) -> (String, Int) {
        let quote = bytes[start]
        var value: [UInt8] = []
        var position = start + 1
        while position < bytes.count {
            let byte = bytes[position]
            if byte == quote { return (String(decoding: value, as: UTF8.self), position + 1) }
            if byte == .newline { break }
            if byte == .backslash, quote == .doubleQuote {
                guard position + 1 < bytes.count else { break }
                let escaped = bytes[position + 1]
                switch escaped {
                case .doubleQuote: value.append(.doubleQuote)
                case .backslash: value.append(.backslash)
                case UInt8(ascii: "n"): value.append(.newline)
                case UInt8(ascii: "t"): value.append(.tab)
                case UInt8(ascii: "r"): value.append(.carriageReturn)
                case UInt8(ascii: "e"): value.append(0x1B)
                case UInt8(ascii: "u"):
                    let (scalar, end) = try unicodeEscape(bytes, at: position)
                    value += Array(String(Character(scalar)).utf8)
                    position = end
                    continue
                default:
                    let end = position + 1 + utf8Length(escaped)
                    let shown = String(decoding: bytes[position..<min(end, bytes.count)], as: UTF8.self)
                    throw .unknownEscape(shown, at: SourceRange(position, min(end, bytes.count)))
                }
                position += 2
                continue
            }
            value.append(byte)
            position += 1
        }
        let end = bytes[start..<bytes.count].firstIndex(of: .newline) ?? bytes.count
        throw .unterminatedString(closing: quote == .doubleQuote ? "\"" : "'", at: SourceRange(start, end))
    }

    /// `\u{1F9E5}`: one to six hex digits naming a Unicode scalar (not a surrogate). Returns
    /// the scalar and the offset past the closing brace.
    private static func unicodeEscape(_ bytes: [UInt8], at position: Int) throws(Diagnostic) -> (Unicode.Scalar, Int) {
        let open = position + 2
        var end = open + 1
        var value: UInt32 = 0
        var digits = 0
        guard open < bytes.count, bytes[open] == UInt8(ascii: "{") else {
            throw .badUnicodeEscape(at: SourceRange(position, min(open, bytes.count)))
        }
        while end < bytes.count, bytes[end] != UInt8(ascii: "}") {
            guard digits < 6, let digit = HexDigit.value(bytes[end]) else {
                throw .badUnicodeEscape(at: SourceRange(position, min(end + 1, bytes.count)))
            }
            value = value * 16 + UInt32(digit)
            digits += 1
            end += 1
        }
        guard end < bytes.count, digits > 0, let scalar = Unicode.Scalar(value) else {
            throw .badUnicodeEscape(at: SourceRange(position, min(end + 1, bytes.count)))
        }
        return (scalar, end + 1)
    }

    private static func utf8Length(_ lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: 4
        case 0xE0...: 3
        case 0xC0...: 2
        default: 1
        }
    }
}

extension UInt8 {
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let hash = UInt8(ascii: "#")
    static let equals = UInt8(ascii: "=")
    static let comma = UInt8(ascii: ",")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let backslash = UInt8(ascii: "\\")
}
