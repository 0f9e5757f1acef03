import ClosetNetwork
import Foundation

/// HTTP/1.1 requests (RFC 9112) read from a connection's bytes as they arrive, one after
/// another (keep-alive, pipelining). Strict where leniency lets one request hide in another:
/// lines end in CRLF, no space before a header's colon, no folded lines, one `Content-Length`,
/// never both a length and `Transfer-Encoding`, only `chunked` coding. Bounded: the request
/// line and headers by `Limits.headerBytes` (431 past it), the body by `Limits.bodyBytes`
/// (413, said before the body is read).
public struct RequestReader: Sendable {
    public struct Limits: Sendable {
        public var headerBytes = 16 * 1024
        public var headerCount = 100
        public var bodyBytes = 32 << 20

        public init() {}
    }

    /// A request that cannot be answered normally: the status to answer with, then close.
    public struct Refusal: Error, Equatable, Sendable {
        public var status: Int
        public var reason: String
    }

    public enum Next: Sendable {
        /// More bytes are needed.
        case needMore
        /// A whole request; `keepAlive` says whether another may follow on the connection.
        case request(ServedRequest, keepAlive: Bool)
        case refused(Refusal)
    }

    struct Head: Sendable {
        var method: String
        var target: String
        var minorVersion: Int
        var headers: [HTTPHeader]
        var keepAlive: Bool
        var body: BodyFraming
        var expectsContinue: Bool
    }

    enum BodyFraming: Sendable {
        case length(Int)
        case chunked
    }

    let limits: Limits
    var buffer: [UInt8] = []
    /// Where the unread bytes start.
    var start = 0
    /// How far the search for the end of the headers has looked.
    var scanned = 0
    var head: Head?
    /// The chunked body so far, and where its next chunk starts.
    var chunkedBody: [UInt8] = []
    var chunkAt = 0
    /// Whether `100 Continue` was owed and sent for the current request.
    public private(set) var owesContinue = false

    public init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Whether a request has begun and not ended (a client that stops here is slow or gone).
    public var isMidRequest: Bool { head != nil || buffer.count > start }

    /// The bytes this reader holds or has been told will come: what is buffered and not yet
    /// given out, and the rest of a body its `Content-Length` announced. The server counts
    /// these across connections to bound the bodies held at once.
    public var heldBytes: Int {
        let buffered = buffer.count - start + chunkedBody.count
        guard let head, case .length(let length) = head.body else { return buffered }
        return max(buffered, length)
    }

    /// The current request's method and target once its head is read (for an error in the
    /// shape of the API it was meant for).
    public var currentTarget: (method: String, path: String)? {
        head.map { ($0.method, Self.split($0.target).0) } ?? refusedTarget
    }

    /// The request line of a head refused before it was whole (too large, malformed), when it
    /// could be read: the refusal still takes the shape of the API it was meant for.
    var refusedTarget: (method: String, path: String)?

    /// The method and path of a request line such as `POST /item HTTP/1.1`, read loosely (only
    /// to shape a refusal: nothing is run from it).
    static func target(ofLineIn bytes: ArraySlice<UInt8>) -> (method: String, path: String)? {
        let line = bytes.prefix(4096).prefix { $0 != 13 && $0 != 10 }
        let words = line.split(separator: UInt8(ascii: " "), maxSplits: 2)
        guard words.count >= 2, words[0].allSatisfy(isTokenByte), words[1].first == UInt8(ascii: "/") else {
            return nil
        }
        return (String(decoding: words[0], as: UTF8.self), split(String(decoding: words[1], as: UTF8.self)).0)
    }

    /// The room a connection's buffer keeps between requests.
    static let keptCapacity = 64 << 10

