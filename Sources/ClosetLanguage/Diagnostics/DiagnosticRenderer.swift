/// The one place diagnostics become text:
///
///     seed.closet:12:22: error: unknown kind 'smal'; did you mean 'small'?
///     add item kind=smal note=blue
///                          ^^^^
///
/// The origin prefix appears for scripts (`file:line:column:`), not at the prompt or in `-c`.
/// Columns count characters; the caret line counts display cells, so it sits under Hangul too.
package enum DiagnosticRenderer {
    /// A message or an echoed line longer than this (in characters) is cut with `…`: a 10 MB
    /// bad word must not become a 30 MB error.
    static let messageLimit = 300
    static let echoLimit = 160
    /// How much of the line before the marked word, and of the marked word, a cut echo keeps.
    static let echoContext = 40
    static let markedLimit = 80

    /// `mask` hides secrets in the echoed line (`SecretMask`); line and column still name the
    /// place in the statement as written, and the caret sits under the masked line.
    /// `warning` labels it `warning:` (the rc file's problems, which stop nothing). `korean`
    /// (`.lang ko`) says the app's Korean where the diagnostic has it.
    package static func render(
        _ diagnostic: Diagnostic, source: StatementSource?, origin: String?, color: Bool = false,
        mask: ((String) -> String)? = nil, warning: Bool = false, korean: Bool = false
    ) -> String {
        let mask = mask ?? { $0 }
        // Bold red "error:" (yellow "warning:") on a terminal; the rest stays plain.
        let word = warning ? "warning:" : "error:"
        let label = color ? (warning ? "\u{1B}[1;33m" : "\u{1B}[1;31m") + word + "\u{1B}[0m" : word
        // User input inside messages and the echoed line is made terminal-safe.
        var message = TerminalText.visible(diagnostic.messageAndSuggestion(korean: korean))
        if message.count > messageLimit { message = String(message.prefix(messageLimit)) + "…" }
        let origin = origin.map { TerminalText.visible($0) }  // a file name is user input too
        guard let source, let range = diagnostic.range else {
            let prefix = origin.map { origin in source.map { "\(origin):\($0.firstLine): " } ?? "\(origin): " } ?? ""
            return "\(prefix)\(label) \(message)\n"
        }

        let bytes = Array(source.text.utf8)
        let lower = min(max(0, range.lower), bytes.count)
        let upper = min(max(lower, range.upper), bytes.count)
        let lineStart = bytes[0..<lower].lastIndex(of: .newline).map { $0 + 1 } ?? 0
        let lineEnd = bytes[lower...].firstIndex(of: .newline) ?? bytes.count
        let lineIndex = bytes[0..<lower].reduce(0) { $0 + ($1 == .newline ? 1 : 0) }
        // Masked as whole prefixes of the line, so a secret cut by the range is hidden whole.
        let maskedBefore = mask(String(decoding: bytes[lineStart..<lower], as: UTF8.self))
        let maskedThrough = mask(String(decoding: bytes[lineStart..<min(upper, lineEnd)], as: UTF8.self))
        let maskedLine = mask(String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self))
        var before = TerminalText.visible(maskedBefore, keepingTabs: true)
        var marked = TerminalText.visible(
            maskedThrough.hasPrefix(maskedBefore) ? String(maskedThrough.dropFirst(maskedBefore.count)) : maskedThrough)
        let column = String(decoding: bytes[lineStart..<lower], as: UTF8.self).count + 1
        var lineText = TerminalText.visible(
            lineIndex < source.lines.count ? mask(source.lines[lineIndex]) : maskedLine, keepingTabs: true)
        if lineText.count > echoLimit {
            // Show a window around the marked word, cut at both ends.
            var after = TerminalText.visible(
                maskedLine.hasPrefix(maskedThrough) ? String(maskedLine.dropFirst(maskedThrough.count)) : "")
            if before.count > echoContext { before = "…" + String(before.suffix(echoContext)) }
            if marked.count > markedLimit { marked = String(marked.prefix(markedLimit)) + "…" }
            let room = max(0, echoLimit - before.count - marked.count)
            if after.count > room { after = String(after.prefix(room)) + "…" }
            lineText = before + marked + after
        }

        var text = ""
        if let origin { text += "\(origin):\(source.firstLine + lineIndex):\(column): " }
        text += "\(label) \(message)\n"
        text += lineText + "\n"
        // Keep tabs so the caret lines up however the terminal sets tab stops.
        let padding = before.map { $0 == "\t" ? "\t" : String(repeating: " ", count: TextWidth.of($0)) }.joined()
        text += padding + String(repeating: "^", count: max(1, TextWidth.of(marked))) + "\n"
        return text
    }
}
