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
    /// An answer still coming when the whole exchange's time (`deadlineFactor` × --timeout) ran out.
    case unfinished(url: String, seconds: Int)
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
            "the network is off \(reason): cannot \(method) \(Self.readable(url))"
        case .noRecording(let method, let url):
            "no recorded response for \(method) \(Self.readable(url))"
        case .missingKey(let variable, let api):
            "\(variable) is not set: the \(api) needs it (export \(variable)=...)"
        case .invalidBaseURL(let variable, let value):
            "\(variable) is not an http:// or https:// URL: '\(value)'"
        case .connectionRefused(let host):
            "cannot connect to \(host): connection refused"
        case .cannotFindHost(let host):
            "cannot find the host '\(host)'"
        case .timedOut(let url, let seconds):
            "no answer from \(Self.readable(url)) within \(seconds) s (--timeout)"
        case .unfinished(let url, let seconds):
            "the answer from \(Self.readable(url)) did not finish within \(seconds) s (a whole exchange may take \(PreparedRequest.deadlineFactor) times --timeout); it was still coming"
        case .status(_, let statusLine, let method, let url, let detail):
            "\(method) \(Self.readable(url)) failed: HTTP \(statusLine)" + (detail.map { ": \($0)" } ?? "")
        case .malformed(let url, let expected):
            "\(Self.readable(url)) did not answer with \(expected)"
        case .api(let name, let message):
            "the \(name) answered with an error: \(message)"
        case .tooManyRedirects(let url):
            "too many redirects from \(Self.readable(url))"
        case .failed(let url, let reason):
            "cannot reach \(Self.readable(url)): \(reason)"
        case .helper(let reason):
            "the network helper failed: \(reason)"
        case .cancelled(let method, let url):
            "cancelled (Ctrl-C): \(method) \(Self.readable(url)) did not finish"
        case .recording(let reason):
            reason
        }
    }

    /// A URL as a person reads it: escapes that stand for text beyond ASCII (a Korean query,
    /// `%EC%84%9C%EC%9A%B8` → 서울) decoded; ASCII escapes (`%20`, `%26`) kept, so what is shown
    /// still says exactly what was sent.
    package static func readable(_ url: String) -> String {
        let bytes = Array(url.utf8)
        var out: [UInt8] = []
        var index = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x41...0x46: byte - 0x41 + 10
            case 0x61...0x66: byte - 0x61 + 10
            default: nil
            }
        }
        while index < bytes.count {
            // A run of %XX escapes, each a byte of 0x80 or more.
            var run: [UInt8] = []
            var end = index
            while end + 2 < bytes.count {
                guard bytes[end] == UInt8(ascii: "%"), let high = hex(bytes[end + 1]), let low = hex(bytes[end + 2]),
                    high >= 8
                else { break }
                run.append(high << 4 | low)
                end += 3
            }
            if !run.isEmpty, let text = String(validating: run, as: UTF8.self) {
                out += Array(text.utf8)
                index = end
                continue
            }
            out.append(bytes[index])
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
