import ClosetLanguage
import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import AdoptionPack

/// Shelter dogs against a loopback server that speaks the v2 API, through the helper.
@Suite struct DogsEndToEndTests {
    func harness(_ server: LoopbackServer, _ format: OutputFormat = .json, key: String? = AnimalFixture.serviceKey)
        -> Harness
    {
        var environment = AnimalFixture.environment(server)
        environment["ANIMAL_API_KEY"] = key
        return Harness(format: format, network: .live, environment: environment)
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func dogsListPageAndShow() throws {
        let server = try AnimalFixture.server()
        defer { server.stop() }
        let h = harness(server)
        let first = try #require(try json(h.output("list dogs")) as? [[String: Any]])
        #expect(first.count == 10 && first[0]["desertionNo"] as? String == "448548202400100")
        #expect((first[0]["labels"] as? [String: String])?["sex"] == "수컷")
        let request = try #require(server.requests.first)
        // The key arrives exactly as issued: strict encoding kept `+`, `/` and `=`.
        #expect(request.query["serviceKey"] == AnimalFixture.serviceKey)
        #expect(request.target.contains("serviceKey=fixture%2FKey%2Bwith%3D%3D"))
        #expect(request.query["_type"] == "json" && request.query["numOfRows"] == "10")
        #expect((try json(h.output("next")) as? [[String: Any]])?.count == 10)
        #expect((try json(h.output("next")) as? [[String: Any]])?.count == 3)
        #expect(h.error("next").hasPrefix("error: no more dogs"))
        let shown = try #require(try json(h.output("show dog @22")) as? [String: Any])
        #expect(shown["desertionNo"] as? String == "448548202400121")
        #expect((shown["picture"] as? [String: Any])?["source"] as? String == "network")
        // A picture that is a web page is one line in its place, never the statement's error (issue 42).
        let webPage = try #require(try json(h.output("show dog @23")) as? [String: Any])
        #expect(webPage["desertionNo"] as? String == "448548202400122" && !(webPage["picture"] is [String: Any]))
        let filtered = try #require(
            try json(h.output("list dogs region=서울 kind=dog state=protect from=2024-05-01 to=2024-05-31"))
                as? [[String: Any]])
        #expect(filtered.allSatisfy { ($0["orgNm"] as? String) == "서울특별시" && ($0["upKindCd"] as? String) == "417000" })
        let last = try #require(server.requests.last)
        #expect(
            last.query["upr_cd"] == "6110000" && last.query["upkind"] == "417000" && last.query["state"] == "protect")
        #expect(last.query["bgnde"] == "20240501" && last.query["endde"] == "20240531")
    }

    @Test func quirksAndErrorsAreOneLine() throws {
        let server = try AnimalFixture.server()
        defer { server.stop() }
        let h = harness(server)
        // `"items":""` for no result, and one result as an object rather than a list.
        #expect((try json(h.output("list dogs region=제주")) as? [Any])?.isEmpty == true)
        #expect((try json(h.output("list dogs from=2024-05-23 to=2024-05-23")) as? [Any])?.count == 1)
        #expect(
            h.error("list dogs from=2000-01-01").hasPrefix(
                "error: the animal-protection API answered with an error: too many requests for this service key today (LIMITED_NUMBER_OF_SERVICE_REQUESTS_EXCEEDS_ERROR, 22)"
            ))
        #expect(
            h.error("list dogs from=2001-01-01").hasPrefix(
                "error: the animal-protection API answered with an error: INVALID_REQUEST_PARAMETER_ERROR (10)"))
        #expect(
            harness(server, key: "wrong").error("list dogs").hasPrefix(
                "error: the animal-protection API answered with an error: the service key is not registered (SERVICE_KEY_IS_NOT_REGISTERED_ERROR, 30); check ANIMAL_API_KEY"
            ))
        #expect(harness(server, key: nil).error("list dogs").hasPrefix("error: ANIMAL_API_KEY is not set"))
        #expect(h.error("show dog 999").hasPrefix("error: the animal-protection API has no animal '999'"))
        #expect(h.error("show dog abc").hasPrefix("error: 'abc' is not a desertion number"))
        #expect(h.error("list dogs from=2024-06-01 to=2024-05-01").hasPrefix("error: 'from' must not be after 'to'"))
    }

    @Test func labels() {
        let dog = ShelterDog(fields: ["sexCd": "F", "neuterYn": "Y", "noticeSdt": "20240501", "noticeEdt": "20240511"])
        #expect(dog.sexLabel == "암컷" && dog.neuteredLabel == "중성화 O" && dog.noticePeriod == "2024-05-01 ~ 2024-05-11")
        #expect(ShelterDog(fields: ["sexCd": "Q", "neuterYn": "U"]).sexLabel == "미상")
        #expect(Region.named("경기") == .gyeonggi && Region.gyeonggi.uprCode == "6410000")
        #expect(AnimalKind.cat.upkind == "422400" && AnimalKind.named("기타") == .other)
    }
}
