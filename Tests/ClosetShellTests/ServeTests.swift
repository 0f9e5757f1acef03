import ClosetCore
import ClosetNetwork
import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Issue 27: `closet serve` driven as the apps and the tools drive a server: curl and Python's
/// http.client in the iOS app's request shapes, another process changing the store between
/// requests, and the server's limits.
@Suite(.serialized) struct ServeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/images/fixtures").path

    static func newStore() -> String { NSTemporaryDirectory() + "closet-serve-\(UUID().uuidString)" }

    /// curl's status line and body (`-s -w` puts the status last).
    static func curl(_ arguments: [String]) throws -> (status: Int, body: String) {
        let run = try ChildProcess.run("/usr/bin/curl", ["-s", "-w", "\n%{http_code}"] + arguments)
        let lines = run.out.split(separator: "\n", omittingEmptySubsequences: false)
        return (Int(lines.last ?? "") ?? 0, lines.dropLast().joined(separator: "\n"))
    }

    static func json(_ text: String) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Issue 45, item 4: without recordings the banner does not list the replaying APIs as
    /// answered; with them it does.
    @Test func theBannerSaysWhichAPIsNeedRecordings() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let bare = try ServeProcess(store: store)
        bare.stop()
        #expect(
            bare.text.contains(
                "· market, community, pictures (unsplash, kobis, kakao, animal answer with --replay <folder>) ·"))
        let replaying = try ServeProcess(
            store: store, serveArguments: ["--replay", Self.fixtures + "/../../photos/http"])
        replaying.stop()
        #expect(
            replaying.text.contains("· unsplash, kobis, kakao, market, community, animal, pictures ·"),
            "\(replaying.text)")
    }

    @Test func everyMarketRouteAnswersInTheReferenceShapes() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        let base = server.baseURL
        // POST /item as the iOS app sends it: its `Boundary-<UUID>` style, text parts, then
        // `images[]` files named {i}.jpeg as image/jpeg.
        let boundary = "Boundary-\(UUID().uuidString)"
        var parts: [MultipartPart] = [
            ("title", "MacBook Pro"), ("descriptions", "Apple M1"), ("price", "1690"), ("currency", "USD"),
            ("stock", "3"), ("discounted_price", "1500"), ("password", "1234"),
        ].map { MultipartPart.field($0.0, $0.1) }
        for (index, name) in ["coat.jpg", "scarf.jpg"].enumerated() {
            let bytes = FileManager.default.contents(atPath: Self.fixtures + "/" + name) ?? Data()
            parts.append(.file("images[]", filename: "\(index).jpeg", contentType: "image/jpeg", data: bytes))
        }
        let (bytes, contentType) = HTTPBody.multipart(parts).encoded(boundary: boundary)
        let bodyFile = NSTemporaryDirectory() + "closet-serve-body-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: bodyFile) }
        try bytes.write(to: URL(fileURLWithPath: bodyFile))
        var (status, body) = try Self.curl([
            "-H", "Content-Type: " + contentType, "--data-binary", "@" + bodyFile, base + "/item",
        ])
        #expect(status == 200, "\(body)")
        let created = Self.json(body)
        #expect(created["id"] as? Int == 1 && created["title"] as? String == "MacBook Pro")
        #expect(created["discounted_price"] as? Int == 1500 && created["descriptions"] as? String == "Apple M1")
        #expect((created["registration_date"] as? Double) == 1_704_067_200)
        let images = created["images"] as? [String] ?? []
        #expect(images.count == 2 && images.allSatisfy { $0.hasPrefix(base + "/images/") })
        // The picture is served at the URL the item names, byte for byte.
        let downloaded = NSTemporaryDirectory() + "closet-serve-\(UUID().uuidString).jpg"
        defer { try? FileManager.default.removeItem(atPath: downloaded) }
        #expect(try Self.curl(["-o", downloaded, images[0]]).status == 200)
        #expect(
            FileManager.default.contents(atPath: downloaded)
                == FileManager.default.contents(atPath: Self.fixtures + "/coat.jpg"))

        // GET /items/{page}: no descriptions, no images, thumbnails.
        (status, body) = try Self.curl([base + "/items/1"])
        let page = Self.json(body)
        let items = page["items"] as? [[String: Any]] ?? []
        #expect(status == 200 && page["page"] as? Int == 1 && items.count == 1)
        #expect(items.first?["descriptions"] == nil && items.first?["images"] == nil)
        #expect((items.first?["thumbnails"] as? [String])?.count == 2)
        #expect(Self.json(try Self.curl([base + "/items/2"]).body)["items"] as? [Any] != nil)
        // GET /item/{id}, and an unknown one.
        #expect(Self.json(try Self.curl([base + "/item/1"]).body)["images"] as? [String] == images)
        (status, body) = try Self.curl([base + "/item/9"])
        #expect(status == 404 && Self.json(body)["error"] as? Bool == true)

        // PATCH with a wrong password is a 404 and changes nothing; with the right one it edits.
        (status, _) = try Self.curl(["-X", "PATCH", "-F", "stock=0", "-F", "password=0000", base + "/item/1"])
        #expect(status == 404)
        // (An answer kept while the store is unchanged is given again; a write makes it stale.)
        #expect(Self.json(try Self.curl([base + "/item/1"]).body)["stock"] as? Int == 3)
        (status, body) = try Self.curl(["-X", "PATCH", "-F", "stock=0", "-F", "password=1234", base + "/item/1"])
        #expect(status == 200 && Self.json(body)["stock"] as? Int == 0)
        #expect(Self.json(try Self.curl([base + "/item/1"]).body)["stock"] as? Int == 0)
        // Six pictures are refused in the API's own words.
        let six = (0..<6).flatMap { ["-F", "images[]=@\(Self.fixtures)/coat.jpg;filename=\($0).jpeg;type=image/jpeg"] }
        (status, body) = try Self.curl(["-X", "PATCH", "-F", "password=1234"] + six + [base + "/item/1"])
        #expect(status == 400 && Self.json(body)["reason"] as? String == "The number of images must be 5 or less")

        // DELETE with a JSON password, from Python's http.client as the app's URLSession sends it.
        let python = """
            import http.client, json, sys
            c = http.client.HTTPConnection(sys.argv[1], int(sys.argv[2]))
            for password in ["nope", "1234"]:
                c.request("DELETE", "/item/1", body=json.dumps({"password": password}), headers={"Content-Type": "application/json"})
                r = c.getresponse()
                print(r.status, json.loads(r.read()).get("id"))
            c.request("GET", "/item/1")
            r = c.getresponse(); r.read()
            print(r.status)
            """
        let address = base.dropFirst("http://".count).split(separator: ":")
        let run = try ChildProcess.run(
            "/usr/bin/env", ["python3", "-c", python, String(address[0]), String(address[1])])
        #expect(run.out == "404 None\n200 1\n404\n", "\(run.err)")
        #expect(server.stop() == 0)
        #expect(server.text.contains("DELETE /item/1 200"))
    }

    /// A kept answer holds its body once, in the bytes written to a keep-alive GET: a HEAD, a
    /// request that closes the connection and a picture's If-None-Match are still answered from it
    /// as the fresh answer was.
    @Test func aKeptAnswerIsGivenWholeToEveryKindOfRequest() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let seeded = try ChildProcess.run(
            BuiltProducts.closet,
            [
                "--deterministic", "--store", store, "-c",
                "add product title=Lamp price=10 currency=KRW stock=1 description=bright image=\(Self.fixtures)/coat.jpg password=1234",
            ])
        #expect(seeded.status == 0, "\(seeded.err)")
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        let python = """
            import http.client, json, sys
            host, port, picture = sys.argv[1], int(sys.argv[2]), open(sys.argv[3], "rb").read()
            c = http.client.HTTPConnection(host, port)
            def ask(method, path, headers={}):
                global c
                c.request(method, path, headers=headers)
                r = c.getresponse()
                answer = (r.status, r.getheader("Content-Length"), r.getheader("ETag"), r.read())
                if headers.get("Connection") == "close":
                    c.close(); c = http.client.HTTPConnection(host, port)
                return answer
            fresh, kept, head, closing = [ask(m, "/items/1", h) for m, h in
                [("GET", {}), ("GET", {}), ("HEAD", {}), ("GET", {"Connection": "close"})]]
            print(fresh[0], fresh[1] == str(len(fresh[3])), b"Lamp" in fresh[3])
            print(kept == fresh, closing == fresh)
            print(head[0], head[1] == fresh[1], head[3] == b"")
            url = json.loads(ask("GET", "/item/1")[3])["images"][0]
            path = url[url.index("/images/"):]
            first, second = ask("GET", path), ask("GET", path)
            print(first[3] == picture, second == first)
            print(ask("GET", path, {"If-None-Match": first[2]})[0], ask("HEAD", path)[1] == str(len(picture)))
            """
        let address = server.baseURL.dropFirst("http://".count).split(separator: ":")
        let run = try ChildProcess.run(
            "/usr/bin/env",
            ["python3", "-c", python, String(address[0]), String(address[1]), Self.fixtures + "/coat.jpg"])
        #expect(run.out == "200 True True\nTrue True\n200 True True\nTrue True\n304 True\n", "\(run.err)")
        #expect(server.stop() == 0)
    }

    @Test func aChangeMadeAtThePromptIsWhatTheNextRequestSees() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        #expect((Self.json(try Self.curl([server.baseURL + "/items/1"]).body)["items"] as? [Any])?.isEmpty == true)
        let added = try ChildProcess.run(
            BuiltProducts.closet,
            [
                "--store", store, "-c",
                "add product title=프롬프트 price=10 currency=KRW stock=1 description=d image=\(Self.fixtures)/cap.png password=p",
            ])
        #expect(added.status == 0, "\(added.err)")
        let items = Self.json(try Self.curl([server.baseURL + "/items/1"]).body)["items"] as? [[String: Any]] ?? []
        #expect(items.first?["title"] as? String == "프롬프트")
        // And the other way: what the server wrote, the prompt lists.
        _ = try Self.curl([
            "-X", "DELETE", "-H", "Content-Type: application/json", "-d", #"{"password":"p"}"#,
            server.baseURL + "/item/1",
        ])
        #expect(
            try ChildProcess.run(BuiltProducts.closet, ["--store", store, "-c", "count products"]).out.hasSuffix(" 0\n")
        )
    }

    /// Raw bytes to the server, and what came back before it closed.
    static func exchange(_ base: String, _ bytes: [UInt8], pause: Double = 0) throws -> String {
        let address = base.dropFirst("http://".count).split(separator: ":")
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var target = sockaddr_in()
        target.sin_family = sa_family_t(AF_INET)
        target.sin_port = in_port_t(UInt16(address[1])!).bigEndian
        inet_pton(AF_INET, String(address[0]), &target.sin_addr)
        let connected = withUnsafePointer(to: &target) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return "" }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var reply: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { break }
            reply += buffer[0..<count]
        }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test func theLimitsHold() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store, serveArguments: ["--request-timeout", "0.5"])
        defer { server.stop() }
        let base = server.baseURL
        // A malformed request: 400, and the connection closed.
        #expect(
            try Self.exchange(base, Array("GET / HTTP/1.1\r\nHost : x\r\n\r\n".utf8)).hasPrefix(
                "HTTP/1.1 400 Bad Request"))
        // A body over the limit is refused from its length, before it is sent.
        #expect(
            try Self.exchange(base, Array("POST /item HTTP/1.1\r\nHost: x\r\nContent-Length: 999999999\r\n\r\n".utf8))
                .hasPrefix("HTTP/1.1 413 Content Too Large"))
        // Headers over 16 KB: 431.
        let long = "GET /items/1 HTTP/1.1\r\nHost: x\r\nX-Long: " + String(repeating: "a", count: 20_000) + "\r\n\r\n"
        #expect(try Self.exchange(base, Array(long.utf8)).hasPrefix("HTTP/1.1 431 Request Header Fields Too Large"))
        // A client that stops half-way is cut off after the request timeout (408).
        let started = Date()
        let slow = try Self.exchange(base, Array("GET /items/1 HTTP/1.1\r\nHost: x\r\n".utf8))
        #expect(slow.hasPrefix("HTTP/1.1 408 Request Timeout") && Date().timeIntervalSince(started) < 4)
        // Nothing outside the store, nor of it but a picture, is served.
        for path in [
            "/images/../snapshot", "/images/%2E%2E%2Fjournal", "/images/..%2F..%2Fetc%2Fpasswd", "/thumbnails/lock",
        ] {
            #expect(try Self.curl(["--path-as-is", base + path]).status == 404, "\(path)")
        }
        // Keep-alive: two requests on one connection, answered in order.
        let two = try Self.exchange(
            base,
            Array(
                "GET /items/1 HTTP/1.1\r\nHost: x\r\n\r\nGET /item/5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                    .utf8))
        #expect(two.components(separatedBy: "HTTP/1.1 ").count == 3 && two.contains("HTTP/1.1 404"))
        #expect(server.stop() == 0)
    }
}

