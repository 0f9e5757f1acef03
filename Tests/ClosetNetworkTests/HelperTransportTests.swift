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

    /// Issue 45: a helper that ended while idle (killed; before it had a process group of its
    /// own, the terminal's Ctrl-C ended it) is started again at the next request instead of
    /// the request failing as cancelled.
    @Test func aHelperEndedWhileIdleIsStartedAgain() throws {
        let server = try LoopbackServer { request in .json(#"{"path":"\#(request.path)"}"#) }
        defer { server.stop() }
        let transport = HelperTransport(timeoutSeconds: 2, userAgent: "closet/test", helperPath: Self.helperPath)
        _ = try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/first"))
        let first = try #require(transport.helperProcess)
        // SIGKILL stands for the terminal's SIGINT: a test runner's threads may start children
        // with SIGINT blocked or ignored.
        kill(first, SIGKILL)
        // Ended, not yet reaped: the transport finds it so at the next request. SIGKILL ends
        // the threads one by one (the main thread can show as a zombie in /proc while others
        // still run, and waitpid says "running" until the last is gone), so wait, up to 10 s,
        // until the process can be reaped, without reaping it (WNOWAIT).
        var info = siginfo_t()
        var waited = 0
        var reapable = false
        while !reapable, waited < 1000 {
            // -1 (ECHILD): reaped already by another waiter in this process, also ended.
            let result = waitid(P_PID, id_t(first), &info, WEXITED | WNOHANG | WNOWAIT)
            reapable = result == -1 || info._sifields._sigchld.si_pid == first
            if !reapable { usleep(10_000) }
            waited += 1
        }
        #expect(reapable, "the killed helper did not end within 10 s")
        let response = try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/second"))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"path":"/second"}"#)
        #expect(transport.helperProcess != nil && transport.helperProcess != first)
    }

    /// Issue 45, item 1: the helper runs in a process group of its own (the terminal's Ctrl-C
    /// never reaches it), and closet cancels a request waiting for it when Ctrl-C is pressed:
    /// the request fails as cancelled at once, and the next one is answered.
    @Test func ctrlCCancelsTheRequestAndTheHelperIsItsOwnGroup() throws {
        let server = try LoopbackServer { request in
            request.path == "/slow" ? .delay(3, .json("{}")) : .json(#"{"path":"\#(request.path)"}"#)
        }
        defer { server.stop() }
        let transport = HelperTransport(timeoutSeconds: 5, userAgent: "closet/test", helperPath: Self.helperPath)
        _ = try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/first"))
        let helper = try #require(transport.helperProcess)
        #expect(getpgid(helper) == helper && getpgid(helper) != getpgrp())
        let pressed = Date().addingTimeInterval(0.3)
        transport.interrupted = { Date() >= pressed }
        let started = Date()
        #expect(throws: NetworkError.cancelled(method: "GET", url: server.baseURL + "/slow")) {
            try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/slow"))
        }
        #expect(Date().timeIntervalSince(started) < 1.5)
        transport.interrupted = { false }
        let response = try transport.send(HTTPRequest(.get, api: "t", base: server.baseURL, path: "/after"))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"path":"/after"}"#)
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

    /// Issue 25, item 4: Ctrl-C during a live request reaches the helper (it shares the
    /// terminal); the request is reported as cancelled, not as a helper that failed.
    @Test func aHelperInterruptedByCtrlCIsACancelledRequest() throws {
        let script = NSTemporaryDirectory() + "closet-interrupted-helper-\(UUID().uuidString)"
        try "#!/bin/sh\nsleep 0.2\nkill -INT $$\n".write(toFile: script, atomically: true, encoding: .utf8)
        chmod(script, 0o755)
        let transport = HelperTransport(timeoutSeconds: 5, userAgent: "closet/test", helperPath: script)
        // A child another test forks meanwhile may inherit the script's write descriptor for a
        // moment ("Text file busy"): that is the test's race, not the transport's; try again.
        var outcome: NetworkError?
        for _ in 0..<40 {
            do {
                _ = try transport.send(HTTPRequest.get(url: "http://127.0.0.1:1/slow"))
                outcome = nil
            } catch {
                outcome = error
            }
            guard case .helper(let reason)? = outcome, reason.contains("Text file busy") else { break }
            usleep(50_000)
        }
        #expect(outcome == .cancelled(method: "GET", url: "http://127.0.0.1:1/slow"))
        #expect(NetworkError.cancelled(method: "GET", url: "u").message == "cancelled (Ctrl-C): GET u did not finish")
    }
}
