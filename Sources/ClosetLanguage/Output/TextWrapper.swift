/// Free text for people (`.help`, notices) fitted to a terminal: a line wider than it is wrapped
/// at blanks, never mid-word or mid-Hangul, and its continuation lines are indented under the
/// column its text starts in (a help line's summary, after the command and its gap).
enum TextWrapper {
    static func wrap(_ text: String, toCells width: Int) -> String {
        guard width > 20 else { return text }
        var out: [String] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            guard TextWidth.of(line) > width else {
                out.append(line)
                continue
            }
            let indent = hangingIndent(line, width: width)
            let head = String(line.prefix(indent))
            let pieces = TextWidth.wrap(String(line.dropFirst(indent)), toCells: width - indent)
            for (number, piece) in pieces.enumerated() {
                out.append((number == 0 ? head : String(repeating: " ", count: indent)) + piece)
            }
        }
        return out.joined(separator: "\n")
    }

    /// Where a line's text column starts: after its leading blanks and, when it leaves 20 cells
    /// for the text, after the last gap of two or more blanks (`  .mode [..]   set the ...`).
    static func hangingIndent(_ line: String, width: Int) -> Int {
        let characters = Array(line)
        let leading = characters.prefix { $0 == " " }.count
        var column = leading
        var index = leading
        let limit = width - 20
        while index < min(characters.count, limit) {
            if characters[index] == " ", index + 1 < characters.count, characters[index + 1] == " " {
                var end = index
                while end < characters.count, characters[end] == " " { end += 1 }
                // Only an ASCII prefix: a column of cells is a column of characters there.
                if characters[..<end].allSatisfy(\.isASCII) { column = end }
                index = end
            } else {
                index += 1
            }
        }
        return column < limit ? column : leading
    }
}