extension ServeTests {
    @Test func faultsOnPurposeAreTheAPIsOwnAndRepeatWithTheirSeed() throws {
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        // Every request failed: the market's own 500, and nothing of a write is done.
        var server = try ServeProcess(store: store, serveArguments: ["--fail", "1"])
        var (status, body) = try Self.curl([
            "-X", "DELETE", "-H", "Content-Type: application/json", "-d", #"{"password":"x"}"#,
            server.baseURL + "/item/1",
        ])
        #expect(status == 500 && Self.json(body)["reason"] as? String == "Internal Server Error")
        #expect(server.text.contains("DELETE /item/1 500") && server.text.contains("(fail)"))
        server.stop()
        // Every answer cut off mid-body: curl sees the connection close early.
        server = try ServeProcess(store: store, serveArguments: ["--drop", "1"])
        let dropped = try ChildProcess.run("/usr/bin/curl", ["-s", server.baseURL + "/items/1"])
        #expect(dropped.status == 18)  // CURLE_PARTIAL_FILE
        server.stop()
        // Held back 300 ms, others served meanwhile.
        server = try ServeProcess(store: store, serveArguments: ["--latency", "300"])
        let started = Date()
        #expect(try Self.curl([server.baseURL + "/items/1"]).status == 200)
        #expect(Date().timeIntervalSince(started) >= 0.3)
        server.stop()
        // The same seed, the same faults, request by request; the journal has them.
        var sequences: [[String]] = []
        for _ in 0..<2 {
            let log = NSTemporaryDirectory() + "closet-serve-log-\(UUID().uuidString).jsonl"
            defer { try? FileManager.default.removeItem(atPath: log) }
            server = try ServeProcess(
                store: store, serveArguments: ["--fail", "0.4", "--latency", "1-9", "--seed", "42", "--log", log])
            for _ in 0..<12 {
                _ = try Self.curl([server.baseURL + "/items/1?key=SECRET-KEY&Authorization=Bearer%20TOKEN-9"])
            }
            _ = try Self.curl([
                "-X", "DELETE", "-H", "Content-Type: application/json", "-d", #"{"password":"PASSWORD-1"}"#,
                server.baseURL + "/item/1",
            ])
            server.stop()
            let text = String(decoding: FileManager.default.contents(atPath: log) ?? Data(), as: UTF8.self)
            let lines = text.split(separator: "\n")
            #expect(lines.count == 13)
            #expect(!text.contains("SECRET-KEY") && !text.contains("PASSWORD-1") && text.contains("(redacted)"))
            #expect(!text.contains("TOKEN-9"), "a query's Authorization is a secret too")
            sequences.append(lines.map { line in String(describing: Self.json(String(line))["faults"] ?? "") })
        }
        #expect(sequences[0] == sequences[1] && sequences[0].contains { $0.contains("fail") })
    }
}

