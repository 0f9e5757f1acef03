import Foundation

/// One recorded exchange, as two files a person can read and edit: `<stem>.http` holds the
/// request line and headers, a blank line, the status line and the response headers;
/// `<stem>.<ext>` beside it holds the response body.
///
///     GET {unsplash}/photos?page=1&per_page=15
///     Accept-Version: v1
///
///     HTTP 200 OK
///     Content-Type: application/json
///
/// An exchange that got no response is recorded too, in place of the status line:
/// `FAILED connection-refused`, `FAILED cannot-find-host`, `FAILED timed-out 10`,
/// `FAILED too-many-redirects` or `FAILED <reason>`, so goldens replay those failures offline.
///
/// A request to an API's base URL is written `{api}` + path, so a recording made against a
/// test server replays against the real service's settings. The key is the method, that
/// target with the query sorted and secrets removed, and a digest of the body.
package struct Recording: Sendable, Equatable {
    public var key: String
    package var requestLine: String
    package var requestHeaders: [HTTPHeader]
    public var response: HTTPResponse
    /// Set when the exchange got no response.
    public var failure: NetworkError?

    /// Headers that describe the transfer, not the content: never recorded.
    static let transferHeaders: Set<String> = [
        "content-length", "content-encoding", "transfer-encoding", "connection", "keep-alive", "date",
        "set-cookie",
    ]

    /// The request's key: what replay looks recordings up by.
    public static func key(for request: HTTPRequest) -> String {
        var line = request.method.rawValue + " " + target(of: request, sorted: true)
        if let body = request.body { line += " body=" + bodyDigest(body, secrets: request.secretValues) }
        // A conditional GET is another exchange than the plain one (a 304 has no body).
        if let tag = request.header("If-None-Match") { line += " if-none-match=" + tag }
        return line
    }

    /// `{unsplash}/photos?page=1&per_page=15`, or the whole URL without its secrets.
    static func target(of request: HTTPRequest, sorted: Bool) -> String {
        guard let api = request.api else { return request.displayURL }
        let query = HTTPRequest.queryString(request.query.filter { !$0.isSecret })
        let target = "{\(api)}" + request.path + query
        return sorted ? sortedTarget(target) : target
    }

    /// Secret parts of a multipart body are blanked by `canonical`; a JSON body's secrets
    /// (`secretValues`) are cut out of it here.
    static func bodyDigest(_ body: HTTPBody, secrets: [String]) -> String {
        "fnv1a64:" + Digest.hex(Digest.fnv1a64(Redaction.remove(secrets, from: body.canonical)))
    }

    public init(request: HTTPRequest, response: HTTPResponse) {
        let secrets = request.secrets
        key = Self.key(for: request)
        requestLine = request.method.rawValue + " " + Self.target(of: request, sorted: false)
        var headers = request.headers.filter { !$0.isSecret }
        if let body = request.body {
            headers.append(HTTPHeader("Body-Digest", Self.bodyDigest(body, secrets: request.secretValues)))
        }
        requestHeaders = headers.map { HTTPHeader($0.name, Redaction.redact($0.value, secrets: secrets)) }
        var kept = response
        kept.headers =
            response.headers
            .filter { !Self.transferHeaders.contains($0.name.lowercased()) }
            .map { HTTPHeader($0.name, Redaction.redact($0.value, secrets: secrets)) }
        kept.body = Redaction.redact(
            body: response.body, contentType: response.header("Content-Type"), secrets: secrets)
        self.response = kept
    }

    init(
        key: String, requestLine: String, requestHeaders: [HTTPHeader], response: HTTPResponse,
        failure: NetworkError? = nil
    ) {
        self.key = key
        self.requestLine = requestLine
        self.requestHeaders = requestHeaders
        self.response = response
        self.failure = failure
    }

    /// An exchange that ended without a response (only the failures a network can cause).
    public init?(request: HTTPRequest, failure: NetworkError) {
        switch failure {
        case .connectionRefused, .cannotFindHost, .timedOut, .unfinished, .tooManyRedirects, .failed: break
        default: return nil
        }
        self.init(request: request, response: HTTPResponse(status: 0))
        self.failure = failure
    }

    /// The failure as its recorded line says it, for this request.
    static func failure(_ line: String, request: HTTPRequest) -> NetworkError? {
        guard line.hasPrefix("FAILED ") else { return nil }
        let what = String(line.dropFirst("FAILED ".count))
        let url = request.displayURL
        let host = ExchangeResult.host(of: request.url)
        switch what.split(separator: " ").first.map(String.init) ?? "" {
        case "connection-refused": return .connectionRefused(host: host)
        case "cannot-find-host": return .cannotFindHost(host: host)
        case "timed-out": return .timedOut(url: url, seconds: Int(what.split(separator: " ").last ?? "") ?? 10)
        case "unfinished": return .unfinished(url: url, seconds: Int(what.split(separator: " ").last ?? "") ?? 30)
        case "too-many-redirects": return .tooManyRedirects(url: url)
        default: return .failed(url: url, reason: what)
        }
    }

    var failureLine: String? {
        switch failure {
        case .connectionRefused?: "FAILED connection-refused"
        case .cannotFindHost?: "FAILED cannot-find-host"
        case .timedOut(_, let seconds)?: "FAILED timed-out \(seconds)"
        case .unfinished(_, let seconds)?: "FAILED unfinished \(seconds)"
        case .tooManyRedirects?: "FAILED too-many-redirects"
        case .failed(_, let reason)?: "FAILED \(reason)"
        default: nil
        }
    }

    /// What replay answers: the response, or the recorded failure.
    public func answer(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        if let line = failureLine, let failure = Self.failure(line, request: request) { throw failure }
        return response
    }

    // MARK: files

    /// `GET-unsplash-photos-1f3a9c2e`: readable, and unique per key.
    package var stem: String {
        let parts = requestLine.split(separator: " ", maxSplits: 1)
        let target = parts.count > 1 ? String(parts[1]) : ""
        let withoutQuery = target.split(separator: "?", maxSplits: 1).first.map(String.init) ?? ""
        var slug = ""
        for scalar in withoutQuery.lowercased().unicodeScalars {
            let keep = ("a"..."z").contains(scalar) || ("0"..."9").contains(scalar)
            if keep {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        for prefix in ["https-", "http-"] where slug.hasPrefix(prefix) { slug.removeFirst(prefix.count) }
        if slug.hasSuffix("-") { slug.removeLast() }
        return "\(parts.first ?? "GET")-\(slug.prefix(48))-\(Digest.hex(Digest.fnv1a64(key.utf8)).prefix(8))"
    }

    /// The body file's extension, from its content type.
    package var bodyExtension: String {
        let type = response.header("Content-Type")?.lowercased() ?? ""
        if type.contains("json") { return "json" }
        if type.contains("png") { return "png" }
        if type.contains("jpeg") || type.contains("jpg") { return "jpg" }
        if type.contains("xml") { return "xml" }
        if type.contains("html") { return "html" }
        if type.hasPrefix("text/") { return "txt" }
        return "bin"
    }

    package var headText: String {
        var lines = [requestLine]
        lines += requestHeaders.map { "\($0.name): \($0.value)" }
        lines.append("")
        if let failureLine {
            lines.append(failureLine)
        } else {
            lines.append("HTTP \(response.statusLine)")
            lines += response.headers.map { "\($0.name): \($0.value)" }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Reads `<stem>.http`; `body` is the file beside it (nil when there is none).
    static func parse(head: String, body: Data?, file: String) throws(NetworkError) -> Recording {
        // "\r\n" is one Character: normalise before splitting, so hand-written CRLF files read.
        let lines = head.replacingOccurrences(of: "\r\n", with: "\n").split(
            separator: "\n", omittingEmptySubsequences: false
        ).map(String.init)
        func bad(_ why: String) -> NetworkError { .recording("the recording '\(file)' is not readable: \(why)") }
        guard let requestLine = lines.first, requestLine.split(separator: " ").count == 2,
            let method = HTTPRequest.Method(rawValue: String(requestLine.split(separator: " ")[0]))
        else { throw bad("its first line must be a method and a target (GET {api}/path)") }
        var index = 1
        var requestHeaders: [HTTPHeader] = []
        while index < lines.count, !lines[index].isEmpty {
            guard let header = Self.header(lines[index]) else { throw bad("line \(index + 1) is not 'Name: value'") }
            requestHeaders.append(header)
            index += 1
        }
        index += 1
        let target = String(requestLine.split(separator: " ")[1])
        var key = method.rawValue + " " + Self.sortedTarget(target)
        if let digest = requestHeaders.last(where: { $0.name.lowercased() == "body-digest" }) {
            key += " body=" + digest.value
        }
        if let tag = requestHeaders.last(where: { $0.name.lowercased() == "if-none-match" }) {
            key += " if-none-match=" + tag.value
        }
        if index < lines.count, lines[index].hasPrefix("FAILED ") {
            // Which failure is rebuilt per request at replay; any request stands in here.
            let failure = Self.failure(lines[index], request: .get(url: ""))
            return Recording(
                key: key, requestLine: requestLine, requestHeaders: requestHeaders,
                response: HTTPResponse(status: 0), failure: failure)
        }
        guard index < lines.count, lines[index].hasPrefix("HTTP "),
            let status = Int(lines[index].dropFirst(5).prefix(3)), (100...599).contains(status)
        else { throw bad("after the request's headers and a blank line comes 'HTTP <status>' or 'FAILED <what>'") }
        index += 1
        var responseHeaders: [HTTPHeader] = []
        while index < lines.count, !lines[index].isEmpty {
            guard let header = Self.header(lines[index]) else { throw bad("line \(index + 1) is not 'Name: value'") }
            responseHeaders.append(header)
            index += 1
        }
        return Recording(
            key: key, requestLine: requestLine, requestHeaders: requestHeaders,
            response: HTTPResponse(status: status, headers: responseHeaders, body: body ?? Data()))
    }

    /// A target as a person wrote it, with an API target's query put in key order.
    static func sortedTarget(_ target: String) -> String {
        guard target.hasPrefix("{"), let mark = target.firstIndex(of: "?") else { return target }
        // Sorted as encoded pairs, name first: the same order whichever way the key was made.
        let items = target[target.index(after: mark)...].split(separator: "&").map(String.init).sorted {
            let a = $0.split(separator: "=", maxSplits: 1).map(String.init)
            let b = $1.split(separator: "=", maxSplits: 1).map(String.init)
            return (a.first ?? "", a.count > 1 ? a[1] : "") < (b.first ?? "", b.count > 1 ? b[1] : "")
        }
        return String(target[..<mark]) + "?" + items.joined(separator: "&")
    }

    static func header(_ line: String) -> HTTPHeader? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let name = line[..<colon].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        return HTTPHeader(name, line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
    }
}
