/// A problem found in a statement, as data: an id from a catalogue, a message in the house
/// manner (lower case, no trailing period, user input in single quotes), the range it is about,
/// and an optional `did you mean` word. Thrown by every stage; rendered in one place
/// (`DiagnosticRenderer`). The engine's messages are made in `DiagnosticCatalogue.swift`; a pack
/// keeps its own in a catalogue of its own, with ids under its name.
public struct Diagnostic: Error, Hashable, Sendable {
    /// Which kind of problem: stable for tests and tools while wording may change.
    public struct ID: Hashable, Sendable, RawRepresentable, ExpressibleByStringLiteral, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }
        public var description: String { rawValue }
    }

    public var id: ID
    public var message: String
    /// Where in the statement; nil when it is about the statement as a whole or not about one.
    public var range: SourceRange?
    package var suggestion: String?
    /// Other names as close as `suggestion` (a tie: `did you mean '가을' or '겨울'?`).
    package var alternatives: [String] = []
    /// The key it is about when that key was left out, so has no range of its own (a served
    /// form's or an imported row's field is named by it).
    package var missingKey: String?
    /// The app's own Korean for the problem (Picterest's `실패한 상태코드`), said instead of
    /// `message` under `.lang ko`.
    public var korean: String?

    public init(
        _ id: ID, _ message: String, at range: SourceRange?, suggestion: String? = nil, korean: String? = nil
    ) {
        self.id = id
        self.message = message
        self.range = range
        self.suggestion = suggestion
        self.korean = korean
    }

    /// The message with its `did you mean` (`unknown kind 'smal'; did you mean 'small'?`).
    package var messageAndSuggestion: String { messageAndSuggestion(korean: false) }

    /// The same, in the app's Korean when asked for and it has some.
    package func messageAndSuggestion(korean inKorean: Bool) -> String {
        let message = inKorean ? korean ?? message : message
        guard let suggestion else { return message }
        let names = ([suggestion] + alternatives).map { "'\($0)'" }
        return message + "; did you mean \(names.joined(separator: " or "))?"
    }

    /// The same problem, reported at another place (a host's error placed at the word that
    /// named the file).
    public func at(_ range: SourceRange?) -> Diagnostic {
        var moved = self
        moved.range = range
        return moved
    }

    /// The diagnostic for an unknown name, with the closest known one when there is one.
    public static func unknown(
        _ what: String, _ text: String, at range: SourceRange?, among candidates: [String], hint: String? = nil
    ) -> Diagnostic {
        // A close match says more than a list of everything; the hint is for when there is none.
        let suggestions = Suggestion.closestAll(to: text, among: candidates)
        var message = "unknown \(what) '\(text)'"
        if suggestions.isEmpty, let hint { message += "; \(hint)" }
        var diagnostic = Diagnostic("unknown-name", message, at: range, suggestion: suggestions.first)
        diagnostic.alternatives = Array(suggestions.dropFirst().prefix(2))
        return diagnostic
    }
}
