import ClosetLanguage
import Foundation

/// What an API answers with: the session (its packs' states, on the served store) and the
/// server's own base URL, for the URLs its answers name (pictures).
public struct ServedContext {
    public let session: Session
    /// `http://127.0.0.1:8080`, no trailing slash.
    public let baseURL: String
    /// What `--replay <folder>` holds; nil without one.
    public let recordings: ServedRecordings?
    /// `--placeholders`: a picture nothing holds is drawn from what its API's answer said of it.
    public let placeholders: Bool
    /// `--through`: the live APIs a request no recording answers is sent to; nil: none.
    public let through: ServedThrough?
    /// `--today`: the day the served world is in (00:00 UTC); nil: the real one.
    public let today: Date?
    /// When the request came, by the real clock: a client counts its days from it.
    public let now: Date
    /// How long the tokens an API gives last, and which are expired on purpose.
    public let tokens: ServedTokens
    private let report = Report()

    /// What the server learns from answering: a password check that failed counts against the
    /// client's budget (`closet serve` slows guessing per address).
    final class Report {
        var passwordRefused = false
        var note: String?
    }

    public init(
        session: Session, baseURL: String, recordings: ServedRecordings? = nil, today: Date? = nil, now: Date = Date(),
        through: ServedThrough? = nil, placeholders: Bool = false, tokens: ServedTokens = ServedTokens()
    ) {
        self.tokens = tokens
        self.placeholders = placeholders
        self.through = through
        self.today = today
        self.now = now
        self.session = session
        self.baseURL = baseURL
        self.recordings = recordings
    }

    /// The request failed a password check: the server counts it for the client's address.
    public func passwordRefused() { report.passwordRefused = true }

    package var wasPasswordRefused: Bool { report.passwordRefused }

    /// A line the server says under the request's (a near miss: the recording closest to a
    /// request none answered).
    public func note(_ text: String) { report.note = text }

    package var noted: String? { report.note }
}
