import ClosetNetwork

/// How an API reads its query, declared beside it, so a request is answered by a recording
/// that means the same even when it is not spelled the same (WireMock matches by spelling
/// only): a parameter left out means its default (Kakao's `sort` is `accuracy`), and some
/// parameters change nothing in the answer, and a server may read names, or some values, in
/// any case (`_type=JSON`). Order never matters; secrets are never compared.
public struct QueryMeaning: Sendable {
    /// What a parameter left out means (`page=1`, `sort=accuracy`).
    public var defaults: [String: String]
    /// Parameters the answer does not depend on (a cache-buster, a client's own tag).
    public var ignored: Set<String>
    /// The server reads parameter names in any case (`numofrows` is `numOfRows`).
    public var caselessNames: Bool
    /// Parameters whose value the server reads in any case (`_type=JSON` is `_type=json`).
    public var caselessValues: Set<String>

    public init(
        defaults: [String: String] = [:], ignored: Set<String> = [], caselessNames: Bool = false,
        caselessValues: Set<String> = []
    ) {
        self.defaults = defaults
        self.ignored = ignored
        self.caselessNames = caselessNames
        self.caselessValues = caselessValues
    }

    /// Spelling only (what `--replay` at the prompt does).
    public static let exact = QueryMeaning()

    var isExact: Bool { defaults.isEmpty && ignored.isEmpty && !caselessNames && caselessValues.isEmpty }

    /// The query as it means: `name=value`, sorted, the last of a repeated name, each default
    /// filled in, ignored parameters and secrets left out, names and values in one case where
    /// the server reads them in any.
    public func normalized(_ query: [(name: String, value: String)]) -> [String] {
        var values: [String: String] = [:]
        for (name, value) in defaults { values[spelled(name)] = value }
        for (name, value) in query where !ServedRequest.isSecret(queryName: name) {
            let name = spelled(name)
            guard !ignored.contains(name) else { continue }
            values[name] = value
        }
        return values.map { name, value in
            name + "=" + (caselessValues.contains(name) ? value.lowercased() : value)
        }.sorted()
    }

    /// The value of the parameter `name` as the server reads it (the last one given, its name in
    /// any case where the server reads names so).
    public func value(_ name: String, in query: [(name: String, value: String)]) -> String? {
        let wanted = spelled(name)
        return query.last { spelled($0.name) == wanted }?.value
    }

    /// A parameter's name as this API compares it (the declared spelling of one in any case).
    private func spelled(_ name: String) -> String {
        guard caselessNames else { return name }
        let lowered = name.lowercased()
        let declared =
            defaults.keys.first { $0.lowercased() == lowered }
            ?? ignored.first { $0.lowercased() == lowered }
            ?? caselessValues.first { $0.lowercased() == lowered }
        return declared ?? lowered
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
        for (key, recording) in route(api: api, method: method, path: path) {
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
        route(api: api, method: method, path: path).compactMap { key, recording in
            recording.failure == nil ? (key.pairs, recording.response) : nil
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