extension ServeTests {
    @Test func aBadServeCommandLineIsOneLineAndExit2() throws {
        let cases: [([String], String)] = [
            (["serve", "--port", "http"], "'--port' takes a number from 0 to 65535, not 'http'"),
            (["serve", "--fail", "2"], "'--fail' takes a rate from 0 to 1, not '2'"),
            (
                ["serve", "--latency", "9-1"],
                "'--latency' takes milliseconds (0 to 60000) or a range like 50-200, not '9-1'"
            ),
            (["serve", "--colour"], "unknown option '--colour' for serve"),
            (
                ["serve", "--answer-cache", "lots"],
                "'--answer-cache' takes a size from 0B to 1024GB, like 32MB, not 'lots'"
            ),
            (["serve", "nopack"], "no pack is named 'nopack'"),
            (["serve", "wardrobe"], "the wardrobe pack serves no API"),
        ]
        for (arguments, message) in cases {
            let run = try ChildProcess.run(BuiltProducts.closet, ["--store", ":memory:"] + arguments)
            #expect(run.status == 2 && run.err.contains(message), "\(arguments): \(run.err)")
        }
        // The user's words are quoted with their terminal controls shown, never sent (issue 44):
        // a usage error is the one place a command line's bytes reach the terminal.
        let escape = "\u{1B}]0;owned\u{07}\u{1B}[31m"
        for arguments in [
            ["--user", escape], ["--format", escape], ["--pictures", escape], ["--timeout", escape],
            ["serve", "--port", escape], [escape],
        ] {
            let run = try ChildProcess.run(BuiltProducts.closet, ["--store", ":memory:"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(!run.err.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "\(arguments): \(run.err)")
            #expect(run.err.contains("\\e]0;owned"), "\(arguments): \(run.err)")
        }
        // A usage the message ends with keeps its lines.
        let unknown = try ChildProcess.run(BuiltProducts.closet, ["serve", "--colour"])
        #expect(unknown.err.split(separator: "\n").count == 3 && !unknown.err.contains("\\n"), "\(unknown.err)")
        // A missing recordings folder is one line too; --help says every option and serves nothing.
        let missing = try ChildProcess.run(
            BuiltProducts.closet, ["--store", ":memory:", "serve", "--replay", "/nonexistent/recordings"])
        #expect(missing.status == 1 && missing.err == "error: no recordings folder '/nonexistent/recordings'\n")
        let help = try ChildProcess.run(BuiltProducts.closet, ["serve", "--help"])
        #expect(
            help.status == 0 && help.out.hasPrefix("usage: closet serve") && help.out.contains("  --replay <folder>"))
        // A port in use is a clear error too.
        let store = Self.newStore()
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        let port = String(server.baseURL.split(separator: ":").last ?? "")
        let second = try ChildProcess.run(BuiltProducts.closet, ["--store", ":memory:", "serve", "--port", port])
        #expect(second.status == 1 && second.err.contains("cannot listen on 127.0.0.1:\(port): Address already in use"))
    }
}

extension ServeTests {
    static let photoRecordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/photos/http").path

