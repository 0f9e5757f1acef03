import ClosetCore
import ClosetShell
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// Nothing stored reaches a terminal raw; what is shown reads back through the lexer.
@Suite struct TerminalTextTests {
    /// Every scalar a terminal or a bidi renderer acts on.
    static let dangerous: [Unicode.Scalar] =
        (0x00...0x1F).compactMap(Unicode.Scalar.init) + (0x7F...0x9F).compactMap(Unicode.Scalar.init)
        + [
            0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068,
            0x2069,
        ]
        .compactMap(Unicode.Scalar.init)

    static func isSafe(_ text: String) -> Bool {
        !text.unicodeScalars.contains { scalar in dangerous.contains(scalar) && scalar != "\n" }
    }

    @Test func everyDangerousScalarIsEscapedAndReadsBack() throws {
        for scalar in Self.dangerous {
            let text = "a\(Character(scalar))b"
            let shown = TerminalText.visible(text)
            #expect(!shown.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
            let tokens = try Lexer.tokenize("x=" + DumpWriter.quote(text))
            #expect(tokens.last?.kind == .quoted(text), "U+\(String(scalar.value, radix: 16))")
            // A dump never carries it raw (its quoting's plain path must not take it).
            #expect(!DumpWriter.quote(text).unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16))")
        }
        #expect(TerminalText.visible("니트 🧥 \\ \"") == "니트 🧥 \\ \"")
    }

    @Test func unicodeEscapesAreCheckedWhereTheyAreWritten() throws {
        #expect(try Lexer.tokenize(#"x="\u{1F9E5}\u{AC00}""#).last?.kind == .quoted("🧥가"))
        for bad in [#"x="\u1F9E5""#, #"x="\u{}""#, #"x="\u{D800}""#, #"x="\u{1234567}""#, #"x="\u{12G}""#] {
            #expect(throws: Diagnostic.self, "\(bad)") { try Lexer.tokenize(bad) }
        }
    }

    @Test func aRawEscapeInAStatementIsEscapedInTheErrorAndTheCaretStaysUnderTheWord() {
        let harness = Harness()
        let line = "add clothes category=\u{1B}]0;title\u{7}top season=fall"
        let error = harness.error(line)
        #expect(!error.contains("\u{1B}") && !error.contains("\u{7}"))
        let lines = error.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines[1] == #"add clothes category=\e]0;title\u{7}top season=fall"#)
        #expect(lines[2] == String(repeating: " ", count: 21) + String(repeating: "^", count: 18))
    }

    @Test func storedTextIsSafeInTablesLinesAndCompletion() {
        let harness = Harness(format: .table)
        for scalar in Self.dangerous {
            harness.run(
                "add clothes category=top season=fall description=\(DumpWriter.quote("x\(Character(scalar))y"))")
        }
        #expect(Self.isSafe(harness.output("list clothes")))
        harness.session.settings.format = .line
        #expect(Self.isSafe(harness.output("list clothes")))
        let completer = Completer(session: harness.session) { _ in [] }
        let shown = completer.complete(line: "show clothes ", cursor: 13).candidates.map(\.display).joined()
        #expect(!shown.isEmpty && Self.isSafe(shown))
    }

    @Test func aScriptsFileNameIsEscapedInItsErrors() {
        let rendered = DiagnosticRenderer.render(
            Diagnostic("test", "bad", at: SourceRange(0, 1)), source: StatementSource("x"),
            origin: "\u{1B}]0;t\u{7}.closet")
        #expect(rendered.hasPrefix(#"\e]0;t\u{7}.closet:1:1: error: bad"#))
        #expect(Self.isSafe(rendered))
    }
}

/// Issue 25, item 7: a column declared whole (a dog's notice period) is never cut by a narrow
/// terminal: the others narrow, or the table goes a field per line; and free text wraps at
/// blanks under its summary column.
@Suite struct FittingTests {
    @Test func aWholeColumnIsNeverCut() {
        let long = String(repeating: "word ", count: 8)
        var grid = Grid(
            columns: ["note", "notice"], rows: [[long, "2024-05-01 ~ 2024-05-11"]], isListing: true)
        grid.wholeColumns = [1]
        let fitted = TableRenderer(maxWidth: 50).render(grid)
        #expect(fitted.contains("2024-05-01 ~ 2024-05-11") && fitted.contains("…"), "\(fitted)")
        grid.wholeColumns = []
        let cut = TableRenderer(maxWidth: 34).render(grid)
        #expect(!cut.contains("2024-05-01 ~ 2024-05-11"), "\(cut)")
    }

    @Test func textWrapsUnderItsSummaryColumn() {
        let line = "  list clothes      list clothes, filtered and sorted like the app's clothes screen"
        let wrapped = TextWrapper.wrap(line, toCells: 50).split(separator: "\n").map(String.init)
        #expect(wrapped.count == 3 && wrapped.allSatisfy { TextWidth.of($0) <= 50 }, "\(wrapped)")
        #expect(
            wrapped[1].hasPrefix(String(repeating: " ", count: 20))
                && !wrapped[1].hasPrefix(String(repeating: " ", count: 21)))
        #expect(TextWrapper.wrap("짧은 줄", toCells: 50) == "짧은 줄")
    }
}
