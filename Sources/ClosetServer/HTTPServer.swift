import CServerSupport
import ClosetNetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// An HTTP/1.1 server: one thread does only I/O (non-blocking sockets under epoll, `poll` where
/// there is none: `EventPoller`; keep-alive,
/// pipelining, `Content-Length` and chunked bodies through `RequestReader`, `100 Continue`), and
/// requests run on a bounded pool of worker threads in lanes (`WorkerPool`) that the caller's
/// `dispatch` chooses. A connection has at most one request with a worker; its next request is
/// read only once that one is answered and its answer has mostly drained (backpressure: a
/// client that sends without reading is not read further). Bounded everywhere:
///
/// - connections in all and per address; at a cap, the connection waiting longest on its client
///   (idle keep-alive, or a request trickling in) is closed to make room, so slow or idle
///   clients cannot lock others out; with none such, a `503`;
/// - the bytes held for requests across every connection (`maximumHeldBytes`): a body that
///   would go past it is refused with a `503` before it is read;
/// - header and body sizes (431, 413), answers waiting to be sent per connection;
/// - time: a request must arrive within `requestTimeout` of its first byte (`408`), an idle
///   keep-alive connection or one that reads nothing of its answer is closed after `idleTimeout`.
///
/// Refusals the server makes itself are shaped by the caller (`refusal`), so a client gets the
/// error shape of the API it was talking to.
public final class HTTPServer {
    public struct Configuration: Sendable {
        public var host = "127.0.0.1"
        public var port = 8080
        public var maximumConnections = 1024
        public var maximumConnectionsPerAddress = 256
        public var requestTimeout: Double = 10
        public var idleTimeout: Double = 30
        public var limits = RequestReader.Limits()
        /// Answer bytes a connection may have waiting before its next request is read.
        public var maximumPendingOutput = 1 << 20
        /// Request bytes held across every connection (bodies arriving, their announced rest).
        public var maximumHeldBytes = 256 << 20
        /// Worker threads per lane.
        public var lanes: [Int] = [1]
        /// Lanes whose threads run at a lower priority (nice 10): their CPU-heavy work (password
        /// hashing) yields to the other lanes' when cores are few, and runs at full speed when not.
        public var yieldingLanes: Set<Int> = []

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
        /// The response as `wire` writes it for a keep-alive request that is not HEAD, when it
        /// was made once before (a kept answer): written as it is. The response beside it may
        /// leave its body to these bytes (a kept answer holds its body once).
        public var wired: Wired?

        public init(
            _ response: HTTPResponse, dropMidBody: Bool = false, closeWithoutAnswer: Bool = false, delay: Double = 0
        ) {
            self.response = response
            self.dropMidBody = dropMidBody
            self.closeWithoutAnswer = closeWithoutAnswer
            self.delay = delay
        }

        /// The response with its body, taken from `wired` when only the wired bytes carry it.
        var whole: HTTPResponse {
            guard let wired, response.body.isEmpty, wired.bodyStart < wired.bytes.count else { return response }
            var whole = response
            whole.body = wired.body
            return whole
        }
    }

    /// A response as `wire` writes it for a keep-alive request, and where its body starts in
    /// those bytes.
    public struct Wired: Sendable {
        public var bytes: [UInt8]
        public var bodyStart: Int

        public init(_ response: HTTPResponse) {
            bytes = HTTPServer.wire(response, keepAlive: true)
            let bodiless = response.status == 204 || response.status == 304
            bodyStart = bytes.count - (bodiless ? 0 : response.body.count)
        }

        public var body: Data { Data(bytes[bodyStart...]) }
    }

    /// The thread a job runs on: its lane and its number in the lane (each may keep state of
    /// its own, such as a store session, and is never run twice at once).
    public struct Worker: Sendable, Hashable {
        public var lane: Int
        public var index: Int

        public init(lane: Int, index: Int) {
            self.lane = lane
            self.index = index
        }
    }

    /// What to do with a request, decided on the I/O thread (cheaply: no store, no hashing).
    public enum Work {
        /// Answered at once (a kept answer, a refusal).
        case answer(Answer)
        /// Run on a worker of that lane.
        case run(lane: Int, @Sendable (Worker) -> Answer)
    }