    public mutating func feed(_ bytes: UnsafeRawBufferPointer) {
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            scanned = 0
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The client asked for `100 Continue` before sending its body: the server sends it once.
    public mutating func takeContinue() -> Bool {
        defer { owesContinue = false }
        return owesContinue
    }

    public mutating func next() -> Next {
        if head == nil {
            switch readHead() {
            case .failure(let refusal): return .refused(refusal)
            case .success(nil): return .needMore
            case .success(let parsed?):
                head = parsed
                owesContinue = parsed.expectsContinue
            }
        }
        guard let head else { return .needMore }
        let body: Data
        switch head.body {
        case .length(let length):
            guard buffer.count - start >= length else {
                // Room for the whole body at once: grown by doubling, a 300 KB upload held
                // 512 KB for as long as its connection lived.
                buffer.reserveCapacity(start + length)
                return .needMore
            }
            body = Data(buffer[start..<(start + length)])
            start += length
        case .chunked:
            switch readChunks() {
            case .failure(let refusal): return .refused(refusal)
            case .success(false): return .needMore
            case .success(true):
                body = Data(chunkedBody)
                chunkedBody = []
            }
        }
        self.head = nil
        owesContinue = false
        scanned = start
        // Compact now and then, so a long keep-alive connection does not grow its buffer; after
        // a large body, give its room back (sixty-four connections that each uploaded a picture
        // once held tens of megabytes for nothing).
        if buffer.capacity > Self.keptCapacity, buffer.count - start <= Self.keptCapacity {
            buffer = Array(buffer[start...])
            scanned -= start
            start = 0
        } else if start > 64 * 1024 {
            buffer.removeFirst(start)
            scanned -= start
            start = 0
        }
        let (path, query) = Self.split(head.target)
        let targetBytes = head.target.utf8
        let rawQuery =
            targetBytes.firstIndex(of: UInt8(ascii: "?")).map { String(head.target[targetBytes.index(after: $0)...]) }
            ?? ""
        return .request(
            ServedRequest(
                method: head.method, path: path, query: query, rawQuery: rawQuery, headers: head.headers,
                body: body),
            keepAlive: head.keepAlive)
    }

    // MARK: the head

    /// A list element without the optional whitespace around it (RFC 9110's OWS: spaces and
    /// tabs only; Foundation's trimming knew every Unicode space and cost 3% of the loop).
    static func trimmed(_ element: Substring) -> String {
        let isSpace = { (byte: UInt8) in byte == 32 || byte == 9 }
        let bytes = element.utf8
        guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return String(element[first...last])
    }

    func refusal(_ status: Int, _ reason: String) -> Refusal { Refusal(status: status, reason: reason) }

    mutating func readHead() -> Result<Head?, Refusal> {
        // Empty lines before a request are allowed (RFC 9112 §2.2).
        while buffer.count - start >= 2, buffer[start] == 13, buffer[start + 1] == 10 {
            start += 2
            scanned = max(scanned, start)
        }
        // The blank line ending the head, looked for from where the last look stopped.
        let from = max(scanned, start)
        let end: Int? = buffer.withUnsafeBufferPointer { bytes in
            var index = from
            while index + 3 < bytes.count {
                if bytes[index] == 13, bytes[index + 1] == 10, bytes[index + 2] == 13, bytes[index + 3] == 10 {
                    return index
                }
                // A fourth byte that is neither CR nor LF is in no CRLFCRLF: none starts before it.
                index += bytes[index + 3] == 10 || bytes[index + 3] == 13 ? 1 : 4
            }
            return nil
        }
        guard let end else {
            scanned = max(start, buffer.count - 3)
            if buffer.count - start > limits.headerBytes {
                refusedTarget = Self.target(ofLineIn: buffer[start...])
                return .failure(refusal(431, "the request's headers are over \(limits.headerBytes) bytes"))
            }
            return .success(nil)
        }
        guard end - start <= limits.headerBytes else {
            refusedTarget = Self.target(ofLineIn: buffer[start..<end])
            return .failure(refusal(431, "the request's headers are over \(limits.headerBytes) bytes"))
        }
        let headStart = start
        start = end + 4
        scanned = start
        // Read through a pointer: slices of the buffer retained it per line and checked every
        // byte's index (a fifth of the server's time on small GETs).
        let parsed = buffer.withUnsafeBufferPointer { bytes -> Result<Head, Refusal> in
            let head = UnsafeBufferPointer(rebasing: bytes[headStart..<end])
            guard let lines = Self.lines(head) else { return .failure(refusal(400, "a line does not end in CRLF")) }
            return parseHead(head, lines)
        }
        if case .failure = parsed { refusedTarget = Self.target(ofLineIn: buffer[headStart..<end]) }
        return parsed.map { .some($0) }
    }

    /// Where the head's lines lie, split at CRLF; nil when a lone CR or LF is in it.
    static func lines(_ head: UnsafeBufferPointer<UInt8>) -> [Range<Int>]? {
        var lines: [Range<Int>] = []
        var lineStart = 0
        var index = 0
        while index < head.count {
            let byte = head[index]
            if byte == 13 {
                guard index + 1 < head.count, head[index + 1] == 10 else { return nil }
                lines.append(lineStart..<index)
                index += 2
                lineStart = index
                continue
            }
            if byte == 10 { return nil }
            index += 1
        }
        lines.append(lineStart..<head.count)
        return lines
    }

    /// The head whose lines lie at `lines` (`lines(_:)`).
    func parseHead(_ head: UnsafeBufferPointer<UInt8>, _ lines: [Range<Int>]) -> Result<Head, Refusal> {
        guard let requestLine = lines.first else { return .failure(refusal(400, "no request line")) }
        func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(rebasing: head[range]) }
        func string(_ range: Range<Int>) -> String { String(decoding: bytes(range), as: UTF8.self) }
        // Three words between single spaces (found in place: splitting made an array per request).
        guard let firstSpace = head[requestLine].firstIndex(of: UInt8(ascii: " ")),
            let secondSpace = head[(firstSpace + 1)..<requestLine.upperBound].firstIndex(of: UInt8(ascii: " ")),
            !head[(secondSpace + 1)..<requestLine.upperBound].contains(UInt8(ascii: " "))
        else { return .failure(refusal(400, "a malformed request line")) }
        let words = [
            requestLine.lowerBound..<firstSpace, (firstSpace + 1)..<secondSpace,
            (secondSpace + 1)..<requestLine.upperBound,
        ]
        guard !words[0].isEmpty, bytes(words[0]).allSatisfy(Self.isTokenByte) else {
            return .failure(refusal(400, "a malformed request line"))
        }
        let method = string(words[0])
        var target = string(words[1])
        let version = string(words[2])
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            return .failure(
                version.hasPrefix("HTTP/")
                    ? refusal(505, "HTTP version \(version.dropFirst(5)) is not served")
                    : refusal(400, "a malformed request line"))
        }
        guard bytes(words[1]).allSatisfy({ $0 > 32 && $0 < 127 }) else {
            return .failure(refusal(400, "the request target has bytes a URL cannot"))
        }
        // An absolute target (to a proxy) names its own path.
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            let afterScheme = target.drop { $0 != ":" }.dropFirst(3)
            target = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        }
        guard target.hasPrefix("/") || (target == "*" && method == "OPTIONS") else {
            return .failure(refusal(400, "the request target is not a path"))
        }
        var headers: [HTTPHeader] = []
        headers.reserveCapacity(lines.count - 1)
        // The headers the framing depends on, found as the lines are read (one pass, no names
        // compared again per header asked for).
        var hosts = 0
        var connection: [String] = []
        var codings: [String] = []
        var lengthValues: [String] = []
        var expects: [String] = []
        for line in lines.dropFirst() {
            guard headers.count < limits.headerCount else {
                return .failure(refusal(431, "more than \(limits.headerCount) headers"))
            }
            guard !line.isEmpty, head[line.lowerBound] != 32, head[line.lowerBound] != 9 else {
                return .failure(refusal(400, "a folded header line"))
            }
            guard let colon = head[line].firstIndex(of: UInt8(ascii: ":")), colon > line.lowerBound,
                bytes(line.lowerBound..<colon).allSatisfy(Self.isTokenByte)
            else { return .failure(refusal(400, "a malformed header line")) }
            var valueStart = colon + 1
            var valueEnd = line.upperBound
            while valueStart < valueEnd, head[valueStart] == 32 || head[valueStart] == 9 { valueStart += 1 }
            while valueEnd > valueStart, head[valueEnd - 1] == 32 || head[valueEnd - 1] == 9 { valueEnd -= 1 }
            guard bytes(valueStart..<valueEnd).allSatisfy({ $0 == 9 || $0 >= 32 && $0 != 127 }) else {
                return .failure(refusal(400, "a header value with control characters"))
            }
            let name = bytes(line.lowerBound..<colon)
            let text = string(valueStart..<valueEnd)
            headers.append(HTTPHeader(String(decoding: name, as: UTF8.self), text))
            // In ASCII case: Foundation's locale-aware comparison was a tenth of the server's loop.
            if Self.isNamed(name, "host") {
                hosts += 1
            } else if Self.isNamed(name, "connection") {
                connection += text.lowercased().split(separator: ",").map(Self.trimmed)
            } else if Self.isNamed(name, "transfer-encoding") {
                codings.append(text)
            } else if Self.isNamed(name, "content-length") {
                lengthValues.append(text)
            } else if Self.isNamed(name, "expect") {
                expects.append(text.lowercased())
            }
        }
        let minor = version == "HTTP/1.1" ? 1 : 0
        if minor == 1, hosts != 1 {
            return .failure(refusal(400, "an HTTP/1.1 request needs one Host header"))
        }
        let keepAlive = minor == 1 ? !connection.contains("close") : connection.contains("keep-alive")
        let lengths = lengthValues.flatMap { $0.split(separator: ",") }.map(Self.trimmed)
        let framing: BodyFraming
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                return .failure(refusal(400, "both Content-Length and Transfer-Encoding"))
            }
            guard codings.count == 1, codings[0].lowercased() == "chunked" else {
                return .failure(refusal(501, "transfer coding '\(codings.joined(separator: ", "))' is not supported"))
            }
            framing = .chunked
        } else if let first = lengths.first {
            guard Set(lengths).count == 1, first.allSatisfy(\.isASCII), first.allSatisfy(\.isNumber), first.count <= 18,
                let length = Int(first)
            else { return .failure(refusal(400, "a malformed Content-Length")) }
            guard length <= limits.bodyBytes else {
                return .failure(refusal(413, "a body of \(length) bytes is over \(limits.bodyBytes)"))
            }
            framing = .length(length)
        } else {
            framing = .length(0)
        }
        let expectsContinue: Bool
        switch framing {
        case .length(let length): expectsContinue = minor == 1 && expects.contains("100-continue") && length > 0
        case .chunked: expectsContinue = minor == 1 && expects.contains("100-continue")
        }
        return .success(
            Head(
                method: method, target: target, minorVersion: minor, headers: headers, keepAlive: keepAlive,
                body: framing, expectsContinue: expectsContinue))
    }

    /// Whether a header's name is `lowercase` in any ASCII case.
    static func isNamed(_ name: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard name.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { wanted in
            var at = 0
            for byte in wanted {
                let given = name[at]
                // Only letters fold: `-` and digits must match as they are.
                let folded = given >= 0x41 && given <= 0x5A ? given | 0x20 : given
                if folded != byte { return false }
                at += 1
            }
            return true
        }
    }

    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"),
            UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"),
            UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }

    // MARK: chunked bodies

    /// Chunks read so far into `chunkedBody`; true once the last chunk and the trailers are read.
    mutating func readChunks() -> Result<Bool, Refusal> {
        while true {
            guard let lineEnd = crlf(from: start) else {
                return buffer.count - start > 1024 ? .failure(refusal(400, "a malformed chunk size")) : .success(false)
            }
            let line = buffer[start..<lineEnd]
            // The size in hex digits only (RFC 9112 §7.1: no sign, no space before it; a sign was
            // once read as a negative size), then spaces or tabs and extensions after `;` (ignored).
            let digits = line.prefix { Self.isHexDigit($0) }
            let rest = line.dropFirst(digits.count).drop { $0 == 32 || $0 == 9 }
            guard !digits.isEmpty, digits.count <= 8, rest.isEmpty || rest.first == UInt8(ascii: ";"),
                let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
            else {
                return .failure(refusal(400, "a malformed chunk size"))
            }
            guard chunkedBody.count + size <= limits.bodyBytes else {
                return .failure(refusal(413, "a chunked body over \(limits.bodyBytes) bytes"))
            }
            if size == 0 {
                // Trailers, then an empty line.
                var at = lineEnd + 2
                while true {
                    guard let end = crlf(from: at) else {
                        return buffer.count - at > limits.headerBytes
                            ? .failure(refusal(431, "the trailers are over \(limits.headerBytes) bytes"))
                            : .success(false)
                    }
                    if end == at {
                        start = end + 2
                        return .success(true)
                    }
                    at = end + 2
                }
            }
            let dataStart = lineEnd + 2
            guard buffer.count - dataStart >= size + 2 else { return .success(false) }
            guard buffer[dataStart + size] == 13, buffer[dataStart + size + 1] == 10 else {
                return .failure(refusal(400, "a chunk not followed by CRLF"))
            }
            chunkedBody += buffer[dataStart..<(dataStart + size)]
            start = dataStart + size + 2
        }
    }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...70).contains(byte) || (97...102).contains(byte)
    }

    func crlf(from: Int) -> Int? {
        var index = from
        while index + 1 < buffer.count {
            if buffer[index] == 13, buffer[index + 1] == 10 { return index }
            index += 1
        }
        return nil
    }

    /// `/items/1?a=b` → (`/items/1`, [(a, b)]); a malformed query pair is kept raw.
    static func split(_ target: String) -> (String, [(name: String, value: String)]) {
        // By UTF-8 code units: `?`, `&` and `=` are ASCII, and finding them by Character was a
        // tenth of reading a request.
        var target = target
        return target.withUTF8 { bytes in
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else {
                return (String(decoding: bytes, as: UTF8.self), [])
            }
            /// A part as text: made straight from its bytes, decoded only when it has `%` or `+`.
            func text(_ part: Slice<UnsafeBufferPointer<UInt8>>) -> String {
                let made = String(decoding: UnsafeBufferPointer(rebasing: part), as: UTF8.self)
                guard part.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else { return made }
                return PercentEncoding.decoded(made, plusIsSpace: true) ?? made
            }
            var query: [(name: String, value: String)] = []
            var start = mark + 1
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: UInt8(ascii: "&")) ?? bytes.count
                // Empty pairs (`a=1&&b=2`, a trailing `&`) are no pairs.
                if end > start {
                    let pair = bytes[start..<end]
                    if let equals = pair.firstIndex(of: UInt8(ascii: "=")) {
                        query.append((text(bytes[start..<equals]), text(bytes[(equals + 1)..<end])))
                    } else {
                        query.append((text(pair), ""))
                    }
                }
                start = end + 1
            }
            return (String(decoding: bytes[..<mark], as: UTF8.self), query)
        }
    }
}
