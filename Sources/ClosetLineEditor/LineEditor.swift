/// Where the interactive loop gets its lines: libedit on a terminal, a plain reader for
/// pipes, a scripted editor in tests. The loop itself (prompts, continuation, Ctrl-C) is the
/// same for all three.
package protocol LineEditor: AnyObject {
    func readLine(prompt: String) -> LineInput
    /// Keeps a line in the history (the editor decides whether it has one).
    func remember(_ line: String)
    /// Saves the history and restores the terminal.
    func close()
}

public enum LineInput: Equatable, Sendable {
    case line(String)
    /// Ctrl-C: the line being edited is abandoned.
    case interrupted
    /// Ctrl-D on an empty line, or the end of a pipe.
    case endOfInput
    /// A line that is not UTF-8 text: the offset of its first invalid byte. It is refused,
    /// never stored with replacement characters.
    case invalidText(offset: Int)
}

/// What Tab offers: the byte offset where the word being completed starts, and what it can
/// become.
package struct CompletionOffer: Sendable {
    package struct Choice: Sendable, Hashable {
        public var text: String
        public var display: String
        /// A blank follows when this choice is taken alone.
        package var endsWord: Bool

        public init(text: String, display: String, endsWord: Bool) {
            self.text = text
            self.display = display
            self.endsWord = endsWord
        }
    }

    package var wordStart: Int
    package var choices: [Choice]

    public init(wordStart: Int, choices: [Choice]) {
        self.wordStart = wordStart
        self.choices = choices
    }

    /// What Tab does with the word typed so far.
    package enum Action: Equatable, Sendable {
        /// Nothing fits: beep.
        case beep
        /// Replace the word with this text (one choice, or the longer common prefix of several).
        case replace(with: String)
        /// Several fit and typing more is needed: show them.
        case list([String])
    }

    package func action(typed word: String) -> Action {
        guard let first = choices.first else { return .beep }
        if choices.count == 1 { return .replace(with: first.text + (first.endsWord ? " " : "")) }
        let common = choices.dropFirst().reduce(first.text) { Self.commonPrefix($0, $1.text) }
        // A quote the completion opened (a name with blanks) may come before what was typed.
        var unquoted = common
        if let quote = unquoted.firstIndex(where: { $0 == "'" || $0 == "\"" }) { unquoted.remove(at: quote) }
        if common.count > word.count,
            common.lowercased().hasPrefix(word.lowercased()) || unquoted.lowercased().hasPrefix(word.lowercased())
        {
            return .replace(with: common)
        }
        return .list(choices.map(\.display))
    }

    static func commonPrefix(_ a: String, _ b: String) -> String {
        var result = ""
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            result.append(x)
        }
        return result
    }

    /// Choices laid out in columns that fit `width` cells, as shells list completions.
    public static func columns(_ items: [String], width: Int, cellWidth: (String) -> Int) -> String {
        let widest = (items.map(cellWidth).max() ?? 0) + 2
        let perRow = max(1, width / max(1, widest))
        var out = ""
        for (index, item) in items.enumerated() {
            let last = index % perRow == perRow - 1 || index == items.count - 1
            out += last ? item + "\n" : item + String(repeating: " ", count: widest - cellWidth(item))
        }
        return out
    }
}
