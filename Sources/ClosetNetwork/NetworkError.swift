import ClosetCore

/// Why an exchange gave no usable answer: each one line, in the house manner. Packs throw
/// these (and their own, for an API's in-body errors); the evaluator reports them for the
/// statement, which then changes nothing.
public enum NetworkError: Error, Equatable, Sendable, LocalizedMessage {
    /// `--offline` or a golden test without recordings.
    case offline(String, String, reason: String)
    /// `--replay`: the folder has no exchange for this request.
    case noRecording(String, String)
    /// A key variable is not set: names it and the API.
    case missingKey(variable: String, api: String)
    /// A `CLOSET_*_URL` that is not an http(s) URL.
    case invalidBaseURL(variable: String, value: String)
    case connectionRefused(host: String)
    case cannotFindHost(host: String)
    case timedOut(url: String, seconds: Int)
    /// A status outside 2xx, with what the API said when it said something readable.
    case status(Int, statusLine: String, method: String, url: String, detail: String?)
    /// A body that is not what the API promises.
    case malformed(url: String, expected: String)
    /// An error the API reported inside a successful response.
    case api(name: String, message: String)
    case tooManyRedirects(url: String)
    /// Anything else the transport reported (TLS, a dropped connection).
    case failed(url: String, reason: String)
    /// The helper process that does live HTTP could not be started or stopped answering.
    case helper(String)
    /// Ctrl-C stopped a request under way (the helper shares the terminal's interrupt).
    case cancelled(method: String, url: String)
    /// A recording folder could not be read or written.
    case recording(String)

    public var message: String {
        switch self {
        case .offline(let method, let url, let reason):
            "the network is off \(reason): cannot \(method) \(url)"
        case .noRecording(let method, let url):
            "no recorded response for \(method) \(url)"
        case .missingKey(let variable, let api):
            "\(variable) is not set: the \(api) needs it (export \(variable)=...)"
        case .invalidBaseURL(let variable, let value):
            "\(variable) is not an http:// or https:// URL: '\(value)'"
        case .connectionRefused(let host):
            "cannot connect to \(host): connection refused"
        case .cannotFindHost(let host):
            "cannot find the host '\(host)'"
        case .timedOut(let url, let seconds):
            "no answer from \(url) within \(seconds) s (--timeout)"
        case .status(_, let statusLine, let method, let url, let detail):
            "\(method) \(url) failed: HTTP \(statusLine)" + (detail.map { ": \($0)" } ?? "")
        case .malformed(let url, let expected):
            "\(url) did not answer with \(expected)"
        case .api(let name, let message):
            "the \(name) answered with an error: \(message)"
        case .tooManyRedirects(let url):
            "too many redirects from \(url)"
        case .failed(let url, let reason):
            "cannot reach \(url): \(reason)"
        case .helper(let reason):
            "the network helper failed: \(reason)"
        case .cancelled(let method, let url):
            "cancelled (Ctrl-C): \(method) \(url) did not finish"
        case .recording(let reason):
            reason
        }
    }
}
