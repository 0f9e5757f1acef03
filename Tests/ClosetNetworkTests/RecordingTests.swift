import ClosetHTTP
import ClosetNetwork
import Foundation
import TestSupport
import Testing

@Suite struct RecordingTests {
    func temporaryFolder() -> String {
        let path = NSTemporaryDirectory() + "closet-recordings-" + UUID().uuidString
        return path
    }

    let secretKey = "s3cr+t/key=="

    func feedRequest(page: Int, base: String = "https://api.unsplash.com") -> HTTPRequest {
        HTTPRequest(
            .get, api: "unsplash", base: base, path: "/photos",
            query: [
                QueryItem("page", "\(page)"), QueryItem("client_id", secretKey, isSecret: true),
                QueryItem("per_page", "15"),
            ],
            headers: [
                HTTPHeader("Accept-Version", "v1"),
                HTTPHeader("Authorization", "Client-ID \(secretKey)", isSecret: true),
            ])
    }

    @Test func keysSortTheQueryAndLeaveSecretsOut() {
        let key = Recording.key(for: feedRequest(page: 2))
        #expect(key == "GET {unsplash}/photos?page=2&per_page=15")
        #expect(Recording.key(for: feedRequest(page: 2, base: "http://127.0.0.1:9")) == key)
        #expect(feedRequest(page: 2).displayURL == "https://api.unsplash.com/photos?page=2&per_page=15")
        let absolute = HTTPRequest.get(url: "https://images.unsplash.com/photo-1?w=400")
        #expect(Recording.key(for: absolute) == "GET https://images.unsplash.com/photo-1?w=400")
    }

