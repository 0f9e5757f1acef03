/// Parser: tokens → a `Statement` (or nothing, for a blank or comment-only line).
///
/// Grammar, one statement per logical line:
///   statement := '.'name word* | 'let' '$'name '=' command | command
///   command   := item+ ;  item := word | word '=' value (',' value)*
/// `key=value` is written without blanks; a blank after `=` or `,` is a missing value.
/// The parser knows no command names: the evaluator resolves words against the registry.
package enum Parser {
    public static func parse(_ text: String, examples: SyntaxExamples = .generic) throws(Diagnostic) -> Statement? {
        if let call = QuickParser.command(text) { return Statement(kind: .command(call), range: call.range) }
        return try parseTokens(text, examples: examples)
    }

    /// The full grammar, through the lexer's tokens (every statement the quick path declines).
    static func parseTokens(_ text: String, examples: SyntaxExamples = .generic) throws(Diagnostic) -> Statement? {
        let tokens = try Lexer.tokenize(text)
        guard let first = tokens.first else { return nil }
        var cursor = Cursor(tokens: tokens)

        if case .word(let word) = first.kind, word.hasPrefix("."), word.count > 1 {
            return try dotStatement(&cursor)
        }
        if case .word("let") = first.kind {
            return try binding(&cursor, examples)
        }
        let call = try command(&cursor, examples)
        return Statement(kind: .command(call), range: call.range)
    }

    private struct Cursor {
        let tokens: [Token]
        var index = 0
        var current: Token? { index < tokens.count ? tokens[index] : nil }
        var next: Token? { index + 1 < tokens.count ? tokens[index + 1] : nil }
        mutating func advance() { index += 1 }
    }

    private static func word(from token: Token) -> Word? {
        switch token.kind {
        case .word(let text): Word(text: text, isQuoted: false, range: token.range)
        case .quoted(let text): Word(text: text, isQuoted: true, range: token.range)
        case .equals, .comma: nil
        }
    }

    private static func dotStatement(_ cursor: inout Cursor) throws(Diagnostic) -> Statement {
        guard let first = cursor.current, let name = word(from: first) else {
            throw .expectedDotCommand
        }
        cursor.advance()
        var arguments: [Word] = []
        var range = name.range
        while let token = cursor.current {
            range = range.union(token.range)
            if let next = word(from: token) {
                // `.mode json` takes words; `a=b.closet` is read back as one word for `.read` paths.
                if var last = arguments.last, !token.followsBlank, !last.isQuoted, !next.isQuoted,
                    last.range.upper == token.range.lower
                {
                    last.text += next.text
                    last.range = last.range.union(token.range)
                    arguments[arguments.count - 1] = last
                } else {
                    arguments.append(next)
                }
            } else {
                if var last = arguments.last, !token.followsBlank, last.range.upper == token.range.lower {
                    last.text += token.kind == .equals ? "=" : ","
                    last.range = last.range.union(token.range)
                    arguments[arguments.count - 1] = last
                } else {
                    arguments.append(Word(text: token.kind == .equals ? "=" : ",", isQuoted: false, range: token.range))
                }
            }
            cursor.advance()
        }
        let call = DotCall(name: name, arguments: arguments, range: range)
        return Statement(kind: .dot(call), range: range)
    }

    private static func binding(_ cursor: inout Cursor, _ examples: SyntaxExamples) throws(Diagnostic) -> Statement {
        guard let letToken = cursor.current else { throw .expectedLet }
        cursor.advance()
        guard let nameToken = cursor.current, case .word(let raw) = nameToken.kind, raw.hasPrefix("$") else {
            throw .letNeedsVariable(example: examples.binding, at: cursor.current?.range ?? letToken.range)
        }
        let name = String(raw.dropFirst())
        guard Variables.isValidName(name) else {
            throw .invalidVariableName(raw, at: nameToken.range)
        }
        cursor.advance()
        guard let equals = cursor.current, equals.kind == .equals else {
            throw .expectedEquals(after: raw, at: cursor.current?.range ?? nameToken.range)
        }
        cursor.advance()
        guard cursor.current != nil else {
            throw .expectedCommandAfterEquals(at: equals.range)
        }
        let call = try command(&cursor, examples)
        let range = letToken.range.union(call.range)
        return Statement(
            kind: .binding(Binding(name: name, nameRange: nameToken.range, command: call, range: range)),
            range: range)
    }

    private static func command(_ cursor: inout Cursor, _ examples: SyntaxExamples) throws(Diagnostic) -> CommandCall {
        var words: [Word] = []
        var arguments: [Argument] = []
        var range: SourceRange?

        while let token = cursor.current {
            switch token.kind {
            case .equals:
                throw .unexpectedEquals(at: token.range)
            case .comma:
                throw .unexpectedComma(example: examples.list, at: token.range)
            case .word(let text), .quoted(let text):
                let item = Word(text: text, isQuoted: token.kind == .quoted(text), range: token.range)
                cursor.advance()
                if let equals = cursor.current, equals.kind == .equals, !equals.followsBlank {
                    cursor.advance()
                    let argument = try argumentValues(key: item, equals: equals, &cursor)
                    arguments.append(argument)
                    range = range.map { $0.union(argument.range) } ?? argument.range
                } else {
                    words.append(item)
                    range = range.map { $0.union(item.range) } ?? item.range
                }
            }
        }
        return CommandCall(words: words, arguments: arguments, range: range ?? SourceRange(0, 0))
    }

    private static func argumentValues(key: Word, equals: Token, _ cursor: inout Cursor) throws(Diagnostic) -> Argument
    {
        var values: [Word] = []
        var last = equals
        while true {
            guard let token = cursor.current, !token.followsBlank, let value = word(from: token) else {
                let what = last.kind == .comma ? "','" : "'\(key.text)='"
                throw .missingValue(after: what, at: key.range.union(last.range))
            }
            values.append(value)
            cursor.advance()
            guard let comma = cursor.current, comma.kind == .comma, !comma.followsBlank else { break }
            last = comma
            cursor.advance()
        }
        return Argument(key: key, values: values, range: values.reduce(key.range) { $0.union($1.range) })
    }
}
