import ClosetNetwork

/// The exchanges `closet serve --replay <folder>` answers from, in closet's own recording format
/// (what `--record` and `closet test --record` write), looked up as replay looks them up: by the
/// API, the method and the path; a recording's query must be part of the request's (a request
/// may add what recordings never keep, such as a key).
public final class ServedRecordings: @unchecked Sendable {
    struct Entry {
        var method: String
        var api: String
        var path: String
        var query: [(name: String, value: String)]
        var response: HTTPResponse
    }

    let entries: [Entry]

    package init(_ recordings: [String: Recording]) {
        var entries: [Entry] = []
        for (key, recording) in recordings where recording.failure == nil {
            // `GET {unsplash}/photos?page=1&per_page=15[ body=...]`.
            let words = key.split(separator: " ")
            guard words.count >= 2, words.count == 2 || words[2].hasPrefix("if-none-match=") == false,
                words[1].hasPrefix("{"), let close = words[1].firstIndex(of: "}")
            else { continue }
            let api = String(words[1][words[1].index(after: words[1].startIndex)..<close])
            let target = words[1][words[1].index(after: close)...]
            let path = String(target.prefix { $0 != "?" })
            let query = target.drop { $0 != "?" }.dropFirst().split(separator: "&").map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                let name = PercentEncoding.decoded(String(parts[0]), plusIsSpace: true) ?? String(parts[0])
                let value =
                    parts.count > 1
                    ? PercentEncoding.decoded(String(parts[1]), plusIsSpace: true) ?? String(parts[1]) : ""
                return (name: name, value: value)
            }
            entries.append(
                Entry(method: String(words[0]), api: api, path: path, query: query, response: recording.response))
        }
        self.entries = entries
    }

    /// The recorded answer to `method` on the API's `path` whose query the request's includes
    /// (the one naming most of it, when several do).
    func answer(api: String, method: String, path: String, query: [(name: String, value: String)]) -> HTTPResponse? {
        var best: Entry?
        for entry in entries where entry.api == api && entry.method == method && entry.path == path {
            let included = entry.query.allSatisfy { wanted in query.contains { $0 == wanted } }
            if included, entry.query.count >= (best?.query.count ?? -1) { best = entry }
        }
        return best?.response
    }
}

extension ServedAPI {
    /// An API answered from `--replay` recordings: the requests under its base URL's path and
    /// `routes`; one no recording answers gets `unmatched` (the API's own error shape), and
    /// `--fail` gets `failure`.
    public static func replaying(
        _ api: RemoteAPI, routes: [String], summary: String,
        unmatched: @escaping @Sendable (ServedRequest) -> HTTPResponse,
        failure: @escaping @Sendable (ServedRequest) -> HTTPResponse
    ) -> ServedAPI {
        let basePath =
            api.defaultBase.flatMap { base -> String? in
                guard let scheme = base.range(of: "://") else { return nil }
                let rest = base[scheme.upperBound...]
                return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
            } ?? ""
        @Sendable func relative(_ request: ServedRequest) -> String? {
            guard request.segments != nil, request.path.hasPrefix(basePath) else { return nil }
            let path = String(request.path.dropFirst(basePath.count))
            return routes.contains { path == $0 || path.hasPrefix($0 + "/") } ? path : nil
        }
        return ServedAPI(
            name: api.name, summary: summary,
            failure: { request in relative(request) == nil ? nil : failure(request) },
            answer: { request, context in
                guard let path = relative(request) else { return nil }
                return context.recordings?.answer(
                    api: api.name, method: request.method, path: path, query: request.query)
                    ?? unmatched(request)
            })
    }
}