    /// Unsplash from recordings: closet's own photos pack, live against `closet serve --replay`,
    /// lists what it lists replaying the same recordings itself; what no recording answers is
    /// Unsplash's own 404 shape, and the key is accepted and ignored.
    @Test func unsplashIsServedFromRecordings() throws {
        let server = try ServeProcess(store: ":memory:", serveArguments: ["--replay", Self.photoRecordings, "photos"])
        defer { server.stop() }
        let statements = ["-c", "list photos", "-c", "next", "-c", "count photos"]
        let live = try ChildProcess.run(
            BuiltProducts.closet, ["--store", ":memory:", "--deterministic"] + statements,
            environment: [
                "CLOSET_UNSPLASH_URL": server.baseURL, "UNSPLASH_ACCESS_KEY": "any-key",
                "CLOSET_HTTP_HELPER": BuiltProducts.helper,
            ])
        let replayed = try ChildProcess.run(
            BuiltProducts.closet,
            ["--store", ":memory:", "--deterministic", "--replay", Self.photoRecordings] + statements,
            environment: ["UNSPLASH_ACCESS_KEY": "any-key"])
        #expect(live.status == 0 && live.out == replayed.out && live.out.contains("ph00owkxgpv"), "\(live.err)")
        // A page of the feed no recording holds: Unsplash's 404; one past its end: 200 [] (issue 42).
        let (status, body) = try Self.curl([server.baseURL + "/photos?page=1&per_page=7&client_id=k"])
        #expect(status == 404 && Self.json(body)["errors"] as? [String] == ["Couldn't find Photo"])
        let end = try Self.curl([server.baseURL + "/photos?page=1000&per_page=15&client_id=k"])
        #expect(end.status == 200 && end.body == "[]", "\(end)")
        // Not an Unsplash path: the server's own 404.
        #expect(try Self.curl([server.baseURL + "/items/1"]).status == 404)
    }
}
