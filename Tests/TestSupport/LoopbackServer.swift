import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on 127.0.0.1 and a free port, inside the test process: tests of the
/// live path and of packs against "real" APIs talk to it. Each connection gets a thread and
/// one exchange (`Connection: close`); the handler decides the answer. Call `stop()` when
/// done (the accepting thread holds the server).
package final class LoopbackServer: @unchecked Sendable {
    package struct Request: Sendable {
        package var method: String
        /// The path and query as sent (`/photos?page=1`).
        package var target: String
        package var headers: [(name: String, value: String)]
        package var body: Data

        package init(method: String, target: String, headers: [(name: String, value: String)], body: Data) {
            self.method = method
            self.target = target
            self.headers = headers
            self.body = body
        }

        package func header(_ name: String) -> String? {
            headers.last { $0.name.lowercased() == name.lowercased() }?.value
        }

        package var path: String { String(target.split(separator: "?", maxSplits: 1).first ?? "") }

        /// The query's items, percent-decoded.
        package var query: [String: String] {
            var items: [String: String] = [:]
            guard let mark = target.firstIndex(of: "?") else { return items }
            for pair in target[target.index(after: mark)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
                items[parts[0]] = parts.count > 1 ? parts[1] : ""
            }
            return items
        }
    }

    package indirect enum Action: Sendable {
        case respond(status: Int, headers: [String: String], body: Data)
        /// Waits, then acts.
        case delay(Double, Action)
        /// Sends the status and headers promising `declared` bytes, then `sent` bytes, then closes.
        case closeMidBody(declared: Int, sent: Data)
        /// Closes the connection without answering.
        case hangUp
        /// Sends these bytes as they are (a head and body of the test's making), then closes.
        case raw(Data)
        /// A chunked body that never ends: 64 KB chunks until the client goes away or
        /// `seconds` pass.
        case endlessChunks(seconds: Double)
        /// A chunked body of one byte every `every` seconds, for `seconds`: never idle long
        /// enough to time out, never finished.
        case trickle(every: Double, seconds: Double)
        /// Accepts and reads the request, then says nothing for `seconds`.
        case silence(seconds: Double)

        package static func json(_ text: String, status: Int = 200) -> Action {
            .respond(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
    }

    package let port: Int
    package var baseURL: String { "http://127.0.0.1:\(port)" }
    private let listener: Int32
    private let handler: @Sendable (Request) -> Action
    private let lock = NSLock()
    private var received: [Request] = []
    private var stopped = false

    /// Every request so far, in the order they arrived.
    package var requests: [Request] {
        lock.lock()
        defer { lock.unlock() }
        return received
    }

    package init(handler: @escaping @Sendable (Request) -> Action) throws {
        self.handler = handler
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServerError.socket(errno) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 64) == 0 else {
            close(fd)
            throw ServerError.socket(errno)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    package func stop() {
        lock.lock()
        let wasStopped = stopped
        stopped = true
        lock.unlock()
        // Shutting down wakes the accepting thread, which closes the socket itself: closing it
        // here would free its number for another server's socket while that thread could
        // still accept on it (and answer another test's requests).
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private var isStopped: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopped
    }

    package enum ServerError: Error { case socket(Int32) }

    private func acceptLoop() {
        defer { close(listener) }
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR, !isStopped { continue }
                return
            }
            if isStopped {
                close(connection)
                return
            }
            let thread = Thread { [self] in serve(connection) }
            thread.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        guard let request = readRequest(connection) else { return }
        lock.lock()
        received.append(request)
        lock.unlock()
        perform(handler(request), on: connection)
    }

    private func perform(_ action: Action, on connection: Int32) {
        switch action {
        case .delay(let seconds, let next):
            Thread.sleep(forTimeInterval: seconds)
            perform(next, on: connection)
        case .hangUp:
            return
        case .respond(let status, let headers, let body):
            var head = "HTTP/1.1 \(status) Status\r\n"
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) { head += "\(name): \(value)\r\n" }
            head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            write(Data(head.utf8) + body, to: connection)
        case .raw(let bytes):
            write(bytes, to: connection)
        case .endlessChunks(let seconds):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            guard write(Data(head.utf8), to: connection) else { return }
            let chunk = Data("10000\r\n".utf8) + Data(repeating: 0x20, count: 0x10000) + Data("\r\n".utf8)
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !isStopped, write(chunk, to: connection) {}
        case .trickle(let every, let seconds):
            let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
            guard write(Data(head.utf8), to: connection) else { return }
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !isStopped, write(Data("1\r\n \r\n".utf8), to: connection) {
                Thread.sleep(forTimeInterval: every)
            }
        case .silence(let seconds):
            let end = Date().addingTimeInterval(seconds)
            while Date() < end, !isStopped { Thread.sleep(forTimeInterval: 0.05) }
        case .closeMidBody(let declared, let sent):
            let head =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(declared)\r\nConnection: close\r\n\r\n"
            write(Data(head.utf8) + sent, to: connection)
        }
    }

    /// False once the client has gone away.
    @discardableResult
    private func write(_ data: Data, to connection: Int32) -> Bool {
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if sent <= 0 { return false }
                offset += sent
            }
            return true
        }
    }

    private func readRequest(_ connection: Int32) -> Request? {
        var buffer = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65536)
        func fill() -> Bool {
            let got = recv(connection, &chunk, chunk.count, 0)
            guard got > 0 else { return false }
            buffer += chunk[0..<got]
            return true
        }
        let separator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            guard fill() else { return nil }
            if buffer.count >= 4 {
                headEnd = (0...(buffer.count - 4)).first { Array(buffer[$0..<$0 + 4]) == separator }
            }
        }
        guard let end = headEnd, let head = String(bytes: buffer[0..<end], encoding: .utf8) else { return nil }
        let lines = head.components(separatedBy: "\r\n")
        let requestLine = lines[0].split(separator: " ")
        guard requestLine.count >= 2 else { return nil }
        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append(
                (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        var body = Array(buffer[(end + 4)...])
        let length = Int(headers.last { $0.name.lowercased() == "content-length" }?.value ?? "0") ?? 0
        while body.count < length {
            let before = buffer.count
            guard fill() else { break }
            body += buffer[before...]
        }
        return Request(
            method: String(requestLine[0]), target: String(requestLine[1]), headers: headers, body: Data(body))
    }
}
