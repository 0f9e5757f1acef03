import Foundation

/// What came back: the status, the headers in order, the whole body.
public struct HTTPResponse: Sendable, Hashable {
    public var status: Int
    public var headers: [HTTPHeader]
    public var body: Data

    public init(status: Int, headers: [HTTPHeader] = [], body: Data = Data()) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A plain-text answer (the server's own errors and refusals).
    public static func text(_ message: String, status: Int) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "text/plain; charset=utf-8")],
            body: Data(message.utf8))
    }

    /// The last header of that name, compared in ASCII case (as `ServedRequest.header`:
    /// Foundation's comparison was 3 % of giving a kept answer).
    public func header(_ name: String) -> String? {
        headers.last { ServedRequest.sameName($0.name, name) }?.value
    }

    public var isSuccess: Bool { (200...299).contains(status) }

    /// `Not Found` for 404: the reason phrase a status line carries.
    public static func reasonPhrase(for status: Int) -> String { HTTPStatus.reason(status) }

    /// `404 Not Found`.
    public var statusLine: String {
        let reason = HTTPStatus.reason(status)
        return reason.isEmpty ? "\(status)" : "\(status) \(reason)"
    }
}

enum HTTPStatus {
    static func reason(_ code: Int) -> String {
        switch code {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 408: "Request Timeout"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 501: "Not Implemented"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }
}
