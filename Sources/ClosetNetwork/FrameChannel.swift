import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Whole frames over one file descriptor (a socket to or from the network helper): written
/// without SIGPIPE, read with a deadline.
package struct FrameChannel {
    package let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    public enum Failure: Error, Equatable {
        case closed
        case timedOut
        case tooLarge
        case system(Int32)
    }

    public func write(_ frame: Data) throws(Failure) {
        var failure: Failure?
        frame.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                    let sent = Glibc.send(fd, raw.pointer(at: offset), raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                    let sent = Darwin.send(fd, raw.pointer(at: offset), raw.count - offset, 0)
                #endif
                if sent < 0 {
                    if errno == EINTR { continue }
                    failure = errno == EPIPE || errno == ECONNRESET ? .closed : .system(errno)
                    return
                }
                offset += sent
            }
        }
        if let failure { throw failure }
    }

    /// The next frame's content; nil deadline waits for ever.
    public func read(deadline: Date?) throws(Failure) -> Data {
        let header = try readExactly(4, deadline: deadline)
        let length = header.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= WireFormat.maximumFrame else { throw .tooLarge }
        return try readExactly(length, deadline: deadline)
    }

    private func readExactly(_ count: Int, deadline: Date?) throws(Failure) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            if let deadline {
                let milliseconds = Int32(clamping: Int(max(0, deadline.timeIntervalSinceNow * 1000).rounded(.up)))
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno)
                }
                if ready == 0 { throw .timedOut }
            }
            let got = data.withUnsafeMutableBytes { raw in
                Glibc.read(fd, raw.pointer(at: filled), count - filled)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw .system(errno)
            }
            if got == 0 { throw .closed }
            filled += got
        }
        return data
    }
}
