import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import ClosetServing

/// Issue 41 (item 3): a served route is one declaration, and one router checks every
/// parameter before a route runs and answers what no route takes, in the API's error shape.
@Suite struct ServedRouteTests {
    static let api = ServedAPI(
        name: "shelf",
        routes: [
            ServedRoute(["GET"], [.word("jars"), .number("page", least: 1)]) { match, _, _ in
                HTTPResponse.text("page \(match.number("page"))", status: 200)
            },
            ServedRoute(["DELETE"], [.word("jar"), .number("id", least: 1)]) { match, _, _ in
                HTTPResponse.text("gone \(match.number("id"))", status: 200)
            },
            ServedRoute(["GET"], [.word("labels"), .text("name")]) { match, _, _ in
                HTTPResponse.text("label \(match.text("name"))", status: 200)
            },
        ],
        error: { status, reason in HTTPResponse.text("{\"reason\":\"\(reason)\"}", status: status) })

    func answer(_ method: String, _ path: String) throws -> (Int, String)? {
        let harness = Harness()
        let context = ServedContext(session: harness.session, baseURL: "http://x")
        guard let response = try Self.api.answer(ServedRequest(method: method, path: path), context) else { return nil }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    @Test func aRouteAnswersWithItsCheckedParameters() throws {
        #expect(try answer("GET", "/jars/3")?.1 == "page 3")
        #expect(try answer("HEAD", "/jars/3")?.0 == 200)  // GET answers HEAD
        #expect(try answer("DELETE", "/jar/12")?.1 == "gone 12")
        #expect(try answer("GET", "/labels/jam%20jar")?.1 == "label jam jar")
    }

    @Test func whatNoRouteTakesIsTheAPIsOwnRefusal() throws {
        #expect(try answer("GET", "/jars/0")?.0 == 400)
        #expect(
            try answer("GET", "/jars/-1")?.1
                == "{\"reason\":\"the page must be a whole number from 1 to 9007199254740991\"}")
        #expect(try answer("GET", "/jars/99999999999999999999")?.0 == 400)
        #expect(try answer("POST", "/jars/1")?.0 == 405)
        #expect(try answer("GET", "/jars")?.0 == 405)
        #expect(try answer("GET", "/jars/1/more")?.0 == 405)
        // Another API's path is not claimed; one of its own that escapes is its 404, in its shape.
        #expect(try answer("GET", "/photos/1") == nil)
        #expect(try answer("GET", "/labels/..")?.0 == 404)
        #expect(Self.api.claims("GET", "/jar/1") && !Self.api.claims("GET", "/other"))
        #expect(Self.api.summary == "GET /jars/{page}, DELETE /jar/{id}, GET /labels/{name}")
    }
}
