import Foundation

/// Rows made on one thread and taken, in the order they were made, on a second one, through a
/// ring of row buffers (bounded in bytes): a large PNG's rows are inflated and unfiltered on the
/// caller's thread while the second reduces them (`AreaReducer`), so the two halves of the work
/// run on two cores at once. The maker waits only while every buffer holds a row not yet taken, the taker
/// only while none does.
final class RowHandoff: @unchecked Sendable {
    /// Pictures of fewer pixels are reduced on the caller's thread: a second thread is worth
    /// starting for tens of milliseconds of work, not for one.
    static let fewestPixels = 4_000_000

    /// What the ring holds at most, beyond two rows: a hostile picture a million pixels wide
    /// gets two buffers, not thirty-two of 4 MB each.
    static let ringBytes = 4 << 20

    private let rowBytes: Int
    /// How many rows the ring holds: up to 32, within `ringBytes`, at least two.
    let slots: Int
    private let rows: UnsafeMutablePointer<UInt8>
    private let take: (UnsafePointer<UInt8>) -> Void
    private let condition = NSCondition()
    // Under `condition`.
    private var made = 0
    private var taken = 0
    private var ended = false
    private var stopped = false

    /// Starts the thread that calls `take` with each row handed over.
    init(rowBytes: Int, take: @escaping (UnsafePointer<UInt8>) -> Void) {
        self.rowBytes = max(rowBytes, 1)
        slots = max(2, min(32, Self.ringBytes / self.rowBytes))
        self.take = take
        rows = .allocate(capacity: self.rowBytes * slots)
        let thread = Thread { [self] in run() }
        thread.name = "closet-rows"
        thread.start()
    }

    deinit { rows.deallocate() }

    /// The buffer the next row is to be made in (`rowBytes` bytes): waits while every buffer
    /// holds a row not yet taken.
    func nextRow() -> UnsafeMutablePointer<UInt8> {
        condition.lock()
        while made - taken == slots { condition.wait() }
        let at = made % slots
        condition.unlock()
        return rows + at * rowBytes
    }

    /// Hands over the row made in `nextRow()`'s buffer.
    func hand() {
        condition.lock()
        made += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until every row handed over is taken and the thread has ended. Called once, also
    /// when making the rows failed part way: what was handed over is taken, nothing more.
    func finish() {
        condition.lock()
        ended = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while taken == made, !ended { condition.wait() }
            guard taken < made else { break }
            let at = taken % slots
            condition.unlock()
            take(rows + at * rowBytes)
            condition.lock()
            taken += 1
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
