import ClosetHTTP
import ClosetNetwork
import Foundation
import TestSupport
import Testing

/// The seed apps' network tests (reference §2.6 `NetworkSessionTest`, §3.5
/// `NetworkManagerTest`), ported from mocked URLProtocols onto a loopback server and the
/// one transport port. (`NetworkManagerTest`'s non-Multipartable item cannot be written:
/// `HTTPBody` admits only JSON and multipart bodies.)
@Suite struct SeedAppNetworkTests {
    let network = Network(transport: URLSessionTransport(timeoutSeconds: 2), environment: [:])

    func serve(_ status: Int, _ body: String = #"{"ok":true}"#) throws -> LoopbackServer {
        try LoopbackServer { _ in .json(body, status: status) }
    }

    // MARK: NetworkSessionTest

    @Test func dataTaskSuccess() throws {
        let server = try serve(200, #"{"boxOfficeResult":{}}"#)
        defer { server.stop() }
        let response = try network.successful(HTTPRequest(.get, api: "kobis", base: server.baseURL, path: "/boxoffice"))
        #expect(response.body == Data(#"{"boxOfficeResult":{}}"#.utf8))
    }

    @Test func dataTaskFailureResponseNotFound() throws {
        let server = try LoopbackServer { _ in .hangUp }
        defer { server.stop() }
        #expect(throws: NetworkError.self) {
            try network.successful(HTTPRequest(.get, api: "kobis", base: server.baseURL, path: "/x"))
        }
    }

    @Test func dataTaskFailureInvalidHTTPStatusCode() throws {
        let server = try serve(404)
        defer { server.stop() }
        let request = HTTPRequest(.get, api: "kobis", base: server.baseURL, path: "/x")
        #expect(
            throws: NetworkError.status(
                404, statusLine: "404 Not Found", method: "GET", url: server.baseURL + "/x", detail: nil)
        ) {
            try network.successful(request)
        }
    }

    @Test func urlDataTask() throws {
        let server = try serve(200, "image")
        defer { server.stop() }
        #expect(try network.successful(.get(url: server.baseURL + "/poster.jpg")).body == Data("image".utf8))
    }

    // MARK: NetworkManagerTest

    @Test func aTransportErrorOnPostIsAConnectionProblem() throws {
        let server = try serve(200)
        server.stop()
        #expect(throws: NetworkError.connectionRefused(host: "127.0.0.1:\(server.port)")) {
            try network.successful(
                HTTPRequest(
                    .post, api: "market", base: server.baseURL, path: "/item", body: .multipart([.field("title", "t")]))
            )
        }
    }

    @Test func patchWith404IsAStatusError() throws {
        let server = try serve(404, #"{"error":true}"#)
        defer { server.stop() }
        do {
            _ = try network.successful(
                HTTPRequest(
                    .patch, api: "market", base: server.baseURL, path: "/item/1",
                    body: .multipart([.field("password", "pw", isSecret: true)])))
            Issue.record("a 404 must fail")
        } catch {
            guard case .status(404, _, "PATCH", _, _) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func anEmptyURLIsInvalid() {
        #expect(throws: NetworkError.failed(url: "", reason: "'' is not a URL")) {
            try network.successful(.get(url: ""))
        }
    }

    @Test func deleteWith200ReturnsData() throws {
        let server = try LoopbackServer { request in .json(String(decoding: request.body, as: UTF8.self)) }
        defer { server.stop() }
        let response = try network.successful(
            HTTPRequest(
                .delete, api: "market", base: server.baseURL, path: "/item/1",
                body: .json(Data(#"{"password":"pw"}"#.utf8)), secretValues: ["pw"]))
        #expect(response.body == Data(#"{"password":"pw"}"#.utf8))
        #expect(network.remoteWrites >= 1)
    }

    @Test func listLoadWith200ReturnsData() throws {
        let server = try serve(200, #"{"page":1,"items":[]}"#)
        defer { server.stop() }
        #expect(
            try network.successful(HTTPRequest(.get, api: "market", base: server.baseURL, path: "/items/1")).body
                == Data(#"{"page":1,"items":[]}"#.utf8))
    }
}
