import TestSupport
import Testing

@testable import ClosetLanguage

/// The quick path must read exactly what the full parser reads, or decline.
@Suite struct QuickParserTests {
    /// Pieces statements are made of, tricky ones included: quotes, escapes, commas, `=` in
    /// odd places, comments, Hangul, blanks of every kind, dots and `let`.
    static let pieces = [
        "add", "clothes", "list", "let", ".mode", ".", "$x", "@1", "category", "season", "description", "=", "==",
        "top", "가을", "fall,winter", ",", "\"navy knit\"", "\"\"", "\"a\\\"b\"", "'single'", "\"open", "#", "# note",
        "x=1", "k=\"v w\"", "k=v=w", "k=", "=v", "k=\"v\"w", "w\"q\"", "\\", "2024-11-02T10:00:00Z", "é", "🧥",
        " ", "  ", "\t", "\r", "\n", "",
    ]

    /// What the full parser reads: a command's call, or nil for anything else (or an error).
    func full(_ text: String) -> CommandCall? {
        do {
            guard case .command(let call)? = try Parser.parseTokens(text)?.kind else { return nil }
            return call
        } catch {
            return nil
        }
    }

    @Test func equalsTheFullParserOnGeneratedStatements() {
        var random = SeededRandom(seed: 12)
        var taken = 0
        for _ in 0..<40_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...7, using: &random) {
                text += Self.pieces.randomElement(using: &random)!
                if Bool.random(using: &random) { text += " " }
            }
            guard let quick = QuickParser.command(text) else { continue }
            taken += 1
            #expect(full(text) == quick, "\(text.debugDescription)")
        }
        // The generator reaches the quick path often, so the comparison means something.
        #expect(taken > 2_000)
    }

    @Test func takesSeedStatementsAndDeclinesTheRest() {
        let seed = "add clothes category=top season=가을 description=\"navy knit\" created=2024-11-02T10:00:00Z"
        let call = QuickParser.command(seed)
        #expect(call != nil)
        #expect(call == full(seed))
        #expect(call?.arguments.map(\.key.text) == ["category", "season", "description", "created"])
        #expect(call?.arguments[2].values == [Word(text: "navy knit", isQuoted: true, range: SourceRange(51, 62))])
        for declined in [
            "list clothes season=fall,winter", "count clothes # how many", "let $x = list clothes", ".mode json",
            "add clothes description='a b'", "add clothes description=\"a\\nb\"", "add clothes category=", "", "  ",
            "add clothes x=\"open",
        ] {
            #expect(QuickParser.command(declined) == nil, "\(declined)")
        }
    }
}
