import ClosetCore
import ClosetLanguage

/// The adoption pack's own messages, by id (`adoption.*`).
extension Diagnostic {
    static func notADesertionNumber(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "adoption.bad-number", "'\(text)' is not a desertion number (digits, like 448548202400123)", at: range)
    }

    static func noSuchDog(_ number: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.no-dog", "the animal-protection API has no animal '\(number)'", at: range)
    }

    static func datesOutOfOrder(at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.dates", "'from' must not be after 'to'", at: range)
    }

    static func dogsPageFromOne(at range: SourceRange?) -> Diagnostic {
        Diagnostic("adoption.page", "page numbers start at 1", at: range)
    }
}
