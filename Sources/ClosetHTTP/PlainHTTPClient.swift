import ClosetCore
import ClosetNetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// `http://` exchanges on a socket of our own (RFC 9112), waited on with `poll`: no busy
/// wait while a server is silent (URLSession on Linux keeps a write-readiness source on a
/// connected socket and spins on it), every byte counted against the response limit, and
/// nothing decompressed (it asks for `identity`; a compressed answer is passed on as sent,
/// so no bomb is ever inflated). One request per connection (`Connection: close`).
enum PlainHTTPClient {
    /// The head of an answer (status line and headers) may be at most this long.
    static let maximumHead = 64 << 10

    struct Failure: Error {
        var kind: ExchangeFailure
        var detail: String
        init(_ kind: ExchangeFailure, _ detail: String = "") {
            self.kind = kind
            self.detail = detail
        }
    }

    static func exchange(_ request: PreparedRequest, deadline: Date) -> ExchangeResult {
        do {
            return .response(try perform(request, deadline: deadline))
        } catch {
            return .failure(error.kind, error.detail)
        }
    }

    /// Where an `http://` URL points: host, port, and the request target as written.
    struct Target: Equatable {
        var host: String
        var port: UInt16
        var path: String
        /// The Host header's value.
        var authority: String
    }

    static func target(of url: String) -> Target? {
        guard url.lowercased().hasPrefix("http://") else { return nil }
        let rest = url.dropFirst("http://".count)
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = String(rest[..<authorityEnd])
        var path = String(rest[authorityEnd...])
        if let fragment = path.firstIndex(of: "#") { path = String(path[..<fragment]) }
        if path.isEmpty || path.hasPrefix("?") { path = "/" + path }
        guard !authority.isEmpty, !authority.contains("@"),
            !path.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value >= 0x7F })
        else { return nil }
        var host = authority
        var port: UInt16 = 80
        if authority.hasPrefix("[") {  // [::1]:8080
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = String(authority[authority.index(after: authority.startIndex)..<close])
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":") {
                guard let number = UInt16(after.dropFirst()) else { return nil }
                port = number
            } else if !after.isEmpty {
                return nil
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = String(authority[..<colon])
            guard let number = UInt16(authority[authority.index(after: colon)...]) else { return nil }
            port = number
        }
        guard !host.isEmpty else { return nil }
        return Target(host: host, port: port, path: path, authority: authority)
    }

    static func perform(_ request: PreparedRequest, deadline: Date) throws(Failure) -> HTTPResponse {
        guard let target = target(of: request.url) else {
            throw Failure(.failed, "'\(request.displayURL)' is not a URL")
        }
        let head = try requestHead(request, target: target)
        let connection = try Connection(target, idleSeconds: request.timeoutSeconds, deadline: deadline)
        defer { close(connection.fd) }
        try connection.send(Array(head.utf8) + Array(request.body ?? Data()))
        var reader = ResponseReader(connection: connection, limit: request.maximumResponseBytes)
        return try reader.response(method: request.method)
    }

    /// The request line and headers. Header names and values that would break the framing
    /// (CR, LF, NUL) are refused, never sent.
    static func requestHead(_ request: PreparedRequest, target: Target) throws(Failure) -> String {
        let method = request.method
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter && $0.isASCII }) else {
            throw Failure(.failed, "'\(method)' is not an HTTP method")
        }
        var head = "\(method) \(target.path) HTTP/1.1\r\nHost: \(target.authority)\r\n"
        let ours: Set<String> = ["host", "content-length", "connection", "accept-encoding", "transfer-encoding"]
        for header in request.headers where !ours.contains(header.name.lowercased()) {
            let unsafe = { (text: String) in text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" || $0 == "\0" } }
            guard !header.name.isEmpty, !unsafe(header.name), !unsafe(header.value), !header.name.contains(":") else {
                throw Failure(.failed, "a request header that cannot be sent ('\(header.name)')")
            }
            head += "\(header.name): \(header.value)\r\n"
        }
        if let body = request.body {
            head += "Content-Length: \(body.count)\r\n"
        } else if ["POST", "PUT", "PATCH"].contains(method) {
            head += "Content-Length: 0\r\n"
        }
        head += "Accept-Encoding: identity\r\nConnection: close\r\n\r\n"
        return head
    }

    /// A connected, non-blocking socket; every wait is a `poll` bounded by the idle timeout
    /// and the exchange's deadline.
    struct Connection {
        let fd: Int32
        let idleSeconds: Int
        let deadline: Date

        init(_ target: Target, idleSeconds: Int, deadline: Date) throws(Failure) {
            self.idleSeconds = idleSeconds
            self.deadline = deadline
            var hints = addrinfo()
            hints.ai_family = AF_UNSPEC
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            hints.ai_flags = AI_NUMERICSERV
            var found: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(target.host, String(target.port), &hints, &found) == 0, let first = found else {
                throw Failure(.cannotFindHost)
            }
            defer { freeaddrinfo(first) }
            var refused = false
            var address: UnsafeMutablePointer<addrinfo>? = first
            while let candidate = address {
                address = candidate.pointee.ai_next
                let fd = socket(
                    candidate.pointee.ai_family, candidate.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue), 0)
                guard fd >= 0 else { continue }
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                if connect(fd, candidate.pointee.ai_addr, candidate.pointee.ai_addrlen) == 0 {
                    self.fd = fd
                    return
                }
                guard errno == EINPROGRESS else {
                    refused = refused || errno == ECONNREFUSED
                    close(fd)
                    continue
                }
                do throws(Failure) {
                    try Self.wait(fd, for: Int16(POLLOUT), idleSeconds: idleSeconds, deadline: deadline)
                } catch {
                    close(fd)
                    throw error
                }
                var problem: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(fd, SOL_SOCKET, SO_ERROR, &problem, &length)
                if problem == 0 {
                    self.fd = fd
                    return
                }
                refused = refused || problem == ECONNREFUSED
                close(fd)
            }
            throw Failure(refused ? .connectionRefused : .failed, refused ? "" : "could not connect")
        }

        /// Waits until `fd` is ready for `events`, at most the idle timeout and never past
        /// the deadline.
        static func wait(_ fd: Int32, for events: Int16, idleSeconds: Int, deadline: Date) throws(Failure) {
            while true {
                let left = deadline.timeIntervalSinceNow
                // The whole exchange's time is up (a trickle never idles long enough to time out).
                guard left > 0 else { throw Failure(.timedOut, ExchangeFailure.deadline) }
                let milliseconds = Int32(min(left, Double(idleSeconds)) * 1000 + 1)
                var poller = pollfd(fd: fd, events: events, revents: 0)
                let ready = poll(&poller, 1, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw Failure(.failed, String(cString: strerror(errno)))
                }
                if ready == 0 {
                    throw Failure(.timedOut, deadline.timeIntervalSinceNow <= 0 ? ExchangeFailure.deadline : "")
                }
                return
            }
        }

        func send(_ bytes: [UInt8]) throws(Failure) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes.withUnsafeBytes {
                    Glibc.send(fd, $0.pointer(at: offset), bytes.count - offset, Int32(MSG_NOSIGNAL))
                }
                if sent >= 0 {
                    offset += sent
                    continue
                }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    try Self.wait(fd, for: Int16(POLLOUT), idleSeconds: idleSeconds, deadline: deadline)
                case EPIPE, ECONNRESET:
                    // The server may have answered before reading it all (a 413, say): read on.
                    return
                default: throw Failure(.failed, String(cString: strerror(errno)))
                }
            }
        }

        /// Up to `count` bytes; empty at the end of the stream.
        func receive(upTo count: Int) throws(Failure) -> [UInt8] {
            var buffer = [UInt8](repeating: 0, count: count)
            while true {
                let got = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, count, 0) }
                if got >= 0 { return Array(buffer[0..<got]) }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK:
                    try Self.wait(fd, for: Int16(POLLIN), idleSeconds: idleSeconds, deadline: deadline)
                case ECONNRESET: return []
                default: throw Failure(.failed, String(cString: strerror(errno)))
                }
            }
        }
    }

    /// Reads one answer: its head, then its body framed by chunks, a length or the end of
    /// the connection, never more than `limit` bytes of body.
    struct ResponseReader {
        let connection: Connection
        let limit: Int
        var buffer: [UInt8] = []
        var position = 0
        var ended = false
        var receivedAny = false

        init(connection: Connection, limit: Int) {
            self.connection = connection
            self.limit = limit
        }

        mutating func fill() throws(Failure) -> Bool {
            guard !ended else { return false }
            if position > 0 {
                buffer.removeFirst(position)
                position = 0
            }
            let more = try connection.receive(upTo: 64 << 10)
            if more.isEmpty {
                ended = true
                return false
            }
            receivedAny = true
            buffer += more
            return true
        }

        var cutShort: Failure { Failure(.failed, "the connection closed before the whole answer came") }

        /// A line ending in CRLF (or LF), without it; `tooLong` when it runs past `limit`.
        mutating func line(limit: Int, tooLong: Failure? = nil) throws(Failure) -> [UInt8] {
            while true {
                if let newline = buffer[position...].firstIndex(of: 10) {
                    var end = newline
                    if end > position, buffer[end - 1] == 13 { end -= 1 }
                    let line = Array(buffer[position..<end])
                    position = newline + 1
                    return line
                }
                guard buffer.count - position <= limit else {
                    throw tooLong ?? Failure(.failed, "the answer's headers are longer than \(ByteSize.format(limit))")
                }
                guard try fill() else {
                    throw receivedAny
                        ? cutShort : Failure(.failed, "the server closed the connection without answering")
                }
            }
        }

        mutating func response(method: String) throws(Failure) -> HTTPResponse {
            var headBytes = 0
            while true {
                let statusLine = String(decoding: try line(limit: maximumHead), as: UTF8.self)
                headBytes += statusLine.utf8.count
                let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3,
                    let status = Int(parts[1]), (100...999).contains(status)
                else { throw Failure(.failed, "the answer was not HTTP") }
                var headers: [HTTPHeader] = []
                while true {
                    let raw = try line(limit: maximumHead)
                    headBytes += raw.count + 2
                    guard headBytes <= maximumHead else {
                        throw Failure(.failed, "the answer's headers are longer than \(ByteSize.format(maximumHead))")
                    }
                    if raw.isEmpty { break }
                    let text = String(decoding: raw, as: UTF8.self)
                    guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
                        !text[..<colon].contains(where: { $0 == " " || $0 == "\t" })
                    else { throw Failure(.failed, "the answer has a header line that is not a header") }
                    headers.append(
                        HTTPHeader(
                            canonicalName(text[..<colon]),
                            text[text.index(after: colon)...].trimmingCharacters(in: CharacterSet(charactersIn: " \t")))
                    )
                }
                // 1xx answers (100 Continue) come before the real one.
                if (100...199).contains(status), status != 101 { continue }
                headers.sort { $0.name.lowercased() < $1.name.lowercased() }
                let body = try self.body(headers: headers, status: status, method: method)
                return HTTPResponse(status: status, headers: headers, body: Data(body))
            }
        }

        /// `content-type` → `Content-Type`, `ETag` → `Etag`: names as URLSession gives them, so
        /// an answer is recorded alike over either transport.
        func canonicalName(_ name: Substring) -> String {
            name.split(separator: "-", omittingEmptySubsequences: false).map {
                $0.prefix(1).uppercased() + $0.dropFirst().lowercased()
            }
            .joined(separator: "-")
        }

        mutating func body(headers: [HTTPHeader], status: Int, method: String) throws(Failure) -> [UInt8] {
            func values(_ name: String) -> [String] {
                headers.filter { $0.name.lowercased() == name }.map(\.value)
            }
            if method == "HEAD" || status == 204 || status == 304 { return [] }
            let transfer = values("transfer-encoding").joined(separator: ",").lowercased()
            if !transfer.isEmpty {
                guard transfer.split(separator: ",").last?.trimmingCharacters(in: .whitespaces) == "chunked" else {
                    return try untilClose()
                }
                return try chunked()
            }
            let lengths = Set(
                values("content-length").flatMap { $0.split(separator: ",") }.map {
                    $0.trimmingCharacters(in: .whitespaces)
                })
            if let text = lengths.first {
                guard lengths.count == 1, !text.isEmpty, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber),
                    let length = Int(text)
                else { throw Failure(.failed, "the answer's Content-Length is not one number") }
                guard length <= limit else { throw tooLarge }
                return try exactly(length)
            }
            return try untilClose()
        }

        var tooLarge: Failure {
            Failure(
                .failed,
                "the answer is larger than \(ByteSize.format(limit)) (--max-response); it was not read to its end")
        }

        mutating func exactly(_ count: Int) throws(Failure) -> [UInt8] {
            while buffer.count - position < count {
                guard try fill() else { throw cutShort }
            }
            defer { position += count }
            return Array(buffer[position..<(position + count)])
        }

        mutating func untilClose() throws(Failure) -> [UInt8] {
            while try fill() {
                guard buffer.count - position <= limit else { throw tooLarge }
            }
            defer { position = buffer.count }
            return Array(buffer[position...])
        }

        mutating func chunked() throws(Failure) -> [UInt8] {
            var body: [UInt8] = []
            let malformed = Failure(.failed, "the answer's chunked body is malformed")
            while true {
                let sizeLine = String(decoding: try line(limit: 1024, tooLong: malformed), as: UTF8.self)
                let digits = sizeLine.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces)
                guard let digits, !digits.isEmpty, digits.count <= 15, let size = Int(digits, radix: 16), size >= 0
                else { throw malformed }
                if size == 0 {
                    // Trailer lines, up to the empty one.
                    while try !line(limit: maximumHead).isEmpty {}
                    return body
                }
                guard body.count + size <= limit else { throw tooLarge }
                body += try exactly(size)
                guard try line(limit: 2, tooLong: malformed).isEmpty else { throw malformed }
            }
        }
    }
}
