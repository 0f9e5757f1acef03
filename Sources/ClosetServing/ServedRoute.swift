import ClosetCore
import ClosetLanguage
import ClosetNetwork

/// One route of a served API, declared: its methods (GET answers HEAD too), its path as
/// segments (a word, or a parameter with its type), and what it answers. `ServedAPI(routes:)`
/// matches a request against them in one place (`ServedRouter`), checks every parameter before
/// the route runs, and answers what matches nothing in the API's own error shape.
public struct ServedRoute: Sendable {
    /// One segment of a route's path.
    public enum Segment: Sendable {
        /// The segment itself (`items`).
        case word(String)
        /// A whole number from `least` to `WholeNumber.maximum`, named for the error a client gets
        /// (`the page must be a whole number from 1 to ...`).
        case number(String, least: Int)
        /// Any one segment, as decoded (a picture's file name).
        case text(String)
    }

    /// The parameters a request gave, by name, checked.
    public struct Match: Sendable {
        public var numbers: [String: Int] = [:]
        public var texts: [String: String] = [:]

        /// A number parameter the route declares (0 when it declares none of that name).
        public func number(_ name: String) -> Int { numbers[name] ?? 0 }

        /// A text parameter the route declares ("" when it declares none of that name).
        public func text(_ name: String) -> String { texts[name] ?? "" }
    }

    public var methods: [String]
    public var path: [Segment]
    public var answer: @Sendable (Match, ServedRequest, ServedContext) throws -> HTTPResponse

    public init(
        _ methods: [String], _ path: [Segment],
        _ answer: @escaping @Sendable (Match, ServedRequest, ServedContext) throws -> HTTPResponse
    ) {
        self.methods = methods.contains("GET") && !methods.contains("HEAD") ? methods + ["HEAD"] : methods
        self.path = path
        self.answer = answer
    }

    /// `GET /items/{page}` and the like, for a banner or a document.
    public var shown: String {
        let path = self.path.map { segment in
            switch segment {
            case .word(let word): word
            case .number(let name, _), .text(let name): "{\(name)}"
            }
        }
        return methods.filter { $0 != "HEAD" }.joined(separator: "|") + " /" + path.joined(separator: "/")
    }
}

/// Matches requests against an API's routes: the route whose path fits, with its parameters
/// checked (a number out of its range is the client's `400`), else the API's `405` for a
/// method or path it has no route for.
struct ServedRouter: Sendable {
    let routes: [ServedRoute]
    let error: @Sendable (_ status: Int, _ reason: String) -> HTTPResponse
    /// The first words of every route: the paths the API claims. Made once: every request asks
    /// every API whether it claims its path (made per request, it was 9 % of the I/O thread).
    let firstWords: [String]

    init(routes: [ServedRoute], error: @escaping @Sendable (_ status: Int, _ reason: String) -> HTTPResponse) {
        self.routes = routes
        self.error = error
        // A few words, compared as they are: hashing a path's first word cost more than this.
        var words: [String] = []
        for route in routes {
            if case .word(let word)? = route.path.first, !words.contains(word) { words.append(word) }
        }
        firstWords = words
    }

    func claims(_ path: String) -> Bool {
        // The first non-empty segment, found by bytes without splitting the path.
        let bytes = path.utf8
        guard let start = bytes.firstIndex(where: { $0 != UInt8(ascii: "/") }) else { return false }
        let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.endIndex
        let first = bytes[start..<end]
        return firstWords.contains { $0.utf8.elementsEqual(first) }
    }

    func answer(_ request: ServedRequest, _ context: ServedContext) throws -> HTTPResponse? {
        guard claims(request.path) else { return nil }
        // A path of its own that does not decode (`..`, a bad escape): its 404, in its shape.
        guard let segments = request.segments else { return error(404, "no such path in this API") }
        for route in routes where route.path.count == segments.count && route.methods.contains(request.method) {
            var match = ServedRoute.Match()
            var fits = true
            var refusal: HTTPResponse?
            for (segment, given) in zip(route.path, segments) {
                switch segment {
                case .word(let word):
                    fits = fits && word == given
                case .number(let name, let least):
                    guard refusal == nil else { continue }
                    if let number = WholeNumber.value(given), number >= least {
                        match.numbers[name] = number
                    } else {
                        refusal = error(
                            400, "the \(name) must be a whole number from \(least) to \(WholeNumber.maximum)")
                    }
                case .text(let name):
                    match.texts[name] = given
                }
            }
            guard fits else { continue }
            if let refusal { return refusal }
            return try route.answer(match, request, context)
        }
        return error(405, "\(request.method) is not a route of this API")
    }
}
