import ClosetNetwork
import Foundation
import TestSupport
import Testing

/// Issue 22: the network helper against servers that attack it. Every answer is bounded as
/// it arrives (a gzip bomb is never inflated, an endless body is given up at the limit), and
/// waiting on a silent server costs no CPU. The helper runs as the shell runs it, a process
/// of its own, so its peak memory and CPU time can be read from /proc.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: HelperPath.path)))
struct HostileServerTests {
    /// A running helper, spoken to over its standard input and output.
    final class Helper {
        let process = Process()
        /// Our end of the socket pair; the helper has the other as its standard input and output.
        let socket: Int32

        init() throws {
            var pair: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
            socket = pair[0]
            let theirs = FileHandle(fileDescriptor: pair[1], closeOnDealloc: true)
            process.executableURL = URL(fileURLWithPath: HelperPath.path)
            process.standardInput = theirs
            process.standardOutput = theirs
            try process.run()
            try theirs.close()
        }

        func send(_ request: PreparedRequest) throws -> ExchangeResult {
            try FrameChannel(fd: socket).write(WireFormat.encode(request))
            let frame = try FrameChannel(fd: socket).read(deadline: Date().addingTimeInterval(60))
            return try #require(WireFormat.decodeResult(frame))
        }

        /// The peak resident memory, in bytes (`VmHWM`).
        var peakMemory: Int {
            let status =
                (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
            return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
        }

        /// User and system CPU time so far, in seconds.
        var cpuSeconds: Double {
            let stat = (try? String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)) ?? ""
            // Fields after the command name, which is in parentheses: utime is the 14th field.
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
            return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        deinit {
            close(socket)
            process.waitUntilExit()
        }
    }

    func request(_ url: String, limit: Int = 4 << 20, timeout: Int = 10) -> PreparedRequest {
        PreparedRequest(
            method: "GET", url: url, displayURL: url, headers: [], body: nil, timeoutSeconds: timeout,
            maximumResponseBytes: limit)
    }

    /// 256 MB of zeros, gzipped (about 250 KB): made by Python's gzip, the reference tool.
    static func gzipBomb() throws -> Data {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = [
            "python3", "-c", "import gzip,sys; sys.stdout.buffer.write(gzip.compress(bytes(256 << 20), 1))",
        ]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let bomb = out.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        try #require(python.terminationStatus == 0 && bomb.count > 1000)
        return bomb
    }

    @Test func aGzipBombIsNeverInflated() throws {
        let bomb = try Self.gzipBomb()
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(bomb.count)\r\n\r\n"
        let server = try LoopbackServer { _ in .raw(Data(head.utf8) + bomb) }
        defer { server.stop() }
        let helper = try Helper()
        let result = try helper.send(request(server.baseURL + "/bomb"))
        guard case .response(let response) = result else {
            Issue.record("\(result)")
            return
        }
        // Passed on as sent: the helper asked for identity and inflates nothing.
        #expect(response.body == bomb)
        #expect(server.requests.first?.header("Accept-Encoding") == "identity")
        #expect(helper.peakMemory < 120 << 20, "\(helper.peakMemory)")
    }

    @Test func anEndlessBodyIsGivenUpAtTheLimit() throws {
        let server = try LoopbackServer { _ in .endlessChunks(seconds: 20) }
        defer { server.stop() }
        let helper = try Helper()
        let started = Date()
        let result = try helper.send(request(server.baseURL + "/endless", limit: 4 << 20))
        #expect(
            result
                == .failure(.failed, "the answer is larger than 4MB (--max-response); it was not read to its end"))
        #expect(Date().timeIntervalSince(started) < 10)
        #expect(helper.peakMemory < 120 << 20, "\(helper.peakMemory)")
        // A declared length past the limit is refused before its body is read.
        let declared = try LoopbackServer { _ in .closeMidBody(declared: 5 << 20, sent: Data()) }
        defer { declared.stop() }
        #expect(
            try helper.send(request(declared.baseURL + "/big", limit: 4 << 20))
                == .failure(.failed, "the answer is larger than 4MB (--max-response); it was not read to its end"))
    }

    @Test func waitingOnASilentServerCostsNoCPU() throws {
        let server = try LoopbackServer { _ in .silence(seconds: 5) }
        defer { server.stop() }
        let helper = try Helper()
        let before = helper.cpuSeconds
        let result = try helper.send(request(server.baseURL + "/silent", timeout: 2))
        #expect(result == .failure(.timedOut, ""))
        let spent = helper.cpuSeconds - before
        #expect(spent >= 0 && spent < 0.3, "the helper used \(spent) s of CPU while waiting 2 s")
    }

    /// Hostile heads: never a trap, always one failure naming what was wrong.
    @Test func malformedAnswersAreOneFailureEach() throws {
        let cases: [(String, String)] = [
            ("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "the answer's chunked body is malformed"),
            (
                "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
                "the answer's Content-Length is not one number"
            ),
            ("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "the answer's Content-Length is not one number"),
            ("SMTP ready\r\n\r\n", "the answer was not HTTP"),
            ("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf", "the connection closed before the whole answer came"),
            (
                "HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 70_000) + "\r\n\r\n",
                "the answer's headers are longer than 64KB"
            ),
            ("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n", "the answer has a header line that is not a header"),
        ]
        let helper = try Helper()
        for (answer, expected) in cases {
            let server = try LoopbackServer { _ in .raw(Data(answer.utf8)) }
            defer { server.stop() }
            let result = try helper.send(request(server.baseURL + "/x"))
            #expect(result == .failure(.failed, expected), "\(answer.prefix(40)): \(result)")
        }
        let empty = try LoopbackServer { _ in .hangUp }
        defer { empty.stop() }
        #expect(
            try helper.send(request(empty.baseURL + "/x"))
                == .failure(.failed, "the server closed the connection without answering"))
    }
}
