import ClosetLanguage
import ClosetServer
import Foundation

/// The session of each of `closet serve`'s workers, by lane then number: made at start, and
/// made again (by `make`) for a worker whose session met damage and was dropped. Each is used
/// by its own worker only; the lock guards the slots.
final class ServeSessions: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[Session?]]
    /// A new session for a lane (a new reader of the store, or a new writer).
    private let make: (Int) throws -> Session

    init(_ sessions: [[Session]], make: @escaping (Int) throws -> Session) {
        slots = sessions
        self.make = make
    }

    var lanes: Int { slots.count }

    func session(for worker: HTTPServer.Worker) throws -> Session {
        lock.lock()
        let existing = slots[worker.lane][worker.index]
        lock.unlock()
        if let existing { return existing }
        let made = try make(worker.lane)
        lock.lock()
        slots[worker.lane][worker.index] = made
        lock.unlock()
        return made
    }

    func discard(_ worker: HTTPServer.Worker) {
        lock.lock()
        slots[worker.lane][worker.index] = nil
        lock.unlock()
    }
}
