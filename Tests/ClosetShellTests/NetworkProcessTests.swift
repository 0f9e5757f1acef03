import ClosetNetwork
import Foundation
import TestSupport
import Testing

/// The network options through the real binary and its helper, against a loopback server
/// that speaks the Unsplash API.
@Suite struct NetworkProcessTests {
    static let enabled = FileManager.default.isExecutableFile(atPath: ProcessTests.binary)

    func closet(_ arguments: [String], stdin: String = "", environment: [String: String] = [:]) throws -> (
        status: Int32, out: String, err: String
    ) {
        try ProcessTests().run(arguments, stdin: stdin, environment: environment)
    }

    static let script = """
        list photos
        next
        save photo @3 memo="첫 사진"
        list saved
        list photos page=97
        count saved
        """

    @Test(.enabled(if: enabled)) func aRecordedSessionReplaysToTheSameBytesWithNoNetwork() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "closet-rec-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let live = [
            "CLOSET_UNSPLASH_URL": server.baseURL, "UNSPLASH_ACCESS_KEY": UnsplashFixture.accessKey,
        ]
        let recorded = try closet(
            ["--store", ":memory:", "--deterministic", "--record", folder], stdin: Self.script, environment: live)
        #expect(recorded.status == 1)  // page 97 is refused
        #expect(recorded.out.contains("★") == false && recorded.out.contains("첫 사진"))
        server.stop()
        let replayed = try closet(
            ["--store", ":memory:", "--deterministic", "--replay", folder], stdin: Self.script,
            environment: ["CLOSET_UNSPLASH_URL": server.baseURL, "UNSPLASH_ACCESS_KEY": ""])
        #expect(replayed.out == recorded.out)
        #expect(replayed.err == recorded.err)
        #expect(replayed.status == recorded.status)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = String(
                decoding: FileManager.default.contents(atPath: folder + "/" + name) ?? Data(), as: UTF8.self)
            #expect(!text.contains(UnsplashFixture.accessKey), "\(name)")
        }
    }

    @Test(.enabled(if: enabled)) func offlineTimeoutAndBadFoldersAreOneLineEach() throws {
        let offline = try closet(["--store", ":memory:", "--offline", "-c", "list photos"])
        #expect(offline.status == 1)
        #expect(
            offline.err.hasPrefix(
                "error: the network is off (--offline): cannot GET https://api.unsplash.com/photos?page=1&per_page=15\n"
            ))
        let missing = try closet(["--store", ":memory:", "--replay", "/no/such/folder", "-c", "count saved"])
        #expect(missing.status == 2)
        #expect(missing.err == "error: no recordings folder '/no/such/folder'\n")

        let slow = try LoopbackServer { _ in .delay(3, .json("[]")) }
        defer { slow.stop() }
        let started = Date()
        let timedOut = try closet(
            ["--store", ":memory:", "--timeout", "1", "-c", "list photos"],
            environment: ["CLOSET_UNSPLASH_URL": slow.baseURL, "UNSPLASH_ACCESS_KEY": "k"])
        #expect(
            timedOut.err.hasPrefix(
                "error: no answer from \(slow.baseURL)/photos?page=1&per_page=15 within 1 s (--timeout)\n"))
        #expect(Date().timeIntervalSince(started) < 2.9)

        // Issue 44: an answer that trickles in is never idle for --timeout; the whole exchange's
        // limit (3 × --timeout) stops it, and the error says that time and that it was coming.
        let trickle = try LoopbackServer { _ in .trickle(every: 0.2, seconds: 10) }
        defer { trickle.stop() }
        let trickleStarted = Date()
        let unfinished = try closet(
            ["--store", ":memory:", "--timeout", "1", "-c", "list photos"],
            environment: ["CLOSET_UNSPLASH_URL": trickle.baseURL, "UNSPLASH_ACCESS_KEY": "k"])
        #expect(
            unfinished.err.hasPrefix(
                "error: the answer from \(trickle.baseURL)/photos?page=1&per_page=15 did not finish within 3 s (a whole exchange may take 3 times --timeout); it was still coming\n"
            ), "\(unfinished.err)")
        #expect(Date().timeIntervalSince(trickleStarted) < 6)

        let refused = try LoopbackServer { _ in .json("[]") }
        refused.stop()
        let noServer = try closet(
            ["--store", ":memory:", "-c", "list photos"],
            environment: ["CLOSET_UNSPLASH_URL": refused.baseURL, "UNSPLASH_ACCESS_KEY": "k"])
        #expect(noServer.err.hasPrefix("error: cannot connect to 127.0.0.1:\(refused.port): connection refused\n"))
    }

    @Test(.enabled(if: enabled)) func testRecordIsRefusedInCI() throws {
        let refused = try closet(["test", "--record", "Tests/Golden/photos"], environment: ["CI": "true"])
        #expect(refused.status == 2)
        #expect(refused.out.contains("'closet test --record' refuses to run with CI=true"))
    }

    /// The point of the helper: the shell itself never loads libcurl (5–10 ms and ~10 MB
    /// in every process).
    @Test(.enabled(if: enabled)) func theShellDoesNotLinkFoundationNetworking() throws {
        let ldd = Process()
        ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
        ldd.arguments = [ProcessTests.binary]
        let output = Pipe()
        ldd.standardOutput = output
        try ldd.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        ldd.waitUntilExit()
        #expect(text.contains("libc.so"))
        #expect(!text.contains("FoundationNetworking") && !text.contains("libcurl"))
    }
}
