import ClosetLanguage
import Foundation
import TestSupport
import Testing

@testable import AdoptionPack

/// The search's filters by 시군구, shelter and breed (issue 43): names looked up in the API's
/// own lists, each list fetched once a session, and Tab offering the names seen, never
/// asking the network for them.
@Suite struct DogFilterTests {
    func harness(_ server: LoopbackServer) -> Harness {
        Harness(format: .json, network: .live, environment: AnimalFixture.environment(server))
    }

    func json(_ text: String) throws -> [[String: Any]] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
    }

    func offered(_ h: Harness, _ line: String) -> [String] {
        Completer(session: h.session) { _ in [] }.complete(line: line, cursor: line.utf8.count).candidates.map(\.text)
    }

    @Test func namesAreLookedUpOnceAndSentAsTheAPIsCodes() throws {
        let server = try AnimalFixture.server()
        defer { server.stop() }
        let h = harness(server)
        let dogs = try json(h.output("list dogs region=서울 district=강남구 breed=진도견"))
        #expect(dogs.map { $0["desertionNo"] as? String } == ["448548202400106"])
        let paths = server.requests.map { String($0.target.prefix { $0 != "?" }) }
        #expect(paths == ["/sigungu_v2", "/kind_v2", "/abandonmentPublic_v2"])
        let search = try #require(server.requests.last)
        #expect(search.query["org_cd"] == "3220000" && search.query["kind"] == "000054")
        #expect(search.query["upr_cd"] == "6110000" && search.query["upkind"] == nil)
        // Again, and by the other 시군구 of the same list: only the search is sent.
        _ = h.output("list dogs region=서울 district=송파구 breed=진도견")
        #expect(server.requests.count == 4 && server.requests.last?.query["org_cd"] == "3230000")
        // A shelter by name (its 시군구's list), by number (no list at all).
        _ = h.output("list dogs region=경기 district=수원시 shelter=\"경기 동물보호센터\"")
        #expect(server.requests.last?.query["care_reg_no"] == "31100002024002")
        let before = server.requests.count
        let byNumber = try json(h.output("list dogs shelter=31100002024002"))
        #expect(server.requests.count == before + 1 && byNumber.count == 4)
        #expect(byNumber.allSatisfy { $0["careRegNo"] as? String == "31100002024002" })
    }

    @Test func refusalsSayWhatTheListHasAndSendNoSearch() throws {
        let server = try AnimalFixture.server()
        defer { server.stop() }
        let h = harness(server)
        #expect(
            h.error("list dogs region=서울 district=마포구").hasPrefix(
                "error: no 시군구 named '마포구' in 서울특별시 (the API lists 2: 강남구, 송파구)"))
        #expect(h.error("list dogs district=강남구").hasPrefix("error: 'district' by name needs region="))
        #expect(h.error("list dogs breed=코리안숏헤어").hasPrefix("error: no breed named '코리안숏헤어' in the dog breeds"))
        #expect(!server.requests.contains { $0.target.hasPrefix("/abandonmentPublic_v2") })
    }

    @Test func tabOffersTheNamesSeenAndNeverFetches() throws {
        let server = try AnimalFixture.server()
        defer { server.stop() }
        let h = harness(server)
        #expect(offered(h, "list dogs region=서울 district=").isEmpty && server.requests.isEmpty)
        _ = h.output("list districts region=서울")
        _ = h.output("list shelters region=경기 district=수원시")
        let count = server.requests.count
        // Every 시군구 seen (경기's came with its shelters' lookup), in Unicode order.
        #expect(
            offered(h, "list dogs region=서울 district=") == [
                "district=강남구", "district=고양시", "district=송파구", "district=수원시",
            ])
        #expect(offered(h, "list dogs 시군구=송") == ["시군구=송파구"])
        // A name with a blank completes quoted, typed quote or not.
        #expect(offered(h, "list dogs shelter=경") == ["shelter=\"경기 동물보호센터\""])
        #expect(offered(h, "list dogs shelter=\"경기") == ["shelter=\"경기 동물보호센터\""])
        #expect(server.requests.count == count)
    }
}
