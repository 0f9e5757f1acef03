/// A span of a statement's text in UTF-8 byte offsets. Byte offsets keep the lexer fast on
/// long seed scripts; the diagnostic renderer turns them into line and column for people.
public struct SourceRange: Hashable, Sendable {
    public var lower: Int
    package var upper: Int

    public init(_ lower: Int, _ upper: Int) {
        self.lower = lower
        self.upper = upper
    }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(min(lower, other.lower), max(upper, other.upper))
    }
}

/// The text of one statement as the evaluator sees it: physical lines joined (a trailing `\`
/// removed, lines separated by "\n"), with where it came from for diagnostics and echo.
package struct StatementSource: Sendable {
    /// The physical lines as typed, including any trailing `\`.
    package var lines: [String]
    /// The line number of the first physical line in its file (1-based).
    package var firstLine: Int
    /// The joined text the lexer reads.
    public var text: String

    /// A statement on one line.
    package init(line: String, firstLine: Int) {
        lines = [line]
        self.firstLine = firstLine
        text = line
    }

    public init(lines: [String], firstLine: Int = 1) {
        self.lines = lines
        self.firstLine = firstLine
        var text = ""
        for (index, line) in lines.enumerated() {
            if index > 0 { text += "\n" }
            text += index < lines.count - 1 ? String(line.dropLast()) : line
        }
        self.text = text
    }

    /// A statement marked `!` (it must fail, as testscript's `!`): the same text with the mark
    /// blanked, so positions in it stay the positions in the line as written; nil when
    /// unmarked.
    package var mustFailBlanked: StatementSource? {
        // Bytes, not characters: this runs for every statement a script replays.
        guard let first = lines.first,
            let mark = first.utf8.firstIndex(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }),
            first.utf8[mark] == UInt8(ascii: "!")
        else { return nil }
        // The text starts with the first line, so the mark is at the same place in both
        // (everything before it is one-byte blanks, so bytes and characters agree).
        let offset = first.utf8.distance(from: first.utf8.startIndex, to: mark)
        var blanked = self
        blanked.lines[0] = String(first.prefix(offset)) + " " + String(first.dropFirst(offset + 1))
        blanked.text = String(text.prefix(offset)) + " " + String(text.dropFirst(offset + 1))
        return blanked
    }

    public init(_ text: String) {
        self.init(lines: [text])
    }
}
