import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import BoxOfficePack

/// The box office pack against a loopback server that speaks KOBIS and the Kakao image
/// search (`CLOSET_KOBIS_URL`, `CLOSET_KAKAO_URL`), live through the network helper.
@Suite struct BoxOfficeEndToEndTests {
    func harness(_ server: LoopbackServer, _ format: OutputFormat = .json, without: [String] = []) -> Harness {
        var environment = BoxOfficeFixture.environment(server)
        for variable in without { environment[variable] = nil }
        let h = Harness(format: format, network: .live, environment: environment)
        h.run(".clock set 2012-01-02")
        return h
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func everyCommandWorksEndToEnd() throws {
        let server = try BoxOfficeFixture.server()
        defer { server.stop() }
        let h = harness(server)
        let ranking = try #require(try json(h.output("list boxoffice")) as? [[String: Any]])
        #expect(ranking.count == 10)
        #expect(ranking[0]["title"] as? String == "미션임파서블:고스트프로토콜")
        #expect(ranking[0]["audience"] as? String == "오늘 353,274 / 총 5,328,435")
        #expect(ranking[0]["audienceToday"] as? Int == 353_274 && ranking[5]["isNew"] as? Bool == true)
        let daily = try #require(server.requests.first)
        #expect(daily.path == "/kobis/boxoffice/searchDailyBoxOfficeList.json")
        #expect(daily.query == ["key": BoxOfficeFixture.kobisKey, "targetDt": "20120101"])

        let movie = try #require(try json(h.output("show movie 20124079")) as? [String: Any])
        #expect(movie["openDate"] as? String == "2012-09-13" && movie["runningTime"] as? String == "131분")
        #expect(movie["watchGrade"] as? String == "15세이상관람가" && movie["genres"] as? [String] == ["사극", "드라마"])
        #expect((try json(h.output("show movie @1")) as? [String: Any])?["code"] as? String == "20112207")

        let posters = try #require(try json(h.output("search posters 20124079")) as? [[String: Any]])
        #expect(posters.count == 3)  // the invalid image_url is left out
        let search = try #require(server.requests.last)
        #expect(search.query["query"] == "광해, 왕이 된 남자 포스터")
        #expect(search.header("Authorization") == "KakaoAK \(BoxOfficeFixture.kakaoKey)")

        let first = try #require(try json(h.output("show poster 20124079")) as? [String: Any])
        #expect(first["source"] as? String == "network" && first["format"] as? String == "jpeg")
        #expect((try json(h.output("show poster 20124079")) as? [String: Any])?["source"] as? String == "memory")
        h.run(".clock advance 10m")
        #expect((try json(h.output("show poster 20124079")) as? [String: Any])?["source"] as? String == "disk")
        let stats = try #require(try json(h.output("cache stats posters")) as? [String: [String: Any]])
        #expect(stats["memory"]?["expired"] as? Int == 1 && stats["disk"]?["hits"] as? Int == 1)
        // A count-limited cache has no byte limit: null, in the one shape every cache's figures take.
        #expect(stats["memory"]?["byteLimit"] is NSNull && stats["memory"]?["countLimit"] as? Int == 30)
        _ = h.output("cache clear posters")
        #expect((try json(h.output("show poster 20124079")) as? [String: Any])?["source"] as? String == "network")
    }

    @Test func missingKeysNameTheirVariables() throws {
        let server = try BoxOfficeFixture.server()
        defer { server.stop() }
        #expect(
            harness(server, without: ["KOBIS_API_KEY"]).error("list boxoffice").hasPrefix(
                "error: KOBIS_API_KEY is not set: the KOBIS API needs it (export KOBIS_API_KEY=...)"))
        let noKakao = harness(server, without: ["KAKAO_REST_API_KEY"])
        _ = noKakao.output("list boxoffice")
        #expect(
            noKakao.error("show poster @1").hasPrefix(
                "error: KAKAO_REST_API_KEY is not set: the Kakao image search needs it (export KAKAO_REST_API_KEY=...)")
        )
    }

    @Test func aWrongKeyIsKOBISsFaultAndKakaos401() throws {
        let server = try BoxOfficeFixture.server()
        defer { server.stop() }
        var environment = BoxOfficeFixture.environment(server)
        environment["KOBIS_API_KEY"] = "wrong"
        let h = Harness(format: .json, network: .live, environment: environment)
        h.run(".clock set 2012-01-02")
        #expect(
            h.error("list boxoffice").hasPrefix("error: the KOBIS API answered with an error: 유효하지않은 키값입니다. (320010)"))
        #expect(!h.error("list boxoffice").contains("wrong"))  // the key never shows
    }

    @Test func theDiskTierOutlivesTheSessionOfADurableStore() throws {
        let server = try BoxOfficeFixture.server()
        defer { server.stop() }
        let root = NSTemporaryDirectory() + "closet-cache-root-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = MemoryWardrobe()
        for expected in ["network", "disk"] {
            // A fresh session with a cache root, as a durable store has.
            let state = try BoxOfficeState(
                PackServices(
                    store: store, clock: SteppingClock(start: Date(timeIntervalSince1970: 1_325_462_400)),
                    ids: SeededIDGenerator(seed: 0),
                    network: Network(
                        transport: HelperTransport(timeoutSeconds: 5, userAgent: "t", helperPath: HelperPath.path),
                        environment: BoxOfficeFixture.environment(server)),
                    cacheRoot: root))
            let url = try state.searcher.searchSingle(for: "광해, 왕이 된 남자 포스터")
            #expect(try state.provider().fetchImage(from: url).source.rawValue == expected)
        }
        #expect(FileManager.default.fileExists(atPath: root + "/posters"))
    }
}
