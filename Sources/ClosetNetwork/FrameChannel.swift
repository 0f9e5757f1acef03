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
        /// `interrupted` said so while waiting (Ctrl-C at the terminal).
        case interrupted
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
    /// `interrupted` is asked whenever a wait is woken by a signal, and every tenth of a second.
    public func read(deadline: Date?, interrupted: (() -> Bool)? = nil) throws(Failure) -> Data {
        let header = try readExactly(4, deadline: deadline, interrupted: interrupted)
        let length = header.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(as: UInt32.self))) }
        guard length <= WireFormat.maximumFrame else { throw .tooLarge }
        return try readExactly(length, deadline: deadline, interrupted: interrupted)
    }

    private func readExactly(_ count: Int, deadline: Date?, interrupted: (() -> Bool)?) throws(Failure) -> Data {
        var data = Data(count: count)
        var filled = 0
        while filled < count {
            if deadline != nil || interrupted != nil {
                if interrupted?() == true { throw .interrupted }
                let left = deadline.map { Int(max(0, $0.timeIntervalSinceNow * 1000).rounded(.up)) } ?? Int(Int32.max)
                let milliseconds = Int32(clamping: interrupted == nil ? left : min(left, 100))
                var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&poller, 1, milliseconds)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .system(errno)
                }
                if ready == 0 {
                    if let deadline, deadline.timeIntervalSinceNow <= 0 { throw .timedOut }
                    continue
                }
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
