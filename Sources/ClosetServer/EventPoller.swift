import CServerSupport

#if canImport(Glibc)
    import Glibc
#endif

/// What the server's loop waits on: each descriptor under a tag, for reading, writing or both.
/// Linux's epoll where there is one (each turn costs what is ready, so a thousand idle
/// connections cost nothing), `poll` elsewhere (each turn lists every descriptor).
final class EventPoller {
    struct Ready {
        var tag: UInt64
        var readable: Bool
        var writable: Bool
        /// Hung up or failed: the descriptor reports it whatever it waits for.
        var failed: Bool
    }

    private let epoll: Int32
    /// For `poll`: every watched descriptor, its tag and what it waits for.
    private var watched: [Int32: (tag: UInt64, readable: Bool, writable: Bool)] = [:]
    private var tags = [UInt64](repeating: 0, count: 256)
    private var bits = [UInt32](repeating: 0, count: 256)

    init() { epoll = closet_epoll_create() }

    deinit { if epoll >= 0 { close(epoll) } }

    func watch(_ fd: Int32, tag: UInt64, readable: Bool, writable: Bool) {
        if epoll >= 0 {
            _ = closet_epoll_control(epoll, 1, fd, readable ? 1 : 0, writable ? 1 : 0, tag)
        } else {
            watched[fd] = (tag, readable, writable)
        }
    }

    func change(_ fd: Int32, tag: UInt64, readable: Bool, writable: Bool) {
        if epoll >= 0 {
            _ = closet_epoll_control(epoll, 2, fd, readable ? 1 : 0, writable ? 1 : 0, tag)
        } else {
            watched[fd] = (tag, readable, writable)
        }
    }

    func unwatch(_ fd: Int32) {
        if epoll >= 0 {
            _ = closet_epoll_control(epoll, 3, fd, 0, 0, 0)
        } else {
            watched[fd] = nil
        }
    }

    /// What is ready within `milliseconds` (none on a time-out or a signal).
    func wait(milliseconds: Int32) -> [Ready] {
        if epoll >= 0 {
            let count = closet_epoll_wait(epoll, &tags, &bits, Int32(tags.count), milliseconds)
            guard count > 0 else { return [] }
            return (0..<Int(count)).map {
                Ready(
                    tag: tags[$0], readable: bits[$0] & 1 != 0, writable: bits[$0] & 2 != 0, failed: bits[$0] & 4 != 0)
            }
        }
        var polled: [pollfd] = []
        var polledTags: [UInt64] = []
        polled.reserveCapacity(watched.count)
        for (fd, entry) in watched {
            let events = (entry.readable ? Int16(POLLIN) : 0) | (entry.writable ? Int16(POLLOUT) : 0)
            polled.append(pollfd(fd: fd, events: events, revents: 0))
            polledTags.append(entry.tag)
        }
        guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return [] }
        return zip(polled, polledTags).compactMap { entry, tag in
            guard entry.revents != 0 else { return nil }
            return Ready(
                tag: tag, readable: entry.revents & Int16(POLLIN) != 0, writable: entry.revents & Int16(POLLOUT) != 0,
                failed: entry.revents & (Int16(POLLHUP) | Int16(POLLERR) | Int16(POLLNVAL)) != 0)
        }
    }
}
