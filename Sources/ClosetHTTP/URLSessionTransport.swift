import ClosetCore
import ClosetNetwork
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The live transport: `http://` on a socket of our own (`PlainHTTPClient`), `https://`
/// through one long-lived URLSession (session teardown is a known crash family on Linux);
/// whole-second idle timeouts, an overall deadline enforced here (Linux ignores
/// `timeoutIntervalForResource`), and redirects followed by hand, because Foundation on
/// Linux drops a POST body on 307 and 308. Every answer's body is bounded as it arrives
/// (`maximumResponseBytes`, after decompression, and at most `maximumRatio` times its
/// compressed length): a gzip bomb or an endless body is given up, never held whole.
package final class URLSessionTransport: Transport, @unchecked Sendable {
    package static let maximumRedirects = 10
    /// How many times its compressed length a decompressed body may be (past the first MB).
    package static let maximumRatio = 100
    let session: URLSession
    let bodies = BoundedBodies()
    /// Whether an answer was given up while URLSession may still be reading it.
    package var gaveUpABody: Bool { bodies.givenUp }
    let timeoutSeconds: Int
    let userAgent: String

    public init(timeoutSeconds: Int, userAgent: String = "closet") {
        self.timeoutSeconds = timeoutSeconds
        self.userAgent = userAgent
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = TimeInterval(timeoutSeconds)
        configuration.httpMaximumConnectionsPerHost = 4
        session = URLSession(configuration: configuration, delegate: bodies, delegateQueue: nil)
    }

    public func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse {
        let prepared = PreparedRequest(request, timeoutSeconds: timeoutSeconds, userAgent: userAgent)
        return try perform(prepared).get(prepared)
    }

    /// One exchange, following redirects, within the request's deadline.
    package func perform(_ request: PreparedRequest) -> ExchangeResult {
        let deadline = Date().addingTimeInterval(TimeInterval(request.deadlineSeconds))
        var current = request
        for _ in 0...Self.maximumRedirects {
            let result = once(current, deadline: deadline)
            guard case .response(let response) = result, [301, 302, 303, 307, 308].contains(response.status),
                let location = response.header("Location"),
                let next = URL(string: location, relativeTo: URL(string: current.url))?.absoluteURL
            else { return result }
            current = Self.redirected(current, to: next, status: response.status)
        }
        return .failure(.tooManyRedirects, "")
    }

    /// The request a redirect asks for: 307 and 308 keep the method and body; 303, and 301
    /// or 302 after a POST, become a GET without one (as browsers and curl do). Secret
    /// headers are not carried to another host.
    static func redirected(_ request: PreparedRequest, to url: URL, status: Int) -> PreparedRequest {
        var next = request
        next.url = url.absoluteString
        next.displayURL = url.absoluteString
        if status == 303 || ((status == 301 || status == 302) && request.method == "POST") {
            if request.method != "HEAD" { next.method = "GET" }
            next.body = nil
            next.headers.removeAll { $0.name.lowercased() == "content-type" }
        }
        let oldHost = URL(string: request.url).map { ($0.scheme, $0.host, $0.port) }
        if oldHost.map({ ($0.0, $0.1, $0.2) != (url.scheme, url.host, url.port) }) ?? true {
            next.headers.removeAll { $0.isSecret || $0.name.lowercased() == "authorization" }
        }
        return next
    }

    private func once(_ prepared: PreparedRequest, deadline: Date) -> ExchangeResult {
        guard let url = URL(string: prepared.url), url.scheme != nil, url.host != nil else {
            return .failure(.failed, "'\(prepared.displayURL)' is not a URL")
        }
        let remaining = deadline.timeIntervalSinceNow
        guard remaining > 0 else { return .failure(.timedOut, ExchangeFailure.deadline) }
        if url.scheme?.lowercased() == "http" { return PlainHTTPClient.exchange(prepared, deadline: deadline) }
        var request = URLRequest(url: url)
        request.httpMethod = prepared.method
        request.timeoutInterval = TimeInterval(prepared.timeoutSeconds)
        for header in prepared.headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
        if request.value(forHTTPHeaderField: "User-Agent") == nil {
            request.setValue(userAgent, forHTTPHeaderField: "User-Agent")
        }
        // Only gzip is asked for (libcurl would offer deflate, br and zstd too).
        request.setValue("gzip", forHTTPHeaderField: "Accept-Encoding")
        request.httpBody = prepared.body
        let box = ResultBox()
        let task = session.dataTask(with: request)
        bodies.start(task, limit: prepared.maximumResponseBytes, ratio: Self.maximumRatio) { data, response, error in
            box.set(Self.result(data: data, response: response, error: error))
        }
        task.resume()
        guard let result = box.wait(until: deadline) else {
            task.cancel()
            return .failure(.timedOut, ExchangeFailure.deadline)
        }
        return result
    }

    static func result(data: Data?, response: URLResponse?, error: Error?) -> ExchangeResult {
        if let limit = error as? BoundedBodies.TooLarge { return .failure(.failed, limit.description) }
        if let error {
            let code = (error as? URLError)?.code
            switch code {
            case .cannotConnectToHost?: return .failure(.connectionRefused, "")
            case .cannotFindHost?, .dnsLookupFailed?: return .failure(.cannotFindHost, "")
            case .timedOut?: return .failure(.timedOut, "")
            case .networkConnectionLost?:
                return .failure(.failed, "the connection closed before the whole answer came")
            default:
                // libcurl's own words reach us as the description; say the two common ones plainly.
                let text = error.localizedDescription
                if text.contains("Empty reply") {
                    return .failure(.failed, "the server closed the connection without answering")
                }
                if text.contains("transfer closed") || text.contains("Partial") {
                    return .failure(.failed, "the connection closed before the whole answer came")
                }
                return .failure(.failed, text)
            }
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.failed, "the answer was not HTTP")
        }
        var headers: [HTTPHeader] = []
        for (name, value) in http.allHeaderFields {
            headers.append(HTTPHeader("\(name)", "\(value)"))
        }
        headers.sort { $0.name.lowercased() < $1.name.lowercased() }
        return .response(HTTPResponse(status: http.statusCode, headers: headers, body: data ?? Data()))
    }
}

