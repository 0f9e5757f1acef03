import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The exchanges `closet serve --replay <folder>` answers from, in closet's own recording format
/// (what `--record` and `closet test --record` write), looked up by the key replay uses: the API,
/// the method, the path and the query without its secrets (recordings never keep a key, so a
/// request's `key`, `serviceKey` or `client_id` is left out), in any order. Recordings of whole
/// URLs (pictures) are looked up by the URL. A recorded failure is given as a server can give
/// it: the connection cut half-way through an answer ("closed before the whole answer came"),
/// or closed without one (every other failure: a refused connection or an unknown host cannot
/// come from a server that answers).
public final class ServedRecordings: @unchecked Sendable {
    struct Key: Hashable {
        var method: String
        var api: String
        var path: String
        /// Decoded `name=value` pairs, sorted.
        var query: [String]

        /// The pairs as names and values again (a value may hold `=`).
        var pairs: [(name: String, value: String)] {
            query.map { pair in
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
            }
        }

        /// `GET {kakao}/v2/search/image?query=x&sort=accuracy`, as people read a recording's key.
        var text: String { "\(method) {\(api)}\(path)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&")) }
    }

    /// Guarded by `lock`: `closet serve --through` adds what it records while workers read.
    private var byKey: [Key: Recording] = [:]
    /// `https://t1.daumcdn.net/movie/masquerade-0.jpg`: GET answers of whole URLs.
    private var byURL: [String: Recording] = [:]
    /// Pictures made from a recorded size of the same picture (`PictureSizes`), by URL: the
    /// last few, so an app's feed is not scaled again at every scroll.
    private let resizes = LRUCache<HTTPResponse>(countLimit: 64, costLimit: 64 << 20) { $0.body.count }
    private let lock = NSLock()

    /// The keys of each route (`GET unsplash /photos`): a request that no recording answers as
    /// spelled is compared with its route's recordings only, not with every one.
    private var byRoute: [String: [Key]] = [:]

    var entries: [Key: Recording] { lock.withLock { byKey } }

    /// The recordings of one route of an API.
    func route(api: String, method: String, path: String) -> [(key: Key, recording: Recording)] {
        lock.withLock {
            (byRoute[Self.route(method, api, path)] ?? []).compactMap { key in byKey[key].map { (key, $0) } }
        }
    }

    static func route(_ method: String, _ api: String, _ path: String) -> String { method + " " + api + " " + path }

    /// The recorded GETs of one API answered 200 with JSON, in the order of their keys: what
    /// its fixtures are made of (a recorded refusal is a recording, not a fixture).
    func recordedJSON(api: String) -> [Key] {
        entries.filter { key, recording in
            key.api == api && key.method == "GET" && recording.response.status == 200 && recording.failure == nil
                && (recording.response.headers.last { ServedRequest.sameName($0.name, "Content-Type") }?.value
                    .contains("json") ?? false)
        }.map(\.key).sorted { $0.text < $1.text }
    }

    package init(_ recordings: [String: Recording]) {
        for recording in recordings.values { insert(recording, replacing: false) }
    }

    /// A recording made while serving (`--through`): what answers the same request from now on.
    package func add(_ recording: Recording) { lock.withLock { insert(recording, replacing: true) } }

    private func insert(_ recording: Recording, replacing: Bool) {
        // `GET {unsplash}/photos?page=1&per_page=15[ body=...]`; a conditional GET (its 304)
        // is not what a plain request is answered with.
        let words = recording.key.split(separator: " ")
        guard words.count == 2 else { return }
        let method = String(words[0])
        guard words[1].hasPrefix("{"), let close = words[1].firstIndex(of: "}") else {
            if method == "GET", replacing || byURL[String(words[1])] == nil { byURL[String(words[1])] = recording }
            return
        }
        let api = String(words[1][words[1].index(after: words[1].startIndex)..<close])
        let target = words[1][words[1].index(after: close)...]
        let path = String(target.prefix { $0 != "?" })
        let query = target.drop { $0 != "?" }.dropFirst().split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentEncoding.decoded(String(parts[0]), plusIsSpace: true) ?? String(parts[0])
            let value =
                parts.count > 1 ? PercentEncoding.decoded(String(parts[1]), plusIsSpace: true) ?? String(parts[1]) : ""
            return (name: name, value: value)
        }
        let key = Self.key(method, api, path, query)
        if byKey[key] == nil { byRoute[Self.route(method, api, path), default: []].append(key) }
        if replacing || byKey[key] == nil { byKey[key] = recording }
    }

    static func key(_ method: String, _ api: String, _ path: String, _ query: [(name: String, value: String)]) -> Key {
        Key(
            method: method, api: api, path: path,
            query: query.filter { !ServedRequest.isSecret(queryName: $0.name) }.map { $0.name + "=" + $0.value }
                .sorted())
    }

    /// The recorded answer to `method` on the API's `path` with this query (its secrets left
    /// out); a recorded failure is thrown as the cut it stands for.
    func answer(api: String, method: String, path: String, query: [(name: String, value: String)]) throws(ServedCut)
        -> HTTPResponse?
    {
        try Self.given(lock.withLock { byKey[Self.key(method, api, path, query)] })
    }

    /// The recorded answer to a GET of the whole URL.
    public func answer(url: String) throws(ServedCut) -> HTTPResponse? { try Self.given(lock.withLock { byURL[url] }) }

    /// The recorded GET answers of whole URLs that `matches` takes, pictures or not.
    func pictures(where matches: (String) -> Bool) -> [HTTPResponse] {
        lock.withLock {
            byURL.compactMap { url, recording in
                recording.failure == nil && recording.response.status == 200 && matches(url) ? recording.response : nil
            }
        }
    }

    func resized(_ url: String) -> HTTPResponse? { lock.withLock { resizes.get(for: url) } }

    func keep(resized answer: HTTPResponse, for url: String) { lock.withLock { resizes.store(answer, for: url) } }

    static func given(_ recording: Recording?) throws(ServedCut) -> HTTPResponse? {
        guard let recording else { return nil }
        switch recording.failure {
        case nil: return recording.response
        case .failed(_, let reason)? where reason.contains("before the whole answer"): throw .midBody
        case _?: throw .withoutAnswer
        }
    }
}

