import ClosetHTTP
import ClosetNetwork
import Foundation
import TestSupport
import Testing

/// The live path (URLSession through FoundationNetworking) against a loopback server.
@Suite(.serialized) struct LiveTransportTests {
    let transport = URLSessionTransport(timeoutSeconds: 1, userAgent: "closet-test/1")

    func request(
        _ server: LoopbackServer, _ method: HTTPRequest.Method = .get, path: String, query: [QueryItem] = [],
        body: HTTPBody? = nil
    ) -> HTTPRequest {
        HTTPRequest(method, api: "test", base: server.baseURL, path: path, query: query, body: body)
    }

    @Test func answersWithStatusHeadersAndBody() throws {
        let server = try LoopbackServer { request in
            .respond(
                status: request.path == "/missing" ? 404 : 200,
                headers: ["Content-Type": "text/plain", "X-Echo": request.header("User-Agent") ?? ""],
                body: Data("hello \(request.path)".utf8))
        }
        defer { server.stop() }
        let ok = try transport.send(request(server, path: "/greeting"))
        #expect(ok.status == 200)
        #expect(String(decoding: ok.body, as: UTF8.self) == "hello /greeting")
        #expect(ok.header("x-echo") == "closet-test/1")
        let missing = try transport.send(request(server, path: "/missing"))
        #expect(missing.status == 404)
        #expect(missing.statusLine == "404 Not Found")
    }

    @Test func encodesQueryValuesStrictly() throws {
        let server = try LoopbackServer { _ in .json("[]") }
        defer { server.stop() }
        _ = try transport.send(
            request(
                server, path: "/q", query: [QueryItem("key", "a+b/c==", isSecret: true), QueryItem("q", "영화 포스터&x")]))
        let target = try #require(server.requests.first?.target)
        #expect(target == "/q?key=a%2Bb%2Fc%3D%3D&q=%EC%98%81%ED%99%94%20%ED%8F%AC%EC%8A%A4%ED%84%B0%26x")
        #expect(server.requests.first?.query["key"] == "a+b/c==")
    }

