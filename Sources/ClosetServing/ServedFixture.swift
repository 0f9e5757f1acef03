import ClosetNetwork

/// One file `export fixtures <api>` writes: its name, and the request whose answer it is. The
/// answer is made by the API itself, so the file is exactly what `closet serve` would send.
public struct ServedFixture: Sendable {
    public var file: String
    public var request: ServedRequest

    /// A GET of `path` (with its query, in order) by `headers`.
    public init(
        _ file: String, get path: String, query: [(name: String, value: String)] = [], headers: [HTTPHeader] = []
    ) {
        self.file = file
        let raw = query.map { PercentEncoding.strict($0.name) + "=" + PercentEncoding.strict($0.value) }
        request = ServedRequest(
            method: "GET", path: path, query: query, rawQuery: raw.joined(separator: "&"), headers: headers)
    }
}