    @Test func multipartKeysIgnoreTheBoundaryAndSecretParts() {
        func post(password: String, title: String) -> HTTPRequest {
            HTTPRequest(
                .post, api: "market", base: "http://x", path: "/item",
                body: .multipart([.field("title", title), .field("password", password, isSecret: true)]))
        }
        #expect(
            Recording.key(for: post(password: "a", title: "맥북")) == Recording.key(for: post(password: "b", title: "맥북"))
        )
        #expect(
            Recording.key(for: post(password: "a", title: "맥북"))
                != Recording.key(for: post(password: "a", title: "아이폰")))
        #expect(Recording.key(for: post(password: "a", title: "t")).hasPrefix("POST {market}/item body=fnv1a64:"))
        let body = HTTPBody.multipart([.field("title", "t")])
        #expect(body.encoded(boundary: "one").bytes != body.encoded(boundary: "two").bytes)
        #expect(body.canonical == HTTPBody.multipart([.field("title", "t")]).canonical)
    }

    @Test func recordsThenReplaysTheSameBytesWithoutSecrets() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = try LoopbackServer { request in
            .json(#"[{"id":"abc","echo":"\#(request.query["client_id"] ?? "")"}]"#)
        }
        defer { server.stop() }
        let live = URLSessionTransport(timeoutSeconds: 2)
        let recorder = RecordingTransport(live, into: RecordingFolder(path: folder))
        let recorded = try recorder.send(feedRequest(page: 1, base: server.baseURL))
        #expect(String(decoding: recorded.body, as: UTF8.self).contains(secretKey))

        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.count == 2)
        #expect(files.allSatisfy { $0.hasPrefix("GET-unsplash-photos-") })
        for file in files {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + file)), as: UTF8.self)
            #expect(!text.contains(secretKey) && !text.contains(PercentEncoding.strict(secretKey)))
        }
        let head = String(
            decoding: try Data(contentsOf: URL(fileURLWithPath: folder + "/" + files.first { $0.hasSuffix(".http") }!)),
            as: UTF8.self)
        #expect(
            head.hasPrefix(
                "GET {unsplash}/photos?page=1&per_page=15\nAccept-Version: v1\n\nHTTP 200 OK\nContent-Type: application/json\n"
            ))

        let replay = try ReplayTransport(folder: RecordingFolder(path: folder))
        let replayed = try replay.send(feedRequest(page: 1))
        #expect(replayed.status == 200)
        #expect(String(decoding: replayed.body, as: UTF8.self) == #"[{"id":"abc","echo":"REDACTED"}]"#)
        #expect(throws: NetworkError.noRecording("GET", "https://api.unsplash.com/photos?page=2&per_page=15")) {
            try replay.send(feedRequest(page: 2))
        }
        #expect(NetworkError.noRecording("GET", "https://x/p").message == "no recorded response for GET https://x/p")
    }

    @Test func aPersonCanWriteARecordingByHand() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("GET {unsplash}/photos?per_page=15&page=3\r\n\r\nHTTP 503\r\nRetry-After: 5\r\n".utf8).write(
            to: URL(fileURLWithPath: folder + "/mine.http"))
        try Data("busy".utf8).write(to: URL(fileURLWithPath: folder + "/mine.txt"))
        let response = try ReplayTransport(folder: RecordingFolder(path: folder)).send(feedRequest(page: 3))
        #expect(response.status == 503 && response.header("retry-after") == "5" && response.body == Data("busy".utf8))

        try Data("nonsense\n".utf8).write(to: URL(fileURLWithPath: folder + "/bad.http"))
        #expect(throws: NetworkError.self) { try ReplayTransport(folder: RecordingFolder(path: folder)) }
    }

    @Test func offlineNamesTheRequestWithoutSecrets() {
        let offline = OfflineTransport(reason: "(--offline)")
        #expect(
            throws: NetworkError.offline(
                "GET", "https://api.unsplash.com/photos?page=1&per_page=15", reason: "(--offline)")
        ) {
            try offline.send(feedRequest(page: 1))
        }
    }

    @Test func networkReadsBasesAndKeysFromTheEnvironment() throws {
        let api = RemoteAPI(
            name: "unsplash", title: "Unsplash API", baseVariable: "CLOSET_UNSPLASH_URL",
            defaultBase: "https://api.unsplash.com", keyVariable: "UNSPLASH_ACCESS_KEY")
        let plain = Network(transport: SendingTransport(), environment: [:])
        #expect(try plain.base(of: api) == "https://api.unsplash.com")
        #expect(throws: NetworkError.missingKey(variable: "UNSPLASH_ACCESS_KEY", api: "Unsplash API")) {
            try plain.key(of: api)
        }
        let local = Network(
            transport: OfflineTransport(reason: ""),
            environment: ["CLOSET_UNSPLASH_URL": "http://127.0.0.1:8080/", "UNSPLASH_ACCESS_KEY": "k"])
        #expect(try local.base(of: api) == "http://127.0.0.1:8080")
        #expect(try local.key(of: api) == "k")
        // Replays and the offline transport send nothing, so they need no key.
        #expect(try Network(transport: OfflineTransport(reason: ""), environment: [:]).key(of: api) == "")
        let wrong = Network(transport: OfflineTransport(reason: ""), environment: ["CLOSET_UNSPLASH_URL": "ftp://x"])
        #expect(throws: NetworkError.invalidBaseURL(variable: "CLOSET_UNSPLASH_URL", value: "ftp://x")) {
            try wrong.base(of: api)
        }
    }

    @Test func wireFramesRoundTrip() throws {
        let request = PreparedRequest(
            method: "PATCH", url: "http://h/p?k=1", displayURL: "http://h/p",
            headers: [HTTPHeader("A", "b", isSecret: true)], body: Data([0, 1, 2]), timeoutSeconds: 7)
        let frame = WireFormat.encode(request)
        #expect(WireFormat.decodeRequest(frame.dropFirst(4)) == request)
        for result in [
            ExchangeResult.response(HTTPResponse(status: 201, headers: [HTTPHeader("X", "y")], body: Data("z".utf8))),
            .failure(.timedOut, ""),
        ] {
            #expect(WireFormat.decodeResult(WireFormat.encode(result).dropFirst(4)) == result)
        }
        #expect(WireFormat.decodeRequest(frame.dropFirst(4).dropLast()) == nil)
    }
}

/// A transport that would send (so keys are required) but is never reached.
final class SendingTransport: Transport {
    func send(_ request: HTTPRequest) throws(NetworkError) -> HTTPResponse { throw .helper("not in this test") }
}

/// Issue 25, item 8: an error shows a Korean query as Korean; ASCII escapes stay as sent.
@Suite struct ReadableURLTests {
    @Test func textBeyondASCIIIsDecodedAndASCIIEscapesKept() {
        #expect(
            NetworkError.readable("https://x/y?q=%EC%84%9C%EC%9A%B8%20%ED%8F%AC%EC%8A%A4%ED%84%B0&a=1%262")
                == "https://x/y?q=서울%20포스터&a=1%262")
        #expect(NetworkError.readable("https://x/%FF%FE") == "https://x/%FF%FE")  // not UTF-8: kept
        #expect(NetworkError.readable("https://x/%E") == "https://x/%E")
        #expect(
            NetworkError.noRecording("GET", "https://x?q=%EA%B0%9C").message
                == "no recorded response for GET https://x?q=개")
    }
}