    @Test func timesOutWhenNothingComes() throws {
        let server = try LoopbackServer { _ in .delay(2.5, .json("{}")) }
        defer { server.stop() }
        let started = Date()
        #expect(throws: NetworkError.timedOut(url: server.baseURL + "/slow", seconds: 1)) {
            try transport.send(request(server, path: "/slow"))
        }
        #expect(Date().timeIntervalSince(started) < 2.4)
    }

    @Test func followsRedirectsKeepingAPostBodyOn307And308() throws {
        let server = try LoopbackServer { request in
            switch request.path {
            case "/old": return .respond(status: 307, headers: ["Location": "/new"], body: Data())
            case "/moved": return .respond(status: 308, headers: ["Location": "/new"], body: Data())
            case "/see-other": return .respond(status: 303, headers: ["Location": "/new"], body: Data())
            default:
                return .respond(
                    status: 200, headers: ["Content-Type": "text/plain"],
                    body: Data("\(request.method) \(String(decoding: request.body, as: UTF8.self))".utf8))
            }
        }
        defer { server.stop() }
        let body = HTTPBody.json(Data(#"{"password":"pw"}"#.utf8))
        for path in ["/old", "/moved"] {
            let response = try transport.send(request(server, .post, path: path, body: body))
            #expect(String(decoding: response.body, as: UTF8.self) == #"POST {"password":"pw"}"#)
        }
        let seeOther = try transport.send(request(server, .post, path: "/see-other", body: body))
        #expect(String(decoding: seeOther.body, as: UTF8.self) == "GET ")
    }

    @Test func dropsSecretHeadersWhenARedirectLeavesTheHost() throws {
        let other = try LoopbackServer { request in
            .json(#"{"authorization":"\#(request.header("Authorization") ?? "none")"}"#)
        }
        defer { other.stop() }
        let server = try LoopbackServer { request in
            request.path == "/here"
                ? .json(#"{"authorization":"\#(request.header("Authorization") ?? "none")"}"#)
                : .respond(
                    status: 302, headers: ["Location": request.path == "/away" ? other.baseURL + "/x" : "/here"],
                    body: Data())
        }
        defer { server.stop() }
        var away = request(server, path: "/away")
        away.headers = [HTTPHeader("Authorization", "Client-ID secret", isSecret: true)]
        #expect(String(decoding: try transport.send(away).body, as: UTF8.self) == #"{"authorization":"none"}"#)
        var near = request(server, path: "/stay")
        near.headers = away.headers
        #expect(
            String(decoding: try transport.send(near).body, as: UTF8.self) == #"{"authorization":"Client-ID secret"}"#)
    }

    @Test func stopsAfterTooManyRedirects() throws {
        let server = try LoopbackServer { _ in .respond(status: 302, headers: ["Location": "/again"], body: Data()) }
        defer { server.stop() }
        #expect(throws: NetworkError.tooManyRedirects(url: server.baseURL + "/loop")) {
            try transport.send(request(server, path: "/loop"))
        }
        #expect(server.requests.count == URLSessionTransport.maximumRedirects + 1)
    }

    @Test func sendsMultipartBodiesWhole() throws {
        let server = try LoopbackServer { request in
            .respond(status: 201, headers: ["Content-Type": request.header("Content-Type") ?? ""], body: request.body)
        }
        defer { server.stop() }
        let picture = Data(SampleImages.png(width: 2, height: 2))
        let body = HTTPBody.multipart([
            .field("title", "맥북"), .file("images[]", filename: "0.png", contentType: "image/png", data: picture),
        ])
        let response = try transport.send(request(server, .post, path: "/item", body: body))
        let type = try #require(response.header("Content-Type"))
        #expect(type.hasPrefix("multipart/form-data; boundary=closet-"))
        let boundary = String(type.dropFirst("multipart/form-data; boundary=".count))
        #expect(response.body == body.encoded(boundary: boundary).bytes)
    }

    @Test func carriesLargeBodiesBothWays() throws {
        let server = try LoopbackServer { request in
            .respond(
                status: 200, headers: ["Content-Type": "application/octet-stream"], body: request.body + request.body)
        }
        defer { server.stop() }
        let big = Data((0..<(6 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let response = try transport.send(
            request(
                server, .post, path: "/echo",
                body: .multipart([.file("blob", filename: "b", contentType: "application/octet-stream", data: big)])))
        #expect(response.body.count > 2 * big.count)
    }

    @Test func servesConcurrentRequests() throws {
        let server = try LoopbackServer { request in .delay(0.5, .json(#"{"n":"\#(request.query["n"] ?? "")"}"#)) }
        defer { server.stop() }
        let results = ResultsBox()
        let started = Date()
        DispatchQueue.concurrentPerform(iterations: 8) { n in
            let response = try? transport.send(request(server, path: "/n", query: [QueryItem("n", "\(n)")]))
            results.add(n, response.map { String(decoding: $0.body, as: UTF8.self) })
        }
        #expect(results.values == (0..<8).map { #"{"n":"\#($0)"}"# })
        // Eight half-second answers one after another would take 4 s.
        #expect(Date().timeIntervalSince(started) < 3)
    }

    @Test func reportsAConnectionClosedMidBody() throws {
        let server = try LoopbackServer { _ in .closeMidBody(declared: 1000, sent: Data(#"{"partial":"#.utf8)) }
        defer { server.stop() }
        #expect(throws: NetworkError.self) { try transport.send(request(server, path: "/cut")) }
        do {
            _ = try transport.send(request(server, path: "/cut"))
        } catch {
            #expect(error.message.hasPrefix("cannot reach \(server.baseURL)/cut: "))
        }
    }

    @Test func reportsARefusedConnection() throws {
        let server = try LoopbackServer { _ in .json("{}") }
        server.stop()
        #expect(throws: NetworkError.connectionRefused(host: "127.0.0.1:\(server.port)")) {
            try transport.send(request(server, path: "/"))
        }
    }
}

final class ResultsBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Int: String?] = [:]
    func add(_ n: Int, _ value: String?) {
        lock.lock()
        stored[n] = value
        lock.unlock()
    }
    var values: [String?] { stored.keys.sorted().map { stored[$0]! } }
}
