import ClosetNetwork
import Foundation
import TestSupport
import Testing

/// The live path as the shell uses it: through the `closet-http` helper process.
@Suite struct HelperTransportTests {
    static var helperPath: String { BuiltProducts.helper }

    @Test func sendsThroughTheHelperAndKeepsItRunning() throws {
        let server = try LoopbackServer { request in
            .json(#"{"path":"\#(request.path)","ua":"\#(request.header("User-Agent") ?? "")"}"#)
        }
        defer { server.stop() }
        let transport = HelperTransport(timeoutSeconds: 2, userAgent: "closet/test", helperPath: Self.helperPath)
        for n in 1...3 {
            let response = try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/\(n)"))
            #expect(String(decoding: response.body, as: UTF8.self) == #"{"path":"/\#(n)","ua":"closet/test"}"#)
        }
    }

    @Test func reportsFailuresAsTheLivePathDoes() throws {
        let server = try LoopbackServer { _ in .delay(2.5, .json("{}")) }
        defer { server.stop() }
        let transport = HelperTransport(timeoutSeconds: 1, userAgent: "closet/test", helperPath: Self.helperPath)
        #expect(throws: NetworkError.timedOut(url: server.baseURL + "/slow", seconds: 1)) {
            try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/slow"))
        }
        let closed = try LoopbackServer { _ in .json("{}") }
        closed.stop()
        #expect(throws: NetworkError.connectionRefused(host: "127.0.0.1:\(closed.port)")) {
            try transport.send(HTTPRequest(.get, api: "t", base: closed.baseURL, path: "/"))
        }
    }

    @Test func aMissingHelperIsOneClearError() {
        let transport = HelperTransport(
            timeoutSeconds: 1, userAgent: "closet/test", helperPath: "/nonexistent/closet-http")
        #expect(
            throws: NetworkError.helper("no helper program at '/nonexistent/closet-http' (build it with 'swift build')")
        ) {
            try transport.send(HTTPRequest.get(url: "http://127.0.0.1:1/"))
        }
    }
}