/// Thrown by a served API for an answer that breaks off as a network does (a recorded
/// failure): the server cuts the connection and keeps nothing of the request.
public enum ServedCut: Error, Sendable {
    /// The head and half of a body, then closed.
    case midBody
    /// Closed without a byte.
    case withoutAnswer
}

extension ServedAPI {
    /// An API answered from `--replay` recordings: the requests to `routes`, under the server's
    /// root or under the API's own base path (`/kobisopenapi/webservice/rest/boxoffice/...`, so
    /// an app may keep its path and change only the host). Any key is accepted, but a request
    /// without one gets `keyless`'s answer (the API's own; nil when the request has a key). One
    /// no recording answers gets `unmatched` (the API's own error shape), and `--fail` gets
    /// `failure`. The strings under
    /// `pictureKeys` in its JSON answers name pictures: they are pointed at the server's
    /// `/pictures/` (`ServedPictures`), which `picture` answers from the store first.
    /// `meaning` is how the API reads its query (defaults, ignored parameters), so a request
    /// matches a recording that means the same; `recordedQuery` gives the query as the
    /// recordings hold it, where the API's meaning differs from its spelling (a day relative
    /// to the client's today, under `--today`); `beyondRecordings` answers what the API
    /// answers where nothing was recorded because nothing is there (a page past the last);
    /// `pictureSizes`, how its picture URLs ask for a size (one recorded size answers all).
    /// One still unmatched is logged with its nearest recording and how they differ.
    public static func replaying(
        _ api: RemoteAPI, routes: [String], summary: String, pictureKeys: Set<String> = [],
        keyless: @escaping @Sendable (ServedRequest) -> HTTPResponse?,
        unmatched: @escaping @Sendable (ServedRequest) -> HTTPResponse,
        failure: @escaping @Sendable (ServedRequest) -> HTTPResponse,
        picture: (@Sendable (String, ServedContext) throws -> [UInt8]?)? = nil,
        meaning: QueryMeaning = .exact,
        recordedQuery: (@Sendable (ServedRequest, ServedContext) -> [(name: String, value: String)])? = nil,
        beyondRecordings: (
            @Sendable (ServedRequest, [(query: [(name: String, value: String)], response: HTTPResponse)]) ->
                HTTPResponse?
        )? = nil,
        placeholder: (@Sendable (String, ServedContext) -> PicturePlaceholder?)? = nil,
        pictureSizes: PictureSizes? = nil, credential: [HTTPHeader] = [], credentialQuery: [(String, String)] = []
    ) -> ServedAPI {
        let basePath =
            api.defaultBase.flatMap { base -> String? in
                guard let scheme = base.range(of: "://") else { return nil }
                let rest = base[scheme.upperBound...]
                return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
            } ?? ""
        @Sendable func relative(_ request: ServedRequest) -> String? {
            var path = request.path
            if !basePath.isEmpty, path.hasPrefix(basePath + "/") { path = String(path.dropFirst(basePath.count)) }
            // The routes first (a prefix each), the decoded segments only for a path of its own:
            // every request to another API asks this one too.
            guard routes.contains(where: { path == $0 || path.hasPrefix($0 + "/") }), request.segments != nil
            else { return nil }
            return path
        }
        var served = ServedAPI(
            name: api.name, summary: summary,
            failure: { request in relative(request) == nil ? nil : failure(request) },
            picture: picture,
            answer: { request, context in
                guard let path = relative(request) else { return nil }
                if let refused = keyless(request) { return refused }
                guard let recordings = context.recordings else { return unmatched(request) }
                // As the API means it first, then as asked (a recorded day asked for by its date).
                let meant = recordedQuery?(request, context)
                guard
                    let recorded = try meant.flatMap({ query throws(ServedCut) in
                        try recordings.answer(
                            api: api.name, method: request.method, path: path, query: query, meaning: meaning)
                    })
                        ?? recordings.answer(
                            api: api.name, method: request.method, path: path, query: request.query, meaning: meaning)
                else {
                    if let through = context.through {
                        do throws(NetworkError) {
                            if let live = try through.answer(request, api: api.name, path: path, recordings: recordings)
                            {
                                return ServedPictures.rewritingURLs(
                                    in: live, under: pictureKeys, baseURL: context.baseURL)
                            }
                        } catch {
                            context.note("through to the live API: \(error.message)")
                            return unmatched(request)
                        }
                    }
                    if let beyondRecordings,
                        let answer = beyondRecordings(
                            request, recordings.recorded(api: api.name, method: request.method, path: path))
                    {
                        return ServedPictures.rewritingURLs(in: answer, under: pictureKeys, baseURL: context.baseURL)
                    }
                    if let nearest = recordings.nearMiss(
                        api: api.name, method: request.method, path: path, query: meant ?? request.query,
                        meaning: meaning)
                    {
                        context.note(nearest)
                    }
                    return unmatched(request)
                }
                return ServedPictures.rewritingURLs(in: recorded, under: pictureKeys, baseURL: context.baseURL)
            })
        served.live = api.defaultBase
        // Each recorded JSON answer, as this server gives it (its picture URLs pointed here),
        // asked with a stand-in for the key the client would send (`credential`).
        served.fixtures = { context in
            guard let recordings = context.recordings else { throw FixturesNeedRecordings(api: api.name) }
            var taken: Set<String> = []
            return recordings.recordedJSON(api: api.name).map { key in
                // `searchDailyBoxOfficeList-targetDt-20120101.json`: the path's last word and the query.
                let last = key.path.split(separator: "/").last.map(String.init) ?? api.name
                let words =
                    [last.hasSuffix(".json") ? String(last.dropLast(5)) : last]
                    + key.pairs.flatMap { [$0.name, $0.value] }
                var file = FixturesNeedRecordings.fileName(words.joined(separator: "-"))
                var number = 2
                while !taken.insert(file).inserted {
                    file = FixturesNeedRecordings.fileName(words.joined(separator: "-")) + "-\(number)"
                    number += 1
                }
                return ServedFixture(
                    file + ".json", get: key.path, query: key.pairs + credentialQuery, headers: credential)
            }
        }
        served.placeholder = placeholder
        served.pictureSizes = pictureSizes
        return served
    }
}

/// `export fixtures` of an API answered from recordings, without `replay=`.
struct FixturesNeedRecordings: Error, LocalizedMessage {
    var api: String
    var message: String { "the \(api) API answers from recordings: give replay=<folder>" }

    /// Letters (any script), digits, `-`, `_` and `.` kept, anything else `_`, at most 100
    /// characters: a name any file system takes, never a path.
    static func fileName(_ text: String) -> String {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let plain =
                CharacterSet.letters.union(.decimalDigits).contains(scalar) || "-_.".unicodeScalars.contains(scalar)
            return plain ? Character(scalar) : "_"
        }
        let name = String(String(kept).prefix(100))
        return name.allSatisfy { $0 == "." } ? "_" + name : name
    }
}
