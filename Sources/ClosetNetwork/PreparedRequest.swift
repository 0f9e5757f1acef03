import Foundation

/// A request made ready for the wire: the URL as sent, every header including the body's
/// content type, the body's bytes, and the time it may take. This is what crosses to the
/// network helper; `displayURL` (secrets left out) is what errors name.
package struct PreparedRequest: Sendable, Equatable {
    public var method: String
    public var url: String
    public var displayURL: String
    public var headers: [HTTPHeader]
    public var body: Data?
    /// Whole seconds without progress before the exchange is given up; the whole exchange,
    /// redirects included, is given `deadlineFactor` times as long.
    package var timeoutSeconds: Int
    /// The most body bytes an answer may have (after any decompression); a longer one is
    /// given up as it arrives, never held whole (`--max-response`).
    package var maximumResponseBytes: Int

    package static let deadlineFactor = 3
    /// `--max-response`'s default.
    package static let defaultMaximumResponseBytes = 32 << 20

    public init(
        method: String, url: String, displayURL: String, headers: [HTTPHeader], body: Data?, timeoutSeconds: Int,
        maximumResponseBytes: Int = defaultMaximumResponseBytes
    ) {
        self.method = method
        self.url = url
        self.displayURL = displayURL
        self.headers = headers
        self.body = body
        self.timeoutSeconds = timeoutSeconds
        self.maximumResponseBytes = maximumResponseBytes
    }

    public init(
        _ request: HTTPRequest, timeoutSeconds: Int, userAgent: String,
        maximumResponseBytes: Int = defaultMaximumResponseBytes
    ) {
        var headers = request.headers
        var body: Data?
        if let requestBody = request.body {
            // A fresh boundary per request, as browsers do; recordings key on a fixed one.
            let encoded = requestBody.encoded(boundary: "closet-" + UUID().uuidString)
            body = encoded.bytes
            if request.header("Content-Type") == nil { headers.append(HTTPHeader("Content-Type", encoded.contentType)) }
        }
        if request.header("User-Agent") == nil { headers.append(HTTPHeader("User-Agent", userAgent)) }
        self.init(
            method: request.method.rawValue, url: request.url, displayURL: request.displayURL, headers: headers,
            body: body, timeoutSeconds: timeoutSeconds, maximumResponseBytes: maximumResponseBytes)
    }

    package var deadlineSeconds: Int { timeoutSeconds * Self.deadlineFactor }
}

/// How the live path ends: a response, or one of the failures a transport can name.
package enum ExchangeResult: Sendable, Equatable {
    case response(HTTPResponse)
    case failure(ExchangeFailure, String)

    /// The `NetworkError` a pack sees, naming the URL without secrets.
    public func get(_ request: PreparedRequest) throws(NetworkError) -> HTTPResponse {
        switch self {
        case .response(let response): return response
        case .failure(let failure, let detail):
            switch failure {
            case .connectionRefused: throw .connectionRefused(host: Self.host(of: request.url))
            case .cannotFindHost: throw .cannotFindHost(host: Self.host(of: request.url))
            case .timedOut where detail == ExchangeFailure.deadline:
                throw .unfinished(url: request.displayURL, seconds: request.deadlineSeconds)
            case .timedOut: throw .timedOut(url: request.displayURL, seconds: request.timeoutSeconds)
            case .tooManyRedirects: throw .tooManyRedirects(url: request.displayURL)
            case .failed, .givenUp: throw .failed(url: request.displayURL, reason: detail)
            }
        }
    }

    /// `127.0.0.1:8080`, `api.unsplash.com`.
    static func host(of url: String) -> String {
        guard let components = URLComponents(string: url), let host = components.host else { return url }
        return components.port.map { "\(host):\($0)" } ?? host
    }
}

package enum ExchangeFailure: UInt8, Sendable, Equatable {
    case connectionRefused = 1
    case cannotFindHost = 2
    case timedOut = 3
    case tooManyRedirects = 4
    case failed = 5
    /// The answer was given up (too large to hold) and the helper ends after saying so: the
    /// shell starts another for its next request.
    case givenUp = 6

    /// The detail of a `.timedOut` that is the whole exchange's deadline passing (an answer
    /// still trickling in), not an idle wait: said with the time it really took.
    package static let deadline = "deadline"
}
