import Foundation
import Testing

@testable import ClosetCore

/// A search answered over bytes gives Foundation's case-insensitive answer wherever bytes decide,
/// and leaves to Foundation the text where they cannot.
@Suite struct TextSearchTests {
    /// Pieces that meet every rule: ASCII in both cases, Hangul syllables, and what bytes cannot
    /// decide (accents precomposed and combining, jamo, the Kelvin sign, ß, CR LF, an emoji).
    static let pieces = [
        "k", "K", "n", "I", "i", "t", "T", "a", " ", "-", "니", "트", "니트", "각", "가", "\r", "\n", "\r\n",
        "é", "e\u{301}", "\u{301}", "\u{1100}\u{1161}", "\u{11A8}", "\u{212A}", "ß", "ss", "🙂", "\u{FEFF}",
    ]

    static func random(_ generator: inout some RandomNumberGenerator, upTo length: Int) -> String {
        (0..<Int.random(in: 0...length, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
            .joined()
    }

    @Test func bytesDecideAsFoundationDoes() {
        var generator = SystemRandomNumberGenerator()
        var decided = 0
        for _ in 0..<20_000 {
            let text = Self.random(&generator, upTo: 3)
            guard !text.isEmpty else { continue }
            let haystack = Self.random(&generator, upTo: 8)
            let search = TextSearch(text)
            let expected = haystack.range(of: text, options: .caseInsensitive) != nil
            #expect(
                search.matches(haystack) == expected,
                "\(Array(text.unicodeScalars)) in \(Array(haystack.unicodeScalars))")
            let bytes = Array(haystack.utf8)
            if let answer = bytes.withUnsafeBytes({ search.matches(utf8: $0) }) {
                decided += 1
                #expect(answer == expected, "\(Array(text.unicodeScalars)) in \(Array(haystack.unicodeScalars))")
            }
        }
        #expect(decided > 1_000)  // the pool gives bytes plenty to decide
    }

    @Test func plainTextIsDecidedByBytes() {
        let cases: [(String, String, Bool)] = [
            ("knit", "Navy KNIT wool", true), ("KNIT", "knit", true), ("니트", "검정 니트", true), ("니트", "니", false),
            ("가", "각", false), ("t 니", "knit 니트", true), ("wool", "woo", false), ("x", "", false),
        ]
        for (text, haystack, expected) in cases {
            let bytes = Array(haystack.utf8)
            #expect(bytes.withUnsafeBytes { TextSearch(text).matches(utf8: $0) } == expected, "\(text) in \(haystack)")
        }
        // What bytes cannot decide is left to Foundation, on either side.
        for (text, haystack) in [("cafe", "cafe\u{301}"), ("k", "\u{212A}"), ("é", "é"), ("\n", "a\r\nb")] {
            let bytes = Array(haystack.utf8)
            #expect(bytes.withUnsafeBytes { TextSearch(text).matches(utf8: $0) } == nil, "\(text) in \(haystack)")
        }
    }
}
