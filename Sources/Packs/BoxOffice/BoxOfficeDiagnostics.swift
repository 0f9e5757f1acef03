import ClosetCore
import ClosetLanguage

/// The box office pack's own messages, by id (`boxoffice.*`).
extension Diagnostic {
    static func dateOutOfRange(_ day: String, last: String, at range: SourceRange?) -> Diagnostic {
        guard last >= BoxOfficeCalendar.firstDay else {
            return Diagnostic(
                "boxoffice.date-range",
                "\(day) is outside the box office calendar: the clock's yesterday, \(last), is before its first day, \(BoxOfficeCalendar.firstDay)",
                at: range)
        }
        return Diagnostic(
            "boxoffice.date-range",
            "\(day) is outside the box office calendar: days run from \(BoxOfficeCalendar.firstDay) to \(last) (yesterday)",
            at: range)
    }

    static func dayAndDate(at range: SourceRange?) -> Diagnostic {
        Diagnostic("boxoffice.day-and-date", "give date= or day=, not both", at: range)
    }

    /// `day=previous` on the calendar's first day, `day=next` on yesterday's ranking.
    static func noDayBeyond(_ shown: String, _ before: Bool, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "boxoffice.day-range",
            before
                ? "\(shown) is the box office calendar's first day: there is no day before it"
                : "\(shown) is yesterday, the calendar's last day: there is no day after it",
            at: range)
    }

    static func noPosterFound(_ keyword: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("boxoffice.no-poster", "no poster found for '\(keyword)'", at: range)
    }

    static func posterNotAnImage(_ url: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic(
            "boxoffice.poster-not-an-image", "the poster at \(url) is not a PNG or JPEG; nothing was cached", at: range)
    }

    static func posterCacheUnavailable(_ folder: String) -> Diagnostic {
        Diagnostic("boxoffice.cache-folder", "cannot use the poster cache folder '\(folder)'", at: nil)
    }

    static func noSuchMovie(_ code: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("boxoffice.no-movie", "KOBIS has no movie with code '\(code)'", at: range)
    }

    static func notAMovieCode(_ text: String, at range: SourceRange?) -> Diagnostic {
        Diagnostic("boxoffice.bad-code", "'\(text)' is not a KOBIS movie code (digits, like 20124079)", at: range)
    }
}
