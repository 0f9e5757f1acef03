import Foundation

/// One HTTP request as a pack describes it: the method, where it goes, the query in the order
/// written, the headers and the body. Secret parts (keys, passwords) are marked, so that
/// recordings, error messages and dumps can leave them out.
public struct HTTPRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
        case head = "HEAD"
    }

    public var method: Method
    /// The API's name (`unsplash`) when the request goes to an API's base URL; recordings
    /// key on it instead of the base, so a recording made against a test server replays
    /// against the real service's configuration and back. Nil for an absolute URL.
    public var api: String?
    /// `https://api.unsplash.com` (no trailing slash), or a whole URL when `api` is nil.
    public var base: String
    /// `/photos`, percent-encoded already (see `PercentEncoding.pathSegment`).
    public var path: String
    public var query: [QueryItem]
    public var headers: [HTTPHeader]
    public var body: HTTPBody?
    /// Secret values carried elsewhere (a password inside a JSON body): removed from
    /// recordings wherever they occur.
    public var secretValues: [String]

    public init(
        _ method: Method, api: String?, base: String, path: String = "", query: [QueryItem] = [],
        headers: [HTTPHeader] = [], body: HTTPBody? = nil, secretValues: [String] = []
    ) {
        self.method = method
        self.api = api
        self.base = base.hasSuffix("/") && !path.isEmpty ? String(base.dropLast()) : base
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.secretValues = secretValues
    }

    /// A GET of a whole URL (a picture a feed pointed at).
    public static func get(url: String) -> HTTPRequest { HTTPRequest(.get, api: nil, base: url) }

    /// The URL as sent: the query in the order written, every value strictly percent-encoded.
    public var url: String { base + path + Self.queryString(query) }

    /// The URL as people see it in errors and recordings: secret query items left out.
    public var displayURL: String { base + path + Self.queryString(query.filter { !$0.isSecret }) }

    /// Every secret this request carries, longest first (so a key that contains another is
    /// removed whole).
    public var secrets: [String] {
        var all = secretValues
        all += query.filter(\.isSecret).map(\.value)
        all += headers.filter(\.isSecret).map(\.value)
        if case .multipart(let parts)? = body { all += parts.filter(\.isSecret).compactMap(\.text) }
        return Set(all.filter { !$0.isEmpty }).sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
    }

    static func queryString(_ items: [QueryItem]) -> String {
        guard !items.isEmpty else { return "" }
        return "?"
            + items.map { PercentEncoding.strict($0.name) + "=" + PercentEncoding.strict($0.value) }
            .joined(separator: "&")
    }

    public func header(_ name: String) -> String? {
        headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}

public struct QueryItem: Sendable, Hashable {
    public var name: String
    public var value: String
    public var isSecret: Bool

    public init(_ name: String, _ value: String, isSecret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = isSecret
    }
}

public struct HTTPHeader: Sendable, Hashable {
    public var name: String
    public var value: String
    public var isSecret: Bool

    public init(_ name: String, _ value: String, isSecret: Bool = false) {
        self.name = name
        self.value = value
        self.isSecret = isSecret
    }
}
