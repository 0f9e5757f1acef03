import TestSupport
import Testing

@testable import ClosetLanguage

@Suite struct LexerTests {
    func kinds(_ text: String) throws -> [Token.Kind] { try Lexer.tokenize(text).map(\.kind) }

    @Test func wordsEqualsCommasAndQuotes() throws {
        #expect(
            try kinds("list clothes season=fall,winter") == [
                .word("list"), .word("clothes"), .word("season"), .equals, .word("fall"), .comma, .word("winter"),
            ])
        #expect(
            try kinds("description=\"a b\" name='c d'") == [
                .word("description"), .equals, .quoted("a b"), .word("name"), .equals, .quoted("c d"),
            ])
    }

    @Test func doubleQuotesHaveEscapesSingleQuotesDoNot() throws {
        #expect(try kinds(#""q\"b\\n\n\t""#) == [.quoted("q\"b\\n\n\t")])
        #expect(try kinds(#"'a\nb'"#) == [.quoted(#"a\nb"#)])
    }

    @Test func commentEndsTheStatementOutsideQuotes() throws {
        #expect(try kinds("count clothes # how many") == [.word("count"), .word("clothes")])
        #expect(try kinds("x=\"# kept\"") == [.word("x"), .equals, .quoted("# kept")])
        #expect(try kinds("   # only a comment").isEmpty)
    }

    @Test func rangesAreUTF8ByteOffsets() throws {
        let tokens = try Lexer.tokenize("season=가을 x")
        #expect(tokens[2].range == SourceRange(7, 13))
        #expect(tokens[3].range == SourceRange(14, 15))
        #expect(tokens[3].followsBlank)
        #expect(!tokens[2].followsBlank)
    }

    @Test func unterminatedStringPointsAtItsStart() {
        #expect(
            throws: Diagnostic(
                "syntax.unterminated-string", "unterminated string: add a closing \"", at: SourceRange(2, 6))
        ) {
            try Lexer.tokenize("a \"bcd")
        }
    }

    @Test func unknownEscapeIsNamed() {
        #expect(
            throws: Diagnostic(
                "syntax.unknown-escape", #"unknown escape '\q' in a string; use \" \\ \n \t \r \e or \u{hex}"#,
                at: SourceRange(2, 4))
        ) {
            try Lexer.tokenize(#""a\q""#)
        }
    }
}

@Suite struct ParserTests {
    func call(_ text: String) throws -> CommandCall {
        guard case .command(let call)? = try Parser.parse(text)?.kind else {
            Issue.record("not a command")
            throw Diagnostic("test", "not a command", at: nil)
        }
        return call
    }

    @Test func wordsAndArgumentsInAnyOrder() throws {
        let parsed = try call("edit clothes season=fall 3F2A description=\"x\"")
        #expect(parsed.words.map(\.text) == ["edit", "clothes", "3F2A"])
        #expect(parsed.arguments.map(\.key.text) == ["season", "description"])
        #expect(parsed.arguments[1].values.map(\.text) == ["x"])
        #expect(parsed.arguments[1].values[0].isQuoted)
    }

    @Test func listValues() throws {
        let parsed = try call("list clothes season=fall,winter,가을")
        #expect(parsed.arguments[0].values.map(\.text) == ["fall", "winter", "가을"])
    }

    @Test func blankLineAndCommentParseToNothing() throws {
        #expect(try Parser.parse("") == nil)
        #expect(try Parser.parse("  # note") == nil)
    }

    @Test func binding() throws {
        guard case .binding(let binding)? = try Parser.parse("let $코트 = add clothes category=outer season=winter")?.kind
        else {
            Issue.record("not a binding")
            return
        }
        #expect(binding.name == "코트")
        #expect(binding.command.words.map(\.text) == ["add", "clothes"])
    }

    @Test func dotCommandKeepsWordsTogether() throws {
        guard case .dot(let dot)? = try Parser.parse(".read my=file.closet")?.kind else {
            Issue.record("not a dot command")
            return
        }
        #expect(dot.name.text == ".read")
        #expect(dot.arguments.map(\.text) == ["my=file.closet"])
    }

    @Test func missingValuesAndStrayPunctuationAreErrors() {
        #expect(throws: Diagnostic.self) { try Parser.parse("add clothes category=") }
        #expect(throws: Diagnostic.self) { try Parser.parse("add clothes category= top") }
        #expect(throws: Diagnostic.self) { try Parser.parse("add clothes season=fall,") }
        #expect(throws: Diagnostic.self) { try Parser.parse("add clothes category =top") }
        #expect(throws: Diagnostic.self) { try Parser.parse("let x = list clothes") }
        #expect(throws: Diagnostic.self) { try Parser.parse("let $x list clothes") }
    }

    /// A script's lines: split on LF, one CR before it dropped, no empty last line for a final
    /// newline; what a byte-by-byte reading gives, on generated scripts.
    @Test func scriptLinesSplitOnNewlines() {
        var random = SeededRandom(seed: 26)
        let pieces = ["add", " ", "\n", "\r\n", "\r", "", "é", "\\", "#", "\n\n", "\r\r\n"]
        for _ in 0..<2_000 {
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                .joined()
            var expected: [String] = []
            var line: [UInt8] = []
            for byte in text.utf8 {
                guard byte == UInt8(ascii: "\n") else {
                    line.append(byte)
                    continue
                }
                if line.last == UInt8(ascii: "\r") { line.removeLast() }
                expected.append(String(decoding: line, as: UTF8.self))
                line = []
            }
            if !line.isEmpty { expected.append(String(decoding: line, as: UTF8.self)) }
            #expect(text.scriptLines == expected, "\(text.debugDescription)")
        }
    }

    @Test func continuationJoinsLinesUnlessTheBackslashIsInAComment() {
        var assembler = LineAssembler()
        #expect(assembler.add("add clothes \\", lineNumber: 3) == nil)
        #expect(assembler.isContinuing)
        let source = assembler.add("  category=top", lineNumber: 4)
        #expect(source?.text == "add clothes \n  category=top")
        #expect(source?.firstLine == 3)
        #expect(assembler.add("count clothes # not continued \\", lineNumber: 5) != nil)
        #expect(assembler.add("x=\"a \\\"\" \\", lineNumber: 6) == nil)
    }
}