    /// A refusal's response: its status, reason, and the request's method and path when its
    /// head was read.
    public typealias Refusal = (Int, String, (method: String, path: String)?) -> HTTPResponse

    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    public let configuration: Configuration
    /// The port listened on (the one the system chose when 0 was asked for).
    public private(set) var port: Int
    let listener: Int32
    var connections: [Int32: ServerConnection] = [:]
    var byID: [UInt64: ServerConnection] = [:]
    var perAddress: [String: Int] = [:]
    /// Connection ids start above the listener's and the wake pipe's tags.
    var nextID: UInt64 = 2
    /// Connections with an answer held back (`--latency`).
    var holding: Set<UInt64> = []
    let poller = EventPoller()
    var heldBytes = 0
    var draining = false
    let dispatch: (ServedRequest) -> Work
    /// Called on the I/O thread each time it wakes with something to do, before any request is
    /// dispatched: every request dispatched after it arrived before it (a handler keeping
    /// answers looks here, once, at what may have changed).
    public var awoke: (() -> Void)?
    let refusal: Refusal
    let pool: WorkerPool
    /// One read buffer for every connection (the loop is one thread).
    var readBuffer = [UInt8](repeating: 0, count: 65536)

    public init(
        _ configuration: Configuration, refusal: @escaping Refusal = HTTPServer.plainRefusal,
        dispatch: @escaping (ServedRequest) -> Work
    ) throws(StartError) {
        self.configuration = configuration
        self.dispatch = dispatch
        self.refusal = refusal
        signal(SIGPIPE, SIG_IGN)
        Self.raiseDescriptorLimit()
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
        port = Self.port(of: bound)
        listener = socket
        pool = WorkerPool(threadsPerLane: configuration.lanes, yieldingLanes: configuration.yieldingLanes)
    }

    deinit {
        for fd in connections.keys { close(fd) }
        close(listener)
    }

    /// For a job that cannot go on (damage met where nothing can unwind): answers it, puts a
    /// new thread in this worker's place, and never returns. Only on a worker's thread.
    public func retireWorker(answering answer: Answer) -> Never { pool.retire(answering: answer) }

    /// Workers retired so far.
    public var retiredWorkers: Int { pool.retiredCount }

    /// No job is queued or running: after `run`, the sessions are the caller's again.
    public var isIdle: Bool { pool.busy == 0 }

    /// Lowers the calling thread's priority by `niceness` (Linux; nothing elsewhere): for work the
    /// server's own threads must not wait behind, such as a compaction in the background.
    public static func lowerThisThreadsPriority(by niceness: Int32) {
        _ = closet_lower_thread_priority(niceness)
    }

    /// A server's refusal as plain text, when the caller has no shape of its own.
    public static func plainRefusal(_ status: Int, _ reason: String, _ target: (method: String, path: String)?)
        -> HTTPResponse
    {
        HTTPResponse.text(reason + "\n", status: status)
    }

