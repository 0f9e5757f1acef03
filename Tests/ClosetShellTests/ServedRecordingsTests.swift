import ClosetCore
import ClosetLanguage
import ClosetPictures
import Foundation
import Synchronization
import TestSupport
import Testing

/// Issue 27, part 3: every route of the APIs `closet serve` answers from recordings (Unsplash,
/// KOBIS, Kakao image search, the animal-protection API), driven with curl, status, headers and
/// bodies checked against the shapes in the reference (apis.md); the pictures their answers name
/// served from what the store and its caches hold; each API's own failure under `--fail`.
@Suite(.serialized) struct ServedRecordingsTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path
    /// The recorded world the examples and the apps' flows replay.
    static let examples = URL(fileURLWithPath: goldens).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/http").path

    struct Fetched {
        var status: Int
        var headers: [String: String]
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: Any? { try? JSONSerialization.jsonObject(with: body) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    /// curl's status (0 when no answer came), headers (names in lower case) and body.
    static func fetch(_ url: String, _ headers: [String] = []) throws -> Fetched {
        let folder = NSTemporaryDirectory() + "closet-curl-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let run = try ChildProcess.run(
            "/usr/bin/curl",
            ["-s", "-D", folder + "/head", "-o", folder + "/body", "-w", "%{http_code}", "--max-time", "10"]
                + headers.flatMap { ["-H", $0] } + [url])
        var fields: [String: String] = [:]
        let head = (try? String(contentsOfFile: folder + "/head", encoding: .utf8)) ?? ""
        for line in head.split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return Fetched(
            status: Int(run.out) ?? 0, headers: fields,
            body: FileManager.default.contents(atPath: folder + "/body") ?? Data())
    }

    /// An animal-protection answer's body and its dogs (`response.body.items.item`).
    static func animalPage(_ answer: Fetched) -> (body: [String: Any]?, items: [[String: Any]]) {
        let body = (answer.object["response"] as? [String: Any])?["body"] as? [String: Any]
        return (body, ((body?["items"] as? [String: Any])?["item"] as? [[String: Any]]) ?? [])
    }

    /// The API recordings of the three packs, without their pictures' recordings: a picture the
    /// server gives then comes from the store or a cache.
    static func apiRecordingsOnly() throws -> String {
        let folder = NSTemporaryDirectory() + "closet-api-recordings-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for pack in ["photos", "boxoffice", "adoption"] {
            let source = goldens + "/\(pack)/http"
            let names = try FileManager.default.contentsOfDirectory(atPath: source)
            for name in names where name.hasSuffix(".http") {
                let head = try String(contentsOfFile: source + "/" + name, encoding: .utf8)
                guard head.hasPrefix("GET {") else { continue }
                let stem = name.dropLast(".http".count)
                for file in names where file.hasPrefix(stem + ".") {
                    try FileManager.default.copyItem(atPath: source + "/" + file, toPath: folder + "/" + file)
                }
            }
        }
        return folder
    }

    @Test func everyRecordedRouteAnswersInItsAPIsShapes() throws {
        let store = NSTemporaryDirectory() + "closet-serve-\(UUID().uuidString)"
        let caches = NSTemporaryDirectory() + "closet-serve-caches-\(UUID().uuidString)"
        let recordings = try Self.apiRecordingsOnly()
        defer {
            for folder in [store, caches, recordings] { try? FileManager.default.removeItem(atPath: folder) }
        }
        let keys = [
            "UNSPLASH_ACCESS_KEY": "any", "KOBIS_API_KEY": "any", "KAKAO_REST_API_KEY": "any", "ANIMAL_API_KEY": "any",
            "XDG_CACHE_HOME": caches,
        ]
        // The store holds a saved photo, the caches a poster and a dog's picture, as a person's
        // session leaves them.
        for (pack, statements) in [
            ("photos", ["list photos", "save photo @2"]),
            ("boxoffice", ["search posters 20124079", "show poster 20124079"]),
            ("adoption", ["list dogs", "next", "show dog @12"]),
        ] {
            let seeded = try ChildProcess.run(
                BuiltProducts.closet,
                ["--store", store, "--deterministic", "--replay", Self.goldens + "/\(pack)/http"]
                    + statements.flatMap { ["-c", $0] }, environment: keys)
            #expect(seeded.status == 0, "\(seeded.err)")
        }
        let server = try ServeProcess(
            store: store, serveArguments: ["--replay", recordings, "photos", "boxoffice", "adoption"],
            environment: ["XDG_CACHE_HOME": caches])
        defer { server.stop() }
        let base = server.baseURL

        // Unsplash: `/photos?page=&per_page=` is a JSON array of photos whose `urls` point at
        // the server; `/photos/{id}` one photo; a key by header or by `client_id`.
        var answer = try Self.fetch(
            base + "/photos?page=1&per_page=15", ["Authorization: Client-ID any", "Accept-Version: v1"])
        let photos = answer.json as? [[String: Any]] ?? []
        #expect(answer.status == 200 && answer.headers["content-type"] == "application/json" && photos.count == 15)
        let second = photos.count > 1 ? photos[1] : [:]
        let urls = second["urls"] as? [String: String] ?? [:]
        #expect(Set(urls.keys) == ["raw", "full", "regular", "small", "thumb"])
        #expect(urls.values.allSatisfy { $0.hasPrefix(base + "/pictures/https/images.unsplash.com/photo-") })
        #expect((second["links"] as? [String: String])?["self"]?.hasPrefix("https://api.unsplash.com/") == true)
        answer = try Self.fetch(base + "/photos/ph39qtbxicj?client_id=any")
        #expect(answer.status == 200 && answer.object["id"] as? String == "ph39qtbxicj")
        // The saved photo's picture, any size of it, from the store; with its tag, a 304.
        answer = try Self.fetch(urls["small"] ?? "")
        let saved = try ChildProcess.run(
            BuiltProducts.closet,
            ["--store", store, "-c", "list saved", "-c", "export picture @1 to=\(caches)/saved.jpg"], environment: keys)
        #expect(saved.status == 0, "\(saved.err)")
        #expect(answer.status == 200 && answer.headers["content-type"] == "image/jpeg")
        #expect(!answer.body.isEmpty && answer.body == FileManager.default.contents(atPath: caches + "/saved.jpg"))
        let tag = answer.headers["etag"] ?? ""
        answer = try Self.fetch(urls["thumb"] ?? "", ["If-None-Match: W/\(tag)"])
        #expect(!tag.isEmpty && answer.status == 304 && answer.body.isEmpty && answer.headers["content-length"] == nil)
        // A photo nobody saved has no picture here (its recording was left out on purpose).
        answer = try Self.fetch((photos.first?["urls"] as? [String: String])?["small"] ?? "")
        #expect(answer.status == 404 && answer.text.hasPrefix("no picture of https://images.unsplash.com/"))
        answer = try Self.fetch(base + "/photos?page=1&per_page=15")
        #expect(
            answer.status == 401 && answer.object["errors"] as? [String] == ["OAuth error: The access token is invalid"]
        )
        answer = try Self.fetch(base + "/photos/unknown?client_id=any")
        #expect(answer.status == 404 && answer.object["errors"] as? [String] == ["Couldn't find Photo"])
        // A recorded failure breaks off as it did: the connection closed without an answer.
        #expect(try Self.fetch(base + "/photos?page=95&per_page=15&client_id=any").status == 0)

        // KOBIS: the daily box office and a movie's details, at the root or under the API's own
        // path; its errors are a `faultInfo` in a 200.
        for prefix in ["", "/kobisopenapi/webservice/rest"] {
            answer = try Self.fetch(
                base + prefix + "/boxoffice/searchDailyBoxOfficeList.json?key=any&targetDt=20120101")
            let result = answer.object["boxOfficeResult"] as? [String: Any] ?? [:]
            let list = result["dailyBoxOfficeList"] as? [[String: Any]] ?? []
            #expect(answer.status == 200 && result["boxofficeType"] as? String == "일별 박스오피스" && list.count >= 1)
            #expect(
                list.first.map { ["rank", "movieCd", "movieNm", "openDt", "audiAcc"].allSatisfy($0.keys.contains) }
                    == true)
        }
        answer = try Self.fetch(base + "/movie/searchMovieInfo.json?key=any&movieCd=20124079")
        let movie = (answer.object["movieInfoResult"] as? [String: Any])?["movieInfo"] as? [String: Any] ?? [:]
        #expect(answer.status == 200 && movie["movieCd"] as? String == "20124079" && movie["genres"] is [Any])
        func fault(_ fetched: Fetched) -> [String: String] { fetched.object["faultInfo"] as? [String: String] ?? [:] }
        answer = try Self.fetch(base + "/boxoffice/searchDailyBoxOfficeList.json?targetDt=20120101")
        #expect(answer.status == 200 && fault(answer) == ["message": "유효하지않은 키값입니다.", "errorCode": "320010"])
        answer = try Self.fetch(base + "/boxoffice/searchDailyBoxOfficeList.json?key=any")
        #expect(answer.status == 200 && fault(answer)["errorCode"] == "320102")
        answer = try Self.fetch(base + "/boxoffice/searchDailyBoxOfficeList.json?key=any&targetDt=19990101")
        #expect(answer.status == 200 && fault(answer)["errorCode"] == "closet-unrecorded")

        // Kakao: documents whose picture URLs point at the server; the poster the cache holds
        // is served from it.
        let query =
            "query=%EA%B4%91%ED%95%B4%2C%20%EC%99%95%EC%9D%B4%20%EB%90%9C%20%EB%82%A8%EC%9E%90%20%ED%8F%AC%EC%8A%A4%ED%84%B0&sort=accuracy"
        answer = try Self.fetch(base + "/v2/search/image?" + query, ["Authorization: KakaoAK any"])
        let documents = answer.object["documents"] as? [[String: Any]] ?? []
        let meta = answer.object["meta"] as? [String: Any] ?? [:]
        #expect(answer.status == 200 && meta["total_count"] is Int && meta["is_end"] is Bool && !documents.isEmpty)
        let poster = documents.first?["image_url"] as? String ?? ""
        #expect(poster == base + "/pictures/https/t1.daumcdn.net/movie/masquerade-0.jpg")
        #expect((documents.first?["thumbnail_url"] as? String)?.hasPrefix(base + "/pictures/https/") == true)
        #expect((documents.first?["doc_url"] as? String)?.hasPrefix("https://movie.daum.net/") == true)
        answer = try Self.fetch(poster)
        let recordedPoster = FileManager.default.contents(
            atPath: Self.goldens + "/boxoffice/http/GET-t1-daumcdn-net-movie-masquerade-0-jpg-e2ad797b.jpg")
        #expect(answer.status == 200 && answer.headers["content-type"] == "image/jpeg" && answer.body == recordedPoster)
        answer = try Self.fetch(base + "/v2/search/image?" + query)
        #expect(answer.status == 401 && answer.object["errorType"] as? String == "AccessDeniedError")
        answer = try Self.fetch(base + "/v2/search/image?query=x", ["Authorization: KakaoAK any"])
        #expect(answer.status == 404 && answer.object["errorType"] as? String == "NotFound")

        // The animal-protection API: the JSON envelope, under the root or the API's own path; its
        // gateway's errors in XML; the cached dog's picture from the cache.
        for prefix in ["", "/1543061/abandonmentPublicService_v2"] {
            answer = try Self.fetch(
                base + prefix + "/abandonmentPublic_v2?serviceKey=a%2Bb%3D%3D&_type=json&pageNo=2&numOfRows=10")
            let response = answer.object["response"] as? [String: Any] ?? [:]
            let header = response["header"] as? [String: Any] ?? [:]
            let body = response["body"] as? [String: Any] ?? [:]
            let items = (body["items"] as? [String: Any])?["item"] as? [[String: Any]] ?? []
            #expect(answer.status == 200 && header["resultCode"] as? String == "00" && items.count == 10)
            #expect(body["pageNo"] as? Int == 2 && body["totalCount"] as? Int == 23)
            #expect(
                items.allSatisfy {
                    ($0["popfile1"] as? String)?.hasPrefix(base + "/pictures/http/openapi.animal.go.kr/") == true
                })
        }
        answer = try Self.fetch(
            base
                + "/pictures/http/openapi.animal.go.kr/openapi/service/rest/fileDownloadSrvc/files/shelter/448548202400111_1.jpg"
        )
        #expect(answer.status == 200 && answer.headers["content-type"] == "image/jpeg" && answer.body.count > 0)
        answer = try Self.fetch(base + "/abandonmentPublic_v2?_type=json&pageNo=1&numOfRows=10")
        #expect(answer.status == 200 && answer.headers["content-type"] == "text/xml")
        #expect(answer.text.contains("<returnReasonCode>30</returnReasonCode>"))
        answer = try Self.fetch(base + "/abandonmentPublic_v2?serviceKey=k&_type=json&pageNo=7&numOfRows=10")
        let header = (answer.object["response"] as? [String: Any])?["header"] as? [String: Any] ?? [:]
        #expect(answer.status == 200 && header["resultCode"] as? String == "03")
        // What is not a route of theirs is the server's own 404; a picture URL that climbs is too.
        #expect(try Self.fetch(base + "/v3/search/image", ["Authorization: KakaoAK any"]).status == 404)
        #expect(try Self.fetch(base + "/pictures/https/t1.daumcdn.net/%2e%2e/etc/passwd").status == 404)
        #expect(server.stop() == 0)
    }

    @Test func failGivesEachAPIItsOwnFailure() throws {
        let server = try ServeProcess(
            store: ":memory:",
            serveArguments: [
                "--fail", "1", "--replay", Self.goldens + "/photos/http", "--replay", Self.goldens + "/boxoffice/http",
            ])
        defer { server.stop() }
        let base = server.baseURL
        var answer = try Self.fetch(base + "/photos?page=1&per_page=15&client_id=k")
        #expect(answer.status == 500 && answer.object["errors"] as? [String] == ["Internal server error"])
        answer = try Self.fetch(base + "/boxoffice/searchDailyBoxOfficeList.json?key=k&targetDt=20120101")
        #expect(answer.status == 200 && (answer.object["faultInfo"] as? [String: String])?["errorCode"] == "320010")
        answer = try Self.fetch(base + "/v2/search/image?query=x", ["Authorization: KakaoAK any"])
        #expect(answer.status == 401 && answer.object["errorType"] as? String == "AccessDeniedError")
        answer = try Self.fetch(base + "/abandonmentPublic_v2?serviceKey=k&_type=json")
        #expect(answer.status == 403 && answer.text.contains("<returnReasonCode>22</returnReasonCode>"))
        #expect(answer.text.contains("LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR"))
        answer = try Self.fetch(base + "/items/1")
        #expect(answer.status == 500 && answer.object["error"] as? Bool == true)
        #expect(server.stop() == 0)
    }

    /// Issue 42, item 3: a recorded world has a day. `Examples/http` names its own (`today`),
    /// so the box office app, asking for its real yesterday, is answered with the recorded
    /// world's yesterday (the day asked for by its date too), and `--today` names another.
    @Test func aClientsYesterdayIsTheRecordedWorldsYesterday() throws {
        let examples = Self.examples
        let korea = TimeZone(secondsFromGMT: 9 * 3600) ?? .gmt
        let formatter = DateFormatter()
        formatter.timeZone = korea
        formatter.dateFormat = "yyyyMMdd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let realYesterday = formatter.string(from: Date().addingTimeInterval(-86_400))
        let server = try ServeProcess(store: ":memory:", options: [], serveArguments: ["--replay", examples])
        defer { server.stop() }
        let daily = server.baseURL + "/boxoffice/searchDailyBoxOfficeList.json?key=k&targetDt="
        for asked in [realYesterday, "20120101"] {
            let answer = try Self.fetch(daily + asked)
            let result = answer.object["boxOfficeResult"] as? [String: Any]
            #expect(result?["showRange"] as? String == "20120101~20120101", "\(asked): \(answer.text)")
        }
        // The day before yesterday was not recorded: KOBIS's answer says so, not another day's.
        let before = formatter.string(from: Date().addingTimeInterval(-2 * 86_400))
        #expect(try Self.fetch(daily + before).object["faultInfo"] != nil)
        #expect(server.stop() == 0)
        // Another day named: the real yesterday is its yesterday, which nothing recorded.
        let other = try ServeProcess(
            store: ":memory:", options: [], serveArguments: ["--replay", examples, "--today", "2013-05-05"])
        defer { other.stop() }
        #expect(
            try Self.fetch(other.baseURL + "/boxoffice/searchDailyBoxOfficeList.json?key=k&targetDt=" + realYesterday)
                .object["faultInfo"] != nil)
        #expect(other.stop() == 0)
        // The prompt opens on the same day.
        let prompt = try ChildProcess.run(
            BuiltProducts.closet,
            ["--store", ":memory:", "--replay", examples, "--format", "json", "-c", "list boxoffice"])
        #expect(prompt.out.contains("미션임파서블"), "\(prompt.out) \(prompt.err)")
        let refused = try ChildProcess.run(BuiltProducts.closet, ["--today", "2012-13-01", "-c", ".show"])
        #expect(refused.status == 2 && refused.err.contains("'--today' takes a day written 2012-01-02"))
    }

    /// Issue 42, item 2: a request is answered by a recording that means the same (each API's
    /// defaults filled in, any order), a feed past its last page is Unsplash's `200 []` with
    /// its `X-Total`, and one still unmatched gets the API's own error and a line naming the
    /// nearest recording and what differed.
    @Test func requestsMatchByTheAPIsMeaningAndNearMissesAreNamed() throws {
        let folder = NSTemporaryDirectory() + "closet-meaning-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        func record(_ name: String, _ line: String, headers: String = "", body: String) throws {
            try Data("\(line)\n\nHTTP 200 OK\nContent-Type: application/json\n\(headers)".utf8).write(
                to: URL(fileURLWithPath: folder + "/\(name).http"))
            try Data(body.utf8).write(to: URL(fileURLWithPath: folder + "/\(name).json"))
        }
        try record("kakao", "GET {kakao}/v2/search/image?query=cat&sort=accuracy", body: #"{"documents":[],"meta":{}}"#)
        try record(
            "feed", "GET {unsplash}/photos?page=1&per_page=15", headers: "X-Total: 20\n", body: "[]")
        let server = try ServeProcess(store: ":memory:", serveArguments: ["--replay", folder])
        defer { server.stop() }
        let base = server.baseURL
        let kakao = ["Authorization: KakaoAK any"]
        // Kakao's defaults: sort, page and size left out or given as their defaults, in any order.
        for query in ["query=cat", "size=80&query=cat&page=1", "query=cat&sort=accuracy&size=80"] {
            #expect(try Self.fetch(base + "/v2/search/image?" + query, kakao).status == 200, "\(query)")
        }
        // Not the default: another answer, which nothing recorded.
        let missed = try Self.fetch(base + "/v2/search/image?query=cat&sort=recency", kakao)
        #expect(missed.status == 404 && missed.object["errorType"] as? String == "NotFound")
        // The feed: page 2 of 15 is not recorded and holds photos 16 to 20 (a 404); page 3 is
        // past the end of 20.
        #expect(try Self.fetch(base + "/photos?per_page=15&page=2&client_id=k").status == 404)
        let end = try Self.fetch(base + "/photos?page=3&per_page=15&client_id=k")
        #expect(end.status == 200 && end.text == "[]" && end.headers["x-total"] == "20", "\(end.text)")
        #expect(try Self.fetch(base + "/photos?page=1&client_id=k").status == 404)  // ten a page: not recorded
        // A page number a client may send, any size: an answer, never a stopped server.
        let huge = "9223372036854775807"
        let far = try Self.fetch(base + "/photos?page=\(huge)&per_page=15&client_id=k")
        #expect(far.status == 200 && far.text == "[]", "\(far.text)")
        #expect(server.stop() == 0)
        let said = server.text
        #expect(
            said.contains(
                "nearest recording: GET {kakao}/v2/search/image?query=cat&sort=accuracy (asked sort=recency; recorded sort=accuracy)"
            ), "\(said)")
        #expect(
            said.contains(
                "nearest recording: GET {unsplash}/photos?page=1&per_page=15 (asked page=2; recorded page=1)"),
            "\(said)")
    }

    /// Issue 42, item 1: `closet serve --through <api>=<url> --record <folder>` is a recording
    /// proxy. What no recording answers goes to the live API (here a loopback server) and is
    /// recorded with its secrets left out; the same request is then answered from the
    /// recording, and the folder replays it with the live API gone.
    @Test func throughRecordsWhatTheAppAsksAndReplaysItOffline() throws {
        let picture = try Data(
            contentsOf: URL(fileURLWithPath: Self.goldens).deletingLastPathComponent()
                .appendingPathComponent("Fixtures/pictures/png-c2-d8-17x9.png"))
        let live = try LoopbackServer { request in
            if request.path.hasPrefix("/img/") {
                return .respond(status: 200, headers: ["Content-Type": "image/png"], body: picture)
            }
            let echoed = request.header("Authorization") ?? "none"
            let host = request.header("Host") ?? "127.0.0.1:1"
            let body = #"[{"id":"abc","urls":{"small":"http://\#(host)/img/abc.png"},"seen":"\#(echoed)"}]"#
            return .respond(
                status: 200, headers: ["Content-Type": "application/json", "X-Total": "1"], body: Data(body.utf8))
        }
        defer { live.stop() }
        let folder = NSTemporaryDirectory() + "closet-through-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let helper = ["CLOSET_HTTP_HELPER": BuiltProducts.helper]
        let proxy = try ServeProcess(
            store: ":memory:",
            serveArguments: ["--through", "unsplash=" + live.baseURL, "--record", folder, "photos"], environment: helper
        )
        defer { proxy.stop() }
        let secret = ["Authorization: Client-ID secret-4242"]
        let first = try Self.fetch(proxy.baseURL + "/photos?page=1&per_page=5", secret)
        #expect(first.status == 200 && first.headers["x-total"] == "1", "\(first.text)")
        // The secret the live API echoed is not in the answer as recorded.
        #expect(!first.text.contains("secret-4242") && first.text.contains("abc"))
        let second = try Self.fetch(proxy.baseURL + "/photos?page=1&per_page=5", secret)
        #expect(second.body == first.body)
        #expect(live.requests.filter { $0.path == "/photos" }.count == 1)
        // The picture the answer names comes through the proxy too, and is recorded.
        let small = ((first.json as? [[String: Any]])?.first?["urls"] as? [String: String])?["small"] ?? ""
        let fetched = try Self.fetch(small)
        #expect(fetched.status == 200 && fetched.body == picture && fetched.headers["etag"] != nil, "\(small)")
        #expect(proxy.stop() == 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: folder)
        #expect(files.contains { $0.hasPrefix("GET-unsplash-photos-") && $0.hasSuffix(".http") }, "\(files)")
        for name in files {
            let text = String(
                decoding: FileManager.default.contents(atPath: folder + "/" + name) ?? Data(), as: UTF8.self)
            #expect(!text.contains("secret-4242"), "\(name)")
        }
        // Offline: the live API gone, the folder answers the same request the same way.
        live.stop()
        let offline = try ServeProcess(store: ":memory:", serveArguments: ["--replay", folder, "photos"])
        defer { offline.stop() }
        let replayed = try Self.fetch(offline.baseURL + "/photos?per_page=5&page=1", ["Authorization: Client-ID other"])
        #expect(
            replayed.status == 200
                && replayed.text.replacingOccurrences(of: offline.baseURL, with: "")
                    == first.text.replacingOccurrences(of: proxy.baseURL, with: ""),
            "\(replayed.text)")
        let again = small.replacingOccurrences(of: proxy.baseURL, with: offline.baseURL)
        #expect(try Self.fetch(again).body == picture)
        #expect(offline.stop() == 0)
        // Usage: an API that is not replayed, and --record without --through.
        let bad = try ChildProcess.run(BuiltProducts.closet, ["serve", "--through", "market=http://x"])
        #expect(bad.status == 2 && bad.err.contains("'--through' names no API answered from recordings"), "\(bad.err)")
        let alone = try ChildProcess.run(BuiltProducts.closet, ["serve", "--record", folder])
        #expect(alone.status == 2 && alone.err.contains("'--record' keeps what '--through' fetches"))
    }

    /// `--through` fetches side by side: an app asks for a page of pictures at once, and a
    /// live API that takes a second for each must not make the fourth wait four. The live
    /// server notes when each request came; with one transport lent at a time they would come
    /// a second apart.
    @Test func throughSendsAnAppsPicturesSideBySide() throws {
        final class Arrivals: @unchecked Sendable {
            let lock = NSLock()
            var times: [Date] = []
        }
        let arrivals = Arrivals()
        let picture = SampleScenes.jpeg("side by side", width: 40, height: 30)
        let live = try LoopbackServer { request in
            arrivals.lock.withLock { arrivals.times.append(Date()) }
            if request.path.hasPrefix("/img/") {
                return .delay(1.0, .respond(status: 200, headers: ["Content-Type": "image/jpeg"], body: Data(picture)))
            }
            let host = request.header("Host") ?? "127.0.0.1:1"
            let photos = (0..<4).map { #"{"id":"p\#($0)","urls":{"small":"http://\#(host)/img/p\#($0).jpg"}}"# }
            return .respond(
                status: 200, headers: ["Content-Type": "application/json", "X-Total": "4"],
                body: Data(("[" + photos.joined(separator: ",") + "]").utf8))
        }
        defer { live.stop() }
        // A store on disk: reads are answered by `--workers` threads (one in memory).
        let store = NSTemporaryDirectory() + "closet-side-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let proxy = try ServeProcess(
            store: store, serveArguments: ["--workers", "4", "--through", "unsplash=" + live.baseURL, "photos"],
            environment: ["CLOSET_HTTP_HELPER": BuiltProducts.helper])
        defer { proxy.stop() }
        let feed = try Self.fetch(proxy.baseURL + "/photos?page=1&per_page=4", ["Authorization: Client-ID k"])
        let urls = (feed.json as? [[String: Any]] ?? []).compactMap { ($0["urls"] as? [String: String])?["small"] }
        #expect(urls.count == 4, "\(feed.text)")
        arrivals.lock.withLock { arrivals.times = [] }
        let statuses = Mutex<[Int]>([])
        DispatchQueue.concurrentPerform(iterations: urls.count) { index in
            let status = (try? Self.fetch(urls[index]).status) ?? 0
            statuses.withLock { $0.append(status) }
        }
        #expect(statuses.withLock { $0 } == [200, 200, 200, 200])
        let times = arrivals.lock.withLock { arrivals.times.sorted() }
        #expect(times.count == 4)
        // At least two of them reached the live API well within the second one lent at a time
        // would put between them (0.9 s: a loaded CI machine started two side by side 0.5 s apart).
        let closest = zip(times, times.dropFirst()).map { $1.timeIntervalSince($0) }.min() ?? 9
        #expect(closest < 0.9, "\(times)")
        #expect(proxy.stop() == 0)
    }

    /// Issue 42's flow for Picterest against the shipped world: `closet serve --replay
    /// Examples/http` pages the feed from the first page to its end (`200 []` past the last,
    /// by the feed's `X-Total`), and every photo's `small` picture, at the server's URL, is a
    /// real picture that decodes, with an `ETag` that revalidates to a 304; its other sizes are
    /// the recorded one scaled.
    @Test func picterestPagesTheShippedFeedToItsEndWithEveryPicture() throws {
        let examples = Self.examples
        let server = try ServeProcess(store: ":memory:", options: [], serveArguments: ["--replay", examples, "photos"])
        defer { server.stop() }
        let key = ["Authorization: Client-ID any"]
        var photos = 0
        var page = 1
        while page < 10 {
            let answer = try Self.fetch(server.baseURL + "/photos?page=\(page)&per_page=15", key)
            #expect(answer.status == 200 && answer.headers["x-total"] == "40", "page \(page): \(answer.text)")
            let items = answer.json as? [[String: Any]] ?? []
            if items.isEmpty { break }
            for item in items {
                let small = (item["urls"] as? [String: String])?["small"] ?? ""
                #expect(small.hasPrefix(server.baseURL + "/pictures/"), "\(small)")
                let picture = try Self.fetch(small)
                #expect(picture.status == 200 && PictureBytes.decodes([UInt8](picture.body)), "\(small)")
                let tag = picture.headers["etag"] ?? ""
                let again = try Self.fetch(small, ["If-None-Match: \(tag)"])
                #expect(!tag.isEmpty && again.status == 304)
                photos += 1
                // The photo's other sizes (imgix URLs that differ in `w=`) are the recorded
                // `small` scaled down, or as it is where it is smaller than asked.
                guard page == 1 else { continue }
                for (size, width) in [("thumb", 200), ("regular", 400), ("full", 400), ("raw", 400)] {
                    let url = (item["urls"] as? [String: String])?[size] ?? ""
                    let sized = try Self.fetch(url)
                    let header = try? ImageHeader.inspect([UInt8](sized.body))
                    #expect(sized.status == 200 && header?.width == width, "\(url): \(sized.status)")
                    #expect(PictureBytes.decodes([UInt8](sized.body)), "\(url)")
                    let tag = sized.headers["etag"] ?? ""
                    let revalidated = try Self.fetch(url, ["If-None-Match: \(tag)"])
                    #expect(!tag.isEmpty && revalidated.status == 304, "\(url)")
                }
            }
            page += 1
        }
        #expect(photos == 40 && page == 4)
        #expect(server.stop() == 0)
    }

    /// Issue 42's flow for the box office app against the shipped world: the app opens on its
    /// yesterday (the recorded world's, by `Examples/http/today`), and each of the ten movies
    /// has its details and posters (the app's search, `<title> 포스터`: every result's picture and
    /// thumbnail), every one a picture that decodes.
    @Test func theBoxOfficeOpensOnYesterdayWithEveryMoviesDetailsAndPoster() throws {
        let examples = Self.examples
        let server = try ServeProcess(
            store: ":memory:", options: [], serveArguments: ["--replay", examples, "boxoffice"])
        defer { server.stop() }
        let formatter = DateFormatter()
        formatter.timeZone = TimeZone(secondsFromGMT: 9 * 3600)
        formatter.dateFormat = "yyyyMMdd"
        formatter.locale = Locale(identifier: "en_US_POSIX")
        let yesterday = formatter.string(from: Date().addingTimeInterval(-86_400))
        let ranking = try Self.fetch(
            server.baseURL + "/kobisopenapi/webservice/rest/boxoffice/searchDailyBoxOfficeList.json?key=k&targetDt="
                + yesterday)
        let list = (ranking.object["boxOfficeResult"] as? [String: Any])?["dailyBoxOfficeList"] as? [[String: String]]
        #expect(list?.count == 10, "\(ranking.text)")
        for movie in list ?? [] {
            let code = movie["movieCd"] ?? ""
            let info = try Self.fetch(server.baseURL + "/movie/searchMovieInfo.json?key=k&movieCd=" + code)
            let details = (info.object["movieInfoResult"] as? [String: Any])?["movieInfo"] as? [String: Any]
            #expect(details?["movieNm"] as? String == movie["movieNm"], "\(code): \(info.text)")
            let query = (movie["movieNm"] ?? "") + " 포스터"
            let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
            let search = try Self.fetch(
                server.baseURL + "/v2/search/image?query=" + encoded, ["Authorization: KakaoAK any"])
            // Every result's picture and thumbnail (the app shows the first; a picker all).
            let documents = search.object["documents"] as? [[String: Any]] ?? []
            #expect(documents.count == 3, "\(query): \(search.text)")
            for document in documents {
                for key in ["image_url", "thumbnail_url"] {
                    let url = document[key] as? String ?? ""
                    let poster = try Self.fetch(url)
                    #expect(poster.status == 200 && PictureBytes.decodes([UInt8](poster.body)), "\(query): \(url)")
                }
            }
        }
        #expect(server.stop() == 0)
    }

    /// Issue 42's flow for 사랑할개 against the shipped world: the dogs' pages, and both of
    /// every dog's pictures through the server, pictures that decode.
    @Test func theDogsPageThroughTheShippedWorldWithEveryPicture() throws {
        let examples = Self.examples
        let server = try ServeProcess(
            store: ":memory:", options: [], serveArguments: ["--replay", examples, "adoption"])
        defer { server.stop() }
        var dogs = 0
        for page in 1...3 {
            let answer = try Self.fetch(
                server.baseURL + "/abandonmentPublic_v2?serviceKey=k&_type=json&pageNo=\(page)&numOfRows=10")
            let (body, items) = Self.animalPage(answer)
            #expect(body?["totalCount"] as? Int == 23, "page \(page): \(answer.text)")
            for dog in items {
                for key in ["popfile1", "popfile2"] {
                    let url = dog[key] as? String ?? ""
                    let picture = try Self.fetch(url)
                    #expect(picture.status == 200 && PictureBytes.decodes([UInt8](picture.body)), "\(key): \(url)")
                }
                dogs += 1
            }
        }
        #expect(dogs == 23)
        // The app's own page size: pages of 20 cut from the recorded pages of 10.
        var cut: [String] = []
        for page in 1...2 {
            let answer = try Self.fetch(
                server.baseURL + "/abandonmentPublic_v2?_type=json&numOfRows=20&pageNo=\(page)&serviceKey=k")
            let (body, items) = Self.animalPage(answer)
            #expect(body?["totalCount"] as? Int == 23 && body?["numOfRows"] as? Int == 20, "\(answer.text)")
            cut += items.compactMap { $0["desertionNo"] as? String }
            #expect(items.allSatisfy { ($0["popfile1"] as? String)?.hasPrefix(server.baseURL) == true })
        }
        #expect(cut.count == 23 && Set(cut).count == 23, "\(cut)")
        // The gateway reads parameter names, and `_type`'s value, in any case.
        for query in ["ServiceKey=k&_type=JSON&NUMOFROWS=10&pageno=3", "SERVICEKEY=k&_TYPE=json&PageNo=3"] {
            let answer = try Self.fetch(server.baseURL + "/abandonmentPublic_v2?" + query)
            let (body, items) = Self.animalPage(answer)
            #expect(body?["totalCount"] as? Int == 23 && items.count == 3, "\(query): \(answer.text)")
        }
        // Any page number a client sends: the API's own "no data", never a stopped server.
        let far = try Self.fetch(
            server.baseURL + "/abandonmentPublic_v2?_type=json&numOfRows=20&pageNo=9223372036854775807&serviceKey=k")
        let header = (far.object["response"] as? [String: Any])?["header"] as? [String: Any]
        #expect(far.status == 200 && header?["resultCode"] as? String == "03", "\(far.text)")
        #expect(server.stop() == 0)
    }

    /// Issue 42, item 6: `--placeholders` draws a picture no recording holds from what the
    /// feed's answer said of it (its size and colour; its BlurHash where it is one): a JPEG
    /// 400 wide in the photo's proportions, instead of a 404.
    @Test func placeholdersFillTheFeedsUnrecordedPictures() throws {
        let feed = Self.goldens + "/photos/http"
        let without = try ServeProcess(store: ":memory:", serveArguments: ["--replay", feed, "photos"])
        defer { without.stop() }
        let with = try ServeProcess(store: ":memory:", serveArguments: ["--replay", feed, "--placeholders", "photos"])
        defer { with.stop() }
        let page = try Self.fetch(with.baseURL + "/photos?page=1&per_page=15", ["Authorization: Client-ID k"])
        let photos = page.json as? [[String: Any]] ?? []
        let photo = try #require(photos.first { $0["id"] as? String == "ph10nboxlse" })
        let small = try #require((photo["urls"] as? [String: String])?["small"])
        #expect(try Self.fetch(small.replacingOccurrences(of: with.baseURL, with: without.baseURL)).status == 404)
        let drawn = try Self.fetch(small)
        #expect(drawn.status == 200 && drawn.headers["content-type"] == "image/jpeg" && drawn.headers["etag"] != nil)
        let info = try PictureBytes.inspect([UInt8](drawn.body))
        let (width, height) = (photo["width"] as? Int ?? 0, photo["height"] as? Int ?? 1)
        #expect(info.width == 400 && info.height == 400 * height / width, "\(info)")
        // Its colour is the answer's (#40261a: the fixture's BlurHash is not a well-formed one).
        let pixels = try PictureDecoder.decode([UInt8](drawn.body)).pixels
        #expect(abs(Int(pixels[0]) - 0x40) < 6 && abs(Int(pixels[1]) - 0x26) < 6 && abs(Int(pixels[2]) - 0x1A) < 6)
        #expect(with.stop() == 0 && without.stop() == 0)
    }
}
