import ClosetNetwork

/// How an API reads its query, declared beside it, so a request is answered by a recording
/// that means the same even when it is not spelled the same (WireMock matches by spelling
/// only): a parameter left out means its default (Kakao's `sort` is `accuracy`), and some
/// parameters change nothing in the answer. Order never matters; secrets are never compared.
public struct QueryMeaning: Sendable {
    /// What a parameter left out means (`page=1`, `sort=accuracy`).
    public var defaults: [String: String]
    /// Parameters the answer does not depend on (a cache-buster, a client's own tag).
    public var ignored: Set<String>

    public init(defaults: [String: String] = [:], ignored: Set<String> = []) {
        self.defaults = defaults
        self.ignored = ignored
    }

    /// Spelling only (what `--replay` at the prompt does).
    public static let exact = QueryMeaning()

    var isExact: Bool { defaults.isEmpty && ignored.isEmpty }

    /// The query as it means: `name=value`, sorted, the last of a repeated name, each default
    /// filled in, ignored parameters and secrets left out.
    public func normalized(_ query: [(name: String, value: String)]) -> [String] {
        var values = defaults
        for (name, value) in query where !ignored.contains(name) && !ServedRequest.isSecret(queryName: name) {
            values[name] = value
        }
        return values.map { $0.key + "=" + $0.value }.sorted()
    }
}

extension ServedRecordings {
    /// A recording that means what the request asks (`meaning`), when none is spelled as it is.
    func answer(
        api: String, method: String, path: String, query: [(name: String, value: String)], meaning: QueryMeaning
    ) throws(ServedCut) -> HTTPResponse? {
        if let exact = try answer(api: api, method: method, path: path, query: query) { return exact }
        guard !meaning.isExact else { return nil }
        let wanted = meaning.normalized(query)
        for (key, recording) in entries where key.api == api && key.method == method && key.path == path {
            if meaning.normalized(key.pairs) == wanted { return try Self.given(recording) }
        }
        return nil
    }

    /// The recorded answers of one route of an API (every page of a feed), for what an API
    /// reads out of its own answers (a picture's size and BlurHash for `--placeholders`).
    public func answers(api: String, path: String) -> [HTTPResponse] {
        recorded(api: api, method: "GET", path: path).map(\.response)
    }

    /// The recordings of one route (Unsplash's pages, to find where the feed ends), with their
    /// queries as `meaning` reads them.
    func recorded(api: String, method: String, path: String) -> [(
        query: [(name: String, value: String)], response: HTTPResponse
    )] {
        entries.compactMap { key, recording in
            guard key.api == api, key.method == method, key.path == path, recording.failure == nil else { return nil }
            return (key.pairs, recording.response)
        }
    }

    /// The recording closest to an unanswered request of this API, and how they differ (a
    /// near miss, as WireMock reports one): `nearest: GET {kakao}/v2/search/image?query=x (asked
    /// size=20; recorded sort=recency)`. Nil when the API has no recordings.
    func nearMiss(
        api: String, method: String, path: String, query: [(name: String, value: String)], meaning: QueryMeaning
    )
        -> String?
    {
        let wanted = Set(meaning.normalized(query))
        var best: (score: Int, key: Key, asked: [String], recorded: [String])?
        for key in entries.keys where key.api == api {
            let have = Set(meaning.normalized(key.pairs))
            let asked = wanted.subtracting(have).sorted()
            let recorded = have.subtracting(wanted).sorted()
            // Another path or method counts as much as every parameter differing.
            let score =
                asked.count + recorded.count + (key.path == path ? 0 : 100) + (key.method == method ? 0 : 1000)
            if best.map({ score < $0.score || (score == $0.score && key.text < $0.key.text) }) ?? true {
                best = (score, key, asked, recorded)
            }
        }
        guard let best else { return nil }
        var differences: [String] = []
        if best.key.method != method { differences.append("recorded for \(best.key.method)") }
        if best.key.path != path { differences.append("recorded path \(best.key.path)") }
        if !best.asked.isEmpty { differences.append("asked " + best.asked.joined(separator: "&")) }
        if !best.recorded.isEmpty { differences.append("recorded " + best.recorded.joined(separator: "&")) }
        return "nearest recording: \(best.key.text) (\(differences.joined(separator: "; ")))"
    }
}
