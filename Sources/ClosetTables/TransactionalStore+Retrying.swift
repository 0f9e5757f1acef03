import ClosetCore

/// The store refused a unit's writes (its lock, or a conflict that kept coming back): the unit
/// as a whole failed, so its error names no position.
package struct StoreWriteFailure: Error {
    package var error: StoreError
    /// The write lock could not be had (or the store cannot be written from here any more).
    package var busy = false

    package init(error: StoreError, busy: Bool = false) {
        self.error = error
        self.busy = busy
    }
}

extension TransactionalStore {
    /// How many times a unit is run again because another process committed first.
    package static var maximumConflicts: Int { 5 }

    /// Runs one unit of work (a statement, a served request) from `savepoint` until the store
    /// keeps its writes: after a conflict with another process's commit it is undone, what was
    /// committed is read, and it runs again (`again` is true), at most `maximumConflicts`
    /// times. `refusal` may forbid running it again (a unit that already wrote to a server).
    /// Anything thrown undoes the unit; a write problem is thrown as a `StoreWriteFailure`.
    /// Both the statement loop and `closet serve` go through here, so they retry alike.
    package func retryingConflicts<T>(
        from savepoint: Savepoint, unit: String, refusal: () -> String? = { nil },
        attempt: (_ again: Bool) throws -> T
    ) throws -> T {
        var conflicts = 0
        while true {
            do {
                let result = try attempt(conflicts > 0)
                switch takeWriteProblem() {
                case nil:
                    return result
                case .conflict:
                    if let refusal = refusal() { throw StoreWriteFailure(error: StoreError(refusal)) }
                    guard conflicts < Self.maximumConflicts else {
                        throw StoreWriteFailure(
                            error: StoreError(
                                "other processes kept changing the store; nothing of this \(unit) was kept"))
                    }
                    conflicts += 1
                    rollback(to: savepoint)
                    do throws(StoreError) {
                        try refresh()
                    } catch {
                        throw StoreWriteFailure(error: error)
                    }
                case .failed(let message):
                    throw StoreWriteFailure(error: StoreError(message), busy: true)
                }
            } catch {
                _ = takeWriteProblem()
                rollback(to: savepoint)
                throw error
            }
        }
    }
}
