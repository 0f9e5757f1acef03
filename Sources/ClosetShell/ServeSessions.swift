import ClosetLanguage
import ClosetServer
import Foundation

/// The session of each of `closet serve`'s workers, by lane then number: made at start (the
/// writes' lane first, on the store already open), and
/// made again (by `make`) for a worker whose session met damage and was dropped. Each is used
/// by its own worker only; the lock guards the slots.
package final class ServeSessions: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[Session?]]
    /// Every session's host: a session holds its host unowned, so they are kept here.
    private var hosts: [SessionHost] = []
    /// A new session for a lane (a new reader of the store, or a new writer), and its host.
    private let make: (Int) throws -> (Session, SessionHost)

    package init(lanes: [Int], make: @escaping (Int) throws -> (Session, SessionHost)) throws {
        self.make = make
        slots = lanes.map { Array(repeating: nil, count: $0) }
        for lane in lanes.indices {
            for index in 0..<lanes[lane] {
                _ = try session(for: HTTPServer.Worker(lane: lane, index: index))
            }
        }
    }

    var lanes: Int { slots.count }

    func session(for worker: HTTPServer.Worker) throws -> Session {
        lock.lock()
        let existing = slots[worker.lane][worker.index]
        lock.unlock()
        if let existing { return existing }
        let (made, host) = try make(worker.lane)
        lock.lock()
        slots[worker.lane][worker.index] = made
        hosts.append(host)
        lock.unlock()
        return made
    }

    func discard(_ worker: HTTPServer.Worker) {
        lock.lock()
        slots[worker.lane][worker.index] = nil
        lock.unlock()
    }
}
