import ClosetNetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server on one thread: non-blocking sockets under `poll`, keep-alive and pipelined
/// requests answered in order, `Content-Length` and chunked request bodies (`RequestReader`),
/// `100 Continue` when asked. The handler runs on the loop's thread, one request at a time, so
/// what it reads and writes (a store) needs no lock. Bounded everywhere: connections
/// (`maximumConnections`; past it a `503` and close), header and body sizes (431, 413), and
/// time (a request must arrive within `requestTimeout` of its first byte, else `408`; an idle
/// keep-alive connection is closed after `idleTimeout`).
public final class HTTPServer {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        public var maximumConnections = 512
        public var requestTimeout: Double = 10
        public var idleTimeout: Double = 30
        public var limits = RequestReader.Limits()

        public init() {}
    }

    /// What a handler says of a request: the response, and whether to cut the connection
    /// mid-body instead (a fault on purpose).
    public struct Answer: Sendable {
        public var response: HTTPResponse
        public var dropMidBody = false
        /// Close the connection without a byte of the answer.
        public var closeWithoutAnswer = false
        /// Seconds to hold the answer back (a slow server on purpose); other connections are
        /// served meanwhile, and this one's later requests wait their turn.
        public var delay: Double = 0

        public init(
            _ response: HTTPResponse, dropMidBody: Bool = false, closeWithoutAnswer: Bool = false, delay: Double = 0
        ) {
            self.response = response
            self.dropMidBody = dropMidBody
            self.closeWithoutAnswer = closeWithoutAnswer
            self.delay = delay
        }
    }

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    final class Connection {
        let fd: Int32
        var reader: RequestReader
        var output: [UInt8] = []
        var written = 0
        var closeAfterWrite = false
        var lastActivity: Double
        var requestStarted: Double?
        /// An answer held back until `heldUntil`, and whether to close after it.
        var held: [UInt8] = []
        var heldUntil: Double?
        var closeAfterHeld = false

        init(fd: Int32, limits: RequestReader.Limits, now: Double) {
            self.fd = fd
            reader = RequestReader(limits: limits)
            lastActivity = now
        }
    }

    public let configuration: Configuration
    /// The port listened on (the one the system chose when 0 was asked for).
    public private(set) var port: Int
    let listener: Int32
    var connections: [Int32: Connection] = [:]
    let handler: (ServedRequest) -> Answer
    /// One read buffer for every connection (the loop is one thread).
    var readBuffer = [UInt8](repeating: 0, count: 65536)

    public init(_ configuration: Configuration, handler: @escaping (ServedRequest) -> Answer) throws(StartError) {
        self.configuration = configuration
        self.handler = handler
        signal(SIGPIPE, SIG_IGN)
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(configuration.host, String(configuration.port), &hints, &found) == 0, let address = found
        else {
            throw StartError(description: "cannot listen on '\(configuration.host)': not a host this machine has")
        }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(
            address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else {
            throw StartError(description: "cannot open a socket: \(String(cString: strerror(errno)))")
        }
        var yes: Int32 = 1
        setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard bind(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(socket)
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port): \(reason)")
        }
        guard listen(socket, 1024) == 0 else {
            close(socket)
            throw StartError(description: "cannot listen: \(String(cString: strerror(errno)))")
        }
        Self.makeNonBlocking(socket)
        var bound = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        withUnsafeMutablePointer(to: &bound) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(socket, $0, &length) }
        }
        port = Int(
            bound.ss_family == sa_family_t(AF_INET6)
                ? withUnsafePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                }
                : withUnsafePointer(to: &bound) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                })
        listener = socket
    }

    deinit {
        for fd in connections.keys { close(fd) }
        close(listener)
    }

    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Serves until `stop` says so (checked at least four times a second, and after every
    /// signal); then stops accepting, finishes writing what was answered, and returns.
    public func run(until stop: () -> Bool) {
        var lastSweep = Self.now()
        var polled: [pollfd] = []
        let readable = Int16(POLLIN)
        while !stop() {
            // `poll` over every connection: a few hundred at most, and one array a turn.
            polled.removeAll(keepingCapacity: true)
            polled.append(pollfd(fd: listener, events: readable, revents: 0))
            for connection in connections.values {
                let wantsWrite = connection.written < connection.output.count
                polled.append(
                    pollfd(fd: connection.fd, events: readable | (wantsWrite ? Int16(POLLOUT) : 0), revents: 0))
            }
            let nextRelease = connections.values.compactMap(\.heldUntil).min()
            let wait = nextRelease.map { max(0, min(250, Int32(($0 - Self.now()) * 1000) + 1)) } ?? 250
            let count = poll(&polled, nfds_t(polled.count), wait)
            let now = Self.now()
            for connection in connections.values where (connection.heldUntil ?? .infinity) <= now {
                release(connection, now: now)
            }
            if count > 0 {
                for entry in polled where entry.revents != 0 {
                    if entry.fd == listener {
                        accept(now: now)
                    } else if let connection = connections[entry.fd] {
                        if entry.revents & (readable | Int16(POLLHUP) | Int16(POLLERR)) != 0 {
                            read(connection, now: now)
                        }
                        if connections[entry.fd] != nil, entry.revents & Int16(POLLOUT) != 0 { flush(connection) }
                    }
                }
            }
            if now - lastSweep >= 0.25 {
                sweep(now: now)
                lastSweep = now
            }
        }
        // Finish what was answered (bounded), then close everything.
        let deadline = Self.now() + 2
        while connections.values.contains(where: { $0.written < $0.output.count }), Self.now() < deadline {
            for connection in connections.values where connection.written < connection.output.count {
                flush(connection)
            }
            usleep(1000)
        }
        for fd in Array(connections.keys) { drop(fd) }
    }

    func accept(now: Double) {
        while true {
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else { return }
            Self.makeNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            if connections.count >= configuration.maximumConnections {
                // Over the cap: a plain 503, and the connection closed.
                let refusal = Array(
                    Self.wire(HTTPResponse(status: 503, body: Data("too many connections\n".utf8)), keepAlive: false))
                _ = refusal.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(fd)
                continue
            }
            connections[fd] = Connection(fd: fd, limits: configuration.limits, now: now)
        }
    }

    func read(_ connection: Connection, now: Double) {
        while true {
            let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                connection.lastActivity = now
                if connection.closeAfterWrite { continue }  // a refused connection's rest is ignored
                if connection.requestStarted == nil { connection.requestStarted = now }
                readBuffer.withUnsafeBytes { connection.reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                if count < readBuffer.count { break }
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
                drop(connection.fd)
                return
            }
            if errno == EINTR { continue }
            break
        }
        answer(connection, now: now)
    }

    /// A held answer goes out, then the requests read meanwhile are answered.
    func release(_ connection: Connection, now: Double) {
        connection.heldUntil = nil
        queue(connection, connection.held)
        connection.held = []
        if connection.closeAfterHeld { connection.closeAfterWrite = true }
        answer(connection, now: now)
    }

    /// Every whole request read so far, answered in order.
    func answer(_ connection: Connection, now: Double) {
        while !connection.closeAfterWrite, connection.heldUntil == nil {
            switch connection.reader.next() {
            case .needMore:
                if connection.reader.takeContinue() { queue(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) }
                if !connection.reader.isMidRequest { connection.requestStarted = nil }
                flush(connection)
                return
            case .refused(let refusal):
                let response = HTTPResponse.text(refusal.reason + "\n", status: refusal.status)
                queue(connection, Self.wire(response, keepAlive: false))
                connection.closeAfterWrite = true
            case .request(let request, let keepAlive):
                connection.requestStarted = connection.reader.isMidRequest ? now : nil
                let answer = handler(request)
                var bytes = Self.wire(answer.response, keepAlive: keepAlive, head: request.method == "HEAD")
                var closing = !keepAlive
                if answer.closeWithoutAnswer {
                    bytes = []
                    closing = true
                } else if answer.dropMidBody {
                    bytes = Array(bytes.prefix(bytes.count - max(1, answer.response.body.count / 2)))
                    closing = true
                }
                if answer.delay > 0 {
                    connection.held = bytes
                    connection.heldUntil = now + answer.delay
                    connection.closeAfterHeld = closing
                    break
                }
                if closing { connection.closeAfterWrite = true }
                queue(connection, bytes)
            }
        }
        flush(connection)
    }

    func queue(_ connection: Connection, _ bytes: [UInt8]) {
        if connection.written == connection.output.count {
            connection.output.removeAll(keepingCapacity: true)
            connection.written = 0
        }
        connection.output += bytes
    }

    func flush(_ connection: Connection) {
        while connection.written < connection.output.count {
            let sent = connection.output.withUnsafeBytes {
                send(
                    connection.fd, $0.baseAddress! + connection.written, $0.count - connection.written,
                    Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                connection.written += sent
                continue
            }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK { return }  // poll says when to go on
            if sent < 0, errno == EINTR { continue }
            drop(connection.fd)
            return
        }
        if connection.closeAfterWrite {
            shutdown(connection.fd, Int32(SHUT_WR))
            drop(connection.fd)
        }
    }

    func drop(_ fd: Int32) {
        guard connections.removeValue(forKey: fd) != nil else { return }
        close(fd)
    }

    /// Slow clients get a 408; idle keep-alive connections are closed.
    func sweep(now: Double) {
        for connection in Array(connections.values) {
            if let started = connection.requestStarted, now - started > configuration.requestTimeout,
                !connection.closeAfterWrite
            {
                let response = HTTPResponse(status: 408, body: Data("the request did not arrive in time\n".utf8))
                queue(connection, Self.wire(response, keepAlive: false))
                connection.closeAfterWrite = true
                flush(connection)
            } else if connection.requestStarted == nil, connection.heldUntil == nil,
                connection.written == connection.output.count, now - connection.lastActivity > configuration.idleTimeout
            {
                drop(connection.fd)
            }
        }
    }

    /// A response as bytes: the status line, its headers, `Content-Length`, `Connection`, the
    /// body (none for HEAD). A 204 or 304 has neither body nor length (RFC 9110 §8.6: a 304's
    /// length would have to be the 200's).
    static func wire(_ response: HTTPResponse, keepAlive: Bool, head: Bool = false) -> [UInt8] {
        let bodiless = response.status == 204 || response.status == 304
        var text = "HTTP/1.1 \(response.status) \(HTTPResponse.reasonPhrase(for: response.status))\r\n"
        for header in response.headers
        where !["content-length", "connection", "transfer-encoding"].contains(header.name.lowercased()) {
            text += "\(header.name): \(header.value)\r\n"
        }
        if !bodiless { text += "Content-Length: \(response.body.count)\r\n" }
        text += keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n"
        var bytes = Array(text.utf8)
        if !head, !bodiless { bytes += response.body }
        return bytes
    }
}
