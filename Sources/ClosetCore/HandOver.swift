import Foundation

/// Batches a reading thread makes a few ahead of the thread that uses them (a CSV file's records,
/// a long script's statements): at most `waiting` wait, so what is read is held a few batches at a
/// time however long it is. The using thread may stop the reading early (`stop`), and then waits
/// for the reading thread to end.
package final class HandOver<Batch>: @unchecked Sendable {
    private let condition = NSCondition()
    // Under `condition`.
    private var batches: [Batch] = []
    private var finished = false
    private var stopped = false
    private var waiting: Int

    /// `waiting`: how many batches may wait to be used.
    package init(waiting: Int) {
        self.waiting = waiting
    }

    /// Runs `read` on a thread of its own named `name`; the reading is finished when it returns.
    package func start(name: String, _ read: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            read()
            finish()
        }
        thread.name = name
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Runs `read` on this thread, its batches all handed over at once (none waits for room).
    package func readInPlace(_ read: () -> Void) {
        condition.lock()
        waiting = .max
        condition.unlock()
        read()
        finish()
    }

    // MARK: The reading thread

    /// Hands `batch` over once there is room, `shared` run under the lock as it is (state the two
    /// threads share, seen by the using thread with the batch); false, without handing it over,
    /// when the reading was stopped.
    package func hand(_ batch: Batch, shared: () -> Void = {}) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while batches.count >= waiting, !stopped { condition.wait() }
        guard !stopped else { return false }
        batches.append(batch)
        shared()
        condition.broadcast()
        return true
    }

    private func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    // MARK: The using thread

    /// The next batch, waiting for it; nil after the last.
    package func next() -> Batch? {
        condition.lock()
        defer { condition.unlock() }
        while batches.isEmpty, !finished { condition.wait() }
        guard !batches.isEmpty else { return nil }
        let batch = batches.removeFirst()
        condition.broadcast()
        return batch
    }

    /// Stops the reading and waits for it to end: nothing is read after this.
    package func stop() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while !finished { condition.wait() }
    }

    // MARK: Either thread

    /// `body`'s answer, under the lock the hand-over is made under: for state the two threads
    /// share besides the batches.
    package func shared<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
