/// A problem found in a statement, as data: a message in the house manner (lower case, no
/// trailing period, user input in single quotes), the range it is about, and an optional
/// `did you mean` word. Thrown by every stage; rendered in one place (`DiagnosticRenderer`).
public struct Diagnostic: Error, Hashable, Sendable {
    public var message: String
    /// Where in the statement; nil when it is about the statement as a whole or not about one.
    public var range: SourceRange?
    public var suggestion: String?

    public init(_ message: String, at range: SourceRange?, suggestion: String? = nil) {
        self.message = message
        self.range = range
        self.suggestion = suggestion
    }

    /// The diagnostic for an unknown name, with the closest known one when there is one.
    public static func unknown(
        _ what: String, _ text: String, at range: SourceRange?, among candidates: [String], hint: String? = nil
    ) -> Diagnostic {
        // A close match says more than a list of everything; the hint is for when there is none.
        let suggestion = Suggestion.closest(to: text, among: candidates)
        var message = "unknown \(what) '\(text)'"
        if suggestion == nil, let hint { message += "; \(hint)" }
        return Diagnostic(message, at: range, suggestion: suggestion)
    }
}
