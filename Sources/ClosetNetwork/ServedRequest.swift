import Foundation

/// A request `closet serve` received, parsed and whole: what a pack's served API answers.
public struct ServedRequest: Sendable {
    public var method: String
    /// The path as sent, not decoded (`/item/3`); `segments` are decoded.
    public var path: String
    /// Query parameters in order, percent-decoded (`+` as a space, as forms send it).
    public var query: [(name: String, value: String)]
    /// The query as sent, after the `?` and not decoded (empty without one): a picture URL is
    /// given back byte for byte.
    public var rawQuery: String
    public var headers: [HTTPHeader]
    public var body: Data
    /// The client's address as the server saw it (`127.0.0.1`, `::1`); empty where none is
    /// known. What per-client budgets (failed passwords) count by.
    public var client = ""

    public init(
        method: String, path: String, query: [(name: String, value: String)] = [], rawQuery: String = "",
        headers: [HTTPHeader] = [], body: Data = Data()
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.rawQuery = rawQuery
        self.headers = headers
        self.body = body
    }

    /// The last header of that name, compared in ASCII case (header names are ASCII tokens;
    /// Foundation's locale-aware comparison was a tenth of answering a kept GET).
    public func header(_ name: String) -> String? {
        headers.last { Self.sameName($0.name, name) }?.value
    }

    package static func sameName(_ a: String, _ b: String) -> Bool {
        // Clients mostly send a name as it is written: compared whole first.
        if a == b { return true }
        guard a.utf8.count == b.utf8.count else { return false }
        return zip(a.utf8, b.utf8).allSatisfy { x, y in
            x == y || (x | 0x20 == y | 0x20 && (x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)
        }
    }

    public func query(_ name: String) -> String? { query.last { $0.name == name }?.value }

    /// Query parameters whose values are secrets in the APIs closet serves (compared in lower
    /// case): kept out of the journal, and out of what a recording is looked up by (recordings
    /// never keep them). Header names that carry credentials are among them: a client may put
    /// `Authorization` in a query too.
    public static let secretQueryNames: Set<String> = [
        "key", "servicekey", "client_id", "client_secret", "apikey", "api_key", "x-api-key", "access_token",
        "refresh_token", "id_token", "token", "password", "secret", "authorization", "proxy-authorization", "cookie",
        "signature", "sig",
    ]

    public static func isSecret(queryName name: String) -> Bool { secretQueryNames.contains(name.lowercased()) }

    /// The path's segments, percent-decoded; nil when one does not decode to UTF-8 text, or
    /// would climb or cross folders (`.`, `..`, an encoded `/` or `\`, NUL): no API is ever
    /// asked for a path outside its own.
    public var segments: [String]? {
        var out: [String] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            guard let decoded = PercentEncoding.decoded(String(segment), plusIsSpace: false), decoded != ".",
                decoded != "..", !decoded.contains("/"), !decoded.contains("\\"), !decoded.contains("\0")
            else { return nil }
            out.append(decoded)
        }
        return out
    }

    /// The body's parts when it is `multipart/form-data` (RFC 7578); nil when it is not, or
    /// is malformed.
    public var multipart: [MultipartPart]? {
        guard let type = header("Content-Type"), let boundary = MultipartParser.boundary(of: type) else { return nil }
        return MultipartParser.parts(of: body, boundary: boundary)
    }
}