/// The session's delegate: gathers each task's body, giving it up once it passes its limit
/// (or decompresses past the ratio), and never lets URLSession follow a redirect itself
/// (`perform` follows them).
final class BoundedBodies: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    typealias Completion = (Data?, URLResponse?, Error?) -> Void

    struct TooLarge: Error, CustomStringConvertible {
        var description: String
    }

    private struct Gathering {
        var limit: Int
        var ratio: Int
        var data = Data()
        var response: URLResponse?
        /// Set when the body was given up.
        var failure: TooLarge?
        /// Whether `completion` was called already (a body given up is answered at once).
        var answered = false
        var completion: Completion
    }

    private let lock = NSLock()
    private var tasks: [Int: Gathering] = [:]
    /// Set once a body was given up while URLSession may still be reading it: the helper
    /// ends after answering, so nothing it goes on inflating is held (`HelperServer`).
    var givenUp: Bool { lock.withLock { anyGivenUp } }
    private var anyGivenUp = false

    func start(_ task: URLSessionTask, limit: Int, ratio: Int, completion: @escaping Completion) {
        lock.withLock { tasks[task.taskIdentifier] = Gathering(limit: limit, ratio: ratio, completion: completion) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let allowed = lock.withLock { () -> Bool in
            guard var gathering = tasks[dataTask.taskIdentifier] else { return true }
            gathering.response = response
            // The length is the compressed one when the body is compressed: checked as it comes.
            let encoded = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Encoding") != nil
            if !encoded, response.expectedContentLength > Int64(gathering.limit) {
                gathering.failure = Self.tooLarge(gathering.limit)
            }
            tasks[dataTask.taskIdentifier] = gathering
            return gathering.failure == nil
        }
        completionHandler(allowed ? .allow : .cancel)
        if !allowed { answerGivenUp(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let cancel = lock.withLock { () -> Bool in
            guard var gathering = tasks[dataTask.taskIdentifier], gathering.failure == nil else { return false }
            let total = gathering.data.count + data.count
            if total > gathering.limit {
                gathering.failure = Self.tooLarge(gathering.limit)
            } else if let http = gathering.response as? HTTPURLResponse,
                let encoding = http.value(forHTTPHeaderField: "Content-Encoding"), encoding.lowercased() != "identity",
                http.expectedContentLength > 0,
                total > max(1 << 20, Int(clamping: http.expectedContentLength) * gathering.ratio)
            {
                gathering.failure = TooLarge(
                    description:
                        "the answer decompresses to more than \(gathering.ratio) times its \(http.expectedContentLength) bytes; it was not read to its end"
                )
            } else {
                gathering.data.append(data)
            }
            tasks[dataTask.taskIdentifier] = gathering
            return gathering.failure != nil
        }
        guard cancel else { return }
        dataTask.cancel()
        answerGivenUp(dataTask)
    }

    /// Answers a task whose body was given up now, not when URLSession has wound it down:
    /// libcurl may still be inflating what it already read (a gzip bomb), or waiting on the
    /// rest of a body it was told not to read, and the caller must not wait for either.
    private func answerGivenUp(_ task: URLSessionTask) {
        let given = lock.withLock { () -> Gathering? in
            anyGivenUp = true
            guard var gathering = tasks[task.taskIdentifier], !gathering.answered else { return nil }
            gathering.answered = true
            gathering.data = Data()
            tasks[task.taskIdentifier] = gathering
            return gathering
        }
        if let given { given.completion(nil, given.response, given.failure) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let gathering = lock.withLock({ tasks.removeValue(forKey: task.taskIdentifier) }),
            !gathering.answered
        else { return }
        if let failure = gathering.failure {
            gathering.completion(nil, gathering.response, failure)
        } else {
            gathering.completion(gathering.data, gathering.response ?? task.response, error)
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    static func tooLarge(_ limit: Int) -> TooLarge {
        TooLarge(
            description:
                "the answer is larger than \(ByteSize.format(limit)) (--max-response); it was not read to its end")
    }
}

/// One result handed from URLSession's queue to the waiting caller.
final class ResultBox: @unchecked Sendable {
    private let condition = NSCondition()
    private var result: ExchangeResult?

    func set(_ value: ExchangeResult) {
        condition.lock()
        if result == nil { result = value }
        condition.signal()
        condition.unlock()
    }

    func wait(until deadline: Date) -> ExchangeResult? {
        condition.lock()
        defer { condition.unlock() }
        while result == nil {
            if !condition.wait(until: deadline) { return result }
        }
        return result
    }
}
