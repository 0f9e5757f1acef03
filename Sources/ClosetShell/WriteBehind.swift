import Foundation

/// Writes a streamed file's pieces on a thread of its own while the caller makes the next: a
/// dump's or an export's formatting on one core, the kernel's copy into the page cache on the
/// other (an eighth of a million-row dump's time was that copy). At most `depth` pieces wait, so
/// memory stays a few megabytes; the first error number is kept, later pieces are dropped, and it
/// is thrown at the next hand-over or at `finish`.
final class WriteBehind: @unchecked Sendable {
    private let condition = NSCondition()
    private var waiting: [[UInt8]] = []
    private var writing = false
    private var finished = false
    private var failure: Int32?
    private let depth: Int
    private let write: @Sendable ([UInt8]) -> Int32?

    /// `write` writes one piece whole, returning the error number when it cannot.
    init(depth: Int = 2, write: @escaping @Sendable ([UInt8]) -> Int32?) {
        self.depth = depth
        self.write = write
        let thread = Thread { [self] in run() }
        thread.name = "closet write-behind"
        thread.start()
    }

    /// Hands a piece over, waiting while `depth` are still waiting; the error number of a piece
    /// before it that could not be written.
    func hand(_ piece: [UInt8]) -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        while failure == nil, waiting.count >= depth { condition.wait() }
        if let failure { return failure }
        waiting.append(piece)
        condition.broadcast()
        return nil
    }

    /// Waits until every piece is written (the thread then ends); the first error number.
    func finish() -> Int32? {
        condition.lock()
        defer { condition.unlock() }
        finished = true
        condition.broadcast()
        while !waiting.isEmpty || writing { condition.wait() }
        return failure
    }

    private func run() {
        condition.lock()
        while true {
            while waiting.isEmpty, !finished { condition.wait() }
            guard !waiting.isEmpty else { break }
            let piece = waiting.removeFirst()
            writing = true
            // Read under the lock: after a failure the rest is dropped, not written.
            let failed = failure != nil
            condition.unlock()
            let code = failed ? nil : write(piece)
            condition.lock()
            writing = false
            if let code, failure == nil {
                failure = code
                waiting.removeAll()
            }
            condition.broadcast()
        }
        condition.unlock()
    }
}