    /// Every connection is a descriptor: the soft limit (often 1,024) is raised to the hard one.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = min(limit.rlim_max, 1 << 16)
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    static func port(of address: sockaddr_storage) -> Int {
        var address = address
        return Int(
            address.ss_family == sa_family_t(AF_INET6)
                ? withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin6_port) }
                }
                : withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt16(bigEndian: $0.pointee.sin_port) }
                })
    }

    static func text(of address: sockaddr_storage) -> String {
        var address = address
        let family = address.ss_family
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let capacity = socklen_t(text.count)
        withUnsafeMutablePointer(to: &address) { pointer in
            if family == sa_family_t(AF_INET6) {
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    _ = inet_ntop(AF_INET6, &$0.pointee.sin6_addr, &text, capacity)
                }
            } else {
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    _ = inet_ntop(AF_INET, &$0.pointee.sin_addr, &text, capacity)
                }
            }
        }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    static func makeNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    // MARK: the loop

    /// Serves until `stop` says so (checked at least four times a second, and after every
    /// signal); then stops accepting and reading, lets the workers finish what they run (10 s
    /// at most), writes what was answered (2 s more at most), and returns.
    public func run(until stop: () -> Bool) {
        var lastSweep = Self.now()
        var drainDeadline = Double.infinity
        poller.watch(listener, tag: Self.listenerTag, readable: true, writable: false)
        poller.watch(pool.wakeRead, tag: Self.wakeTag, readable: true, writable: false)
        while true {
            if !draining, stop() {
                draining = true
                drainDeadline = Self.now() + 10
                poller.unwatch(listener)
                // Nothing more is read: every connection now waits only to write.
                for connection in connections.values { updateInterest(connection) }
            }
            if draining {
                // What the workers run is finished and held answers released; what is left to
                // send gets two seconds below (a client that reads nothing holds no one up).
                if pool.busy == 0, holding.isEmpty { break }
                if Self.now() > drainDeadline { break }
            }
            var nextRelease = Double.infinity
            for id in holding { nextRelease = min(nextRelease, byID[id]?.heldUntil ?? .infinity) }
            let wait = nextRelease.isFinite ? max(0, min(250, Int32((nextRelease - Self.now()) * 1000) + 1)) : 250
            let ready = poller.wait(milliseconds: wait)
            if !ready.isEmpty { awoke?() }
            let now = Self.now()
            for id in Array(holding) {
                guard let connection = byID[id] else {
                    holding.remove(id)
                    continue
                }
                if (connection.heldUntil ?? .infinity) <= now { release(connection, now: now) }
            }
            for event in ready {
                switch event.tag {
                case Self.listenerTag:
                    if !draining { accept(now: now) }
                case Self.wakeTag:
                    for finished in pool.takeFinished() { complete(finished, now: now) }
                default:
                    guard let connection = byID[event.tag] else { continue }
                    if event.failed, connection.inFlight {
                        // Gone while a worker runs its request: nothing to wait for until the
                        // answer comes (then writing it fails and the connection is dropped).
                        poller.unwatch(connection.fd)
                        connection.watching = nil
                        continue
                    }
                    if event.writable { flush(connection, now: now) }
                    if byID[event.tag] != nil, event.readable || event.failed { pump(connection, now: now) }
                }
            }
            if now - lastSweep >= 0.25 {
                sweep(now: now)
                lastSweep = now
            }
        }
        pool.stop()
        let deadline = Self.now() + 2
        while connections.values.contains(where: { $0.pendingOutput > 0 }), Self.now() < deadline {
            for connection in Array(connections.values) where connection.pendingOutput > 0 {
                flush(connection, now: Self.now())
            }
            usleep(1000)
        }
        for connection in Array(connections.values) { drop(connection) }
    }

    static let listenerTag: UInt64 = 0
    static let wakeTag: UInt64 = 1

    /// Waits on the connection for what it can do now: read while it may take a request,
    /// write while an answer waits.
    func updateInterest(_ connection: ServerConnection) {
        guard byID[connection.id] != nil, let current = connection.watching else { return }
        let wanted = (readable: wantsRead(connection), writable: connection.pendingOutput > 0)
        guard wanted != current else { return }
        poller.change(connection.fd, tag: connection.id, readable: wanted.readable, writable: wanted.writable)
        connection.watching = wanted
    }

    func wantsRead(_ connection: ServerConnection) -> Bool {
        !draining && !connection.inFlight && !connection.closeAfterWrite && connection.heldUntil == nil
            && connection.pendingOutput <= configuration.maximumPendingOutput
    }

    // MARK: connections

    func accept(now: Double) {
        while true {
            var peer = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let fd = withUnsafeMutablePointer(to: &peer) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
            }
            guard fd >= 0 else { return }
            Self.makeNonBlocking(fd)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var yes: Int32 = 1
            setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
            let address = Self.text(of: peer)
            // At a cap, the connection waiting longest on its client makes room.
            if (perAddress[address] ?? 0) >= configuration.maximumConnectionsPerAddress,
                !evictStalest(among: address)
            {
                refuseAtOnce(fd, "too many connections from \(address)")
                continue
            }
            if connections.count >= configuration.maximumConnections, !evictStalest(among: nil) {
                refuseAtOnce(fd, "too many connections")
                continue
            }
            let connection = ServerConnection(
                id: nextID, fd: fd, address: address, limits: configuration.limits, now: now)
            nextID += 1
            connections[fd] = connection
            byID[connection.id] = connection
            perAddress[address, default: 0] += 1
            poller.watch(fd, tag: connection.id, readable: true, writable: false)
            connection.watching = (true, false)
        }
    }

    func refuseAtOnce(_ fd: Int32, _ reason: String) {
        let bytes = Self.wire(refusal(503, reason, nil), keepAlive: false)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }

    /// Closes the connection (of `address`, or any) that has waited longest on its client;
    /// false when every one is busy with the server.
    func evictStalest(among address: String?) -> Bool {
        var stalest: ServerConnection?
        for connection in connections.values where connection.isWaitingOnClient {
            if let address, connection.address != address { continue }
            if stalest.map({ connection.lastActivity < $0.lastActivity }) ?? true { stalest = connection }
        }
        guard let stalest else { return false }
        if stalest.reader.isMidRequest {
            let bytes = Self.wire(
                refusal(503, "the server needed this connection's place", stalest.reader.currentTarget),
                keepAlive: false)
            _ = bytes.withUnsafeBytes { send(stalest.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
        drop(stalest)
        return true
    }

    /// Reads and answers what the connection has sent, one request at a time, until it must
    /// wait: for more bytes, for a worker's answer, or for its answers to drain.
    func pump(_ connection: ServerConnection, now: Double) {
        reading: while byID[connection.id] != nil, wantsRead(connection) {
            switch connection.reader.next() {
            case .needMore:
                if connection.reader.takeContinue() {
                    queue(connection, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
                }
                if !connection.reader.isMidRequest { connection.requestStarted = nil }
                guard account(connection) else { break reading }
                let count = readBuffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
                if count > 0 {
                    connection.lastActivity = now
                    if connection.requestStarted == nil { connection.requestStarted = now }
                    readBuffer.withUnsafeBytes {
                        connection.reader.feed(UnsafeRawBufferPointer(rebasing: $0[0..<count]))
                    }
                    continue
                }
                if count < 0, errno == EINTR { continue }
                if count < 0, errno == EAGAIN || errno == EWOULDBLOCK { break reading }
                // The client closed its side (or the connection failed): what was answered
                // still goes out, then it is closed.
                if connection.pendingOutput > 0 {
                    connection.closeAfterWrite = true
                } else {
                    drop(connection)
                    return
                }
            case .refused(let refused):
                let response = refusal(refused.status, refused.reason, connection.reader.currentTarget)
                queue(connection, Self.wire(response, keepAlive: false))
                connection.closeAfterWrite = true
            case .request(var request, let keepAlive):
                connection.requestStarted = connection.reader.isMidRequest ? now : nil
                _ = account(connection)
                request.client = connection.address
                let head = request.method == "HEAD"
                switch dispatch(request) {
                case .answer(let answer):
                    deliver(answer, to: connection, keepAlive: keepAlive, head: head, now: now)
                case .run(let lane, let body):
                    connection.inFlight = true
                    pool.submit(
                        WorkerPool.Job(connection: connection.id, keepAlive: keepAlive, head: head, run: body),
                        lane: lane)
                }
            }
            if connection.closeAfterWrite { break reading }
        }
        if byID[connection.id] != nil { flush(connection, now: now) }
        updateInterest(connection)
    }

    /// Counts what the connection's reader holds against the server's limit; past it, the
    /// request being read is refused (503) before more of it is read.
    func account(_ connection: ServerConnection) -> Bool {
        let held = connection.reader.heldBytes
        let growth = held - connection.accounted
        if growth > 0, heldBytes + growth > configuration.maximumHeldBytes, connection.reader.isMidRequest {
            let response = refusal(
                503, "the server holds as many request bodies as it can; try again shortly",
                connection.reader.currentTarget)
            queue(connection, Self.wire(response, keepAlive: false))
            connection.closeAfterWrite = true
            return false
        }
        heldBytes += growth
        connection.accounted = held
        return true
    }

    func complete(_ finished: WorkerPool.Finished, now: Double) {
        guard let connection = byID[finished.connection] else { return }
        connection.inFlight = false
        connection.lastActivity = now
        deliver(finished.answer, to: connection, keepAlive: finished.keepAlive, head: finished.head, now: now)
        pump(connection, now: now)
    }

    func deliver(_ answer: Answer, to connection: ServerConnection, keepAlive: Bool, head: Bool, now: Double) {
        var bytes: [UInt8]
        if let wired = answer.wired, keepAlive, !draining, !head {
            bytes = wired.bytes
        } else {
            bytes = Self.wire(answer.whole, keepAlive: keepAlive && !draining, head: head)
        }
        var closing = !keepAlive || draining
        if answer.closeWithoutAnswer {
            bytes = []
            closing = true
        } else if answer.dropMidBody {
            bytes = Array(bytes.prefix(bytes.count - max(1, answer.whole.body.count / 2)))
            closing = true
        }
        if answer.delay > 0 {
            connection.held = bytes
            connection.heldUntil = now + answer.delay
            connection.closeAfterHeld = closing
            holding.insert(connection.id)
            return
        }
        if closing { connection.closeAfterWrite = true }
        queue(connection, bytes)
    }

    /// A held answer goes out, then the requests read meanwhile are answered.
    func release(_ connection: ServerConnection, now: Double) {
        connection.heldUntil = nil
        holding.remove(connection.id)
        queue(connection, connection.held)
        connection.held = []
        if connection.closeAfterHeld { connection.closeAfterWrite = true }
        pump(connection, now: now)
    }

    func queue(_ connection: ServerConnection, _ bytes: [UInt8]) {
        if connection.written == connection.output.count {
            // Nothing waiting: the answer's bytes become the output as they are (no copy; a kept
            // answer's are shared with the cache until something is appended).
            connection.output = bytes
            connection.written = 0
            return
        }
        connection.output += bytes
    }

    func flush(_ connection: ServerConnection, now: Double) {
        while connection.written < connection.output.count {
            let sent = connection.output.withUnsafeBytes { buffer in
                send(
                    connection.fd, buffer.baseAddress.map { $0 + connection.written },
                    buffer.count - connection.written,
                    Int32(MSG_NOSIGNAL))
            }
            if sent > 0 {
                connection.written += sent
                connection.lastActivity = now
                continue
            }
            if sent < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                updateInterest(connection)  // the poller says when to go on
                return
            }
            if sent < 0, errno == EINTR { continue }
            drop(connection)
            return
        }
        if connection.closeAfterWrite, !connection.inFlight {
            shutdown(connection.fd, Int32(SHUT_WR))
            drop(connection)
            return
        }
        updateInterest(connection)
    }

    func drop(_ connection: ServerConnection) {
        guard byID.removeValue(forKey: connection.id) != nil else { return }
        connections.removeValue(forKey: connection.fd)
        holding.remove(connection.id)
        if connection.watching != nil { poller.unwatch(connection.fd) }
        heldBytes -= connection.accounted
        connection.accounted = 0
        if let count = perAddress[connection.address] {
            perAddress[connection.address] = count > 1 ? count - 1 : nil
        }
        close(connection.fd)
    }

    /// Slow clients get a 408; idle keep-alive connections, and ones that read nothing of
    /// their answers, are closed.
    func sweep(now: Double) {
        for connection in Array(connections.values) where !connection.inFlight {
            if let started = connection.requestStarted, now - started > configuration.requestTimeout,
                !connection.closeAfterWrite
            {
                let response = refusal(408, "the request did not arrive in time", connection.reader.currentTarget)
                queue(connection, Self.wire(response, keepAlive: false))
                connection.closeAfterWrite = true
                flush(connection, now: now)
            } else if connection.heldUntil == nil, now - connection.lastActivity > configuration.idleTimeout,
                connection.requestStarted == nil || connection.pendingOutput > 0
            {
                drop(connection)
            }
        }
    }

    /// A response as bytes: the status line, its headers, `Content-Length`, `Connection`, the
    /// body (none for HEAD). A 204 or 304 has neither body nor length (RFC 9110 §8.6: a 304's
    /// length would have to be the 200's).
    public static func wire(_ response: HTTPResponse, keepAlive: Bool, head: Bool = false) -> [UInt8] {
        let bodiless = response.status == 204 || response.status == 304
        let sent = !head && !bodiless
        // Written as bytes into one buffer of the right size (string interpolation and a
        // lowercased copy of each name were a tenth of answering a kept page).
        var bytes: [UInt8] = []
        bytes.reserveCapacity(
            response.headers.reduce(96) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
                + (sent ? response.body.count : 0))
        bytes += "HTTP/1.1 ".utf8
        bytes += String(response.status).utf8
        bytes.append(UInt8(ascii: " "))
        bytes += HTTPResponse.reasonPhrase(for: response.status).utf8
        bytes += "\r\n".utf8
        for header in response.headers
        where
            !(ServedRequest.sameName(header.name, "content-length") || ServedRequest.sameName(header.name, "connection")
            || ServedRequest.sameName(header.name, "transfer-encoding"))
        {
            bytes += header.name.utf8
            bytes += ": ".utf8
            bytes += header.value.utf8
            bytes += "\r\n".utf8
        }
        if !bodiless {
            bytes += "Content-Length: ".utf8
            bytes += String(response.body.count).utf8
            bytes += "\r\n".utf8
        }
        bytes += (keepAlive ? "Connection: keep-alive\r\n\r\n" : "Connection: close\r\n\r\n").utf8
        if sent { bytes += response.body }
        return bytes
    }
}
