/// The one-pass reading of the statements seed scripts are made of: bare words, then
/// `key=value` arguments whose value is one bare word or one double-quoted string without
/// escapes, every item after a blank. It builds the same `CommandCall`, ranges included, as
/// the lexer and parser would, without their tokens; anything else (a comment, a comma, a
/// single quote, a backslash, `let`, a dot command, any malformed item) is declined and the
/// full parser reads it, so every diagnostic still comes from one place.
/// `QuickParserTests` holds it to the full parser on generated statements.
enum QuickParser {
    /// The statement's call, or nil when the full parser must read it.
    static func command(_ text: String) -> CommandCall? {
        var text = text
        return text.withUTF8 { command(in: $0) }
    }

    private static func command(in bytes: UnsafeBufferPointer<UInt8>) -> CommandCall? {
        // Sized for a seed script's statement (two words, a few arguments): grown from empty,
        // each array was allocated again as it grew.
        var words: [Word] = []
        words.reserveCapacity(4)
        var arguments: [Argument] = []
        arguments.reserveCapacity(8)
        var position = 0
        var first: Int?
        var last = 0
        let count = bytes.count

        while true {
            while position < count, isBlank(bytes[position]) { position += 1 }
            guard position < count else { break }
            let start = position
            guard let (key, keyEnd) = bareWord(bytes, from: start) else { return nil }
            if words.isEmpty, arguments.isEmpty {
                // A dot command or a binding has its own grammar.
                if bytes[start] == UInt8(ascii: "."), keyEnd - start > 1 { return nil }
                if keyEnd - start == 3, key == "let" { return nil }
            }
            first = first ?? start
            let keyWord = Word(text: key, isQuoted: false, range: SourceRange(start, keyEnd))
            guard keyEnd < count, bytes[keyEnd] == .equals else {
                // A word must end at a blank or the end (a quote or `=` after a blank is
                // another item; right after it, the full parser decides).
                guard keyEnd == count || isBlank(bytes[keyEnd]) else { return nil }
                words.append(keyWord)
                position = keyEnd
                last = keyEnd
                continue
            }
            guard let (value, valueEnd) = value(bytes, from: keyEnd + 1) else { return nil }
            arguments.append(Argument(key: keyWord, values: [value], range: SourceRange(start, valueEnd)))
            position = valueEnd
            last = valueEnd
        }
        guard let first else { return nil }
        return CommandCall(words: words, arguments: arguments, range: SourceRange(first, last))
    }

    /// A bare word from `start` (at least one byte) and the offset past it; nil if a byte the
    /// quick path leaves to the lexer (a quote, comma, `#`, backslash) starts or ends it.
    private static func bareWord(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (String, Int)? {
        guard let end = bareWordEnd(bytes, from: start) else { return nil }
        return (String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self), end)
    }

    /// Where a bare word from `start` ends (see `bareWord`), without making its text.
    static func bareWordEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var end = start
        while end < bytes.count {
            // Every byte the quick path stops at is below `>` but the backslash: letters take
            // two comparisons, not the switch's dozen.
            if bytes[end] > .equals {
                if bytes[end] == .backslash { return nil }
                end += 1
                continue
            }
            switch bytes[end] {
            case .space, .tab, .newline, .carriageReturn, .equals: break
            case .hash, .comma, .doubleQuote, .singleQuote, .backslash: return nil
            default:
                end += 1
                continue
            }
            break
        }
        return end > start ? end : nil
    }

    /// An argument's value from `start` (after its `=`): one bare word or one double-quoted
    /// string without escapes, ending at a blank or the end; nil otherwise.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (Word, end: Int)? {
        guard let span = valueSpan(bytes, from: start) else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[span.text]), as: UTF8.self)
        return (Word(text: text, isQuoted: span.isQuoted, range: SourceRange(start, span.end)), span.end)
    }

    /// Where the value `value(_:from:)` reads lies: its text (inside the quotes when quoted)
    /// and the offset past it, without making the text.
    static func valueSpan(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (
        text: Range<Int>, isQuoted: Bool, end: Int
    )? {
        let count = bytes.count
        guard start < count else { return nil }
        let span: (text: Range<Int>, isQuoted: Bool, end: Int)
        if bytes[start] == .doubleQuote {
            var end = start + 1
            while end < count, bytes[end] != .doubleQuote {
                if bytes[end] == .backslash || bytes[end] == .newline { return nil }
                end += 1
            }
            guard end < count else { return nil }
            span = ((start + 1)..<end, true, end + 1)
        } else {
            guard let end = bareWordEnd(bytes, from: start) else { return nil }
            span = (start..<end, false, end)
        }
        guard span.end == count || isBlank(bytes[span.end]) else { return nil }
        return span
    }

    static func isBlank(_ byte: UInt8) -> Bool {
        byte == .space || byte == .tab || byte == .newline || byte == .carriageReturn
    }
}
