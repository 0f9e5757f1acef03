import ClosetCore

/// `closet serve`: each request is one transaction on the served store, as a statement at the
/// prompt is. What other processes committed is read first; a write takes the store's lock
/// (waiting up to the busy timeout); a conflict with another process runs the request again on
/// the new state; anything thrown undoes all of it.
extension Session {
    public func serving<T>(_ body: () throws -> T) throws -> T {
        if !store.tables.hasPendingChanges { try store.refresh() }
        let savepoint = store.savepoint()
        var conflicts = 0
        while true {
            do {
                let result = try body()
                switch store.takeWriteProblem() {
                case nil:
                    try store.commit()
                    return result
                case .conflict where conflicts < Self.maximumConflicts:
                    conflicts += 1
                    store.rollback(to: savepoint)
                    try store.refresh()
                    continue
                case .conflict:
                    throw StoreError("other processes kept changing the store; nothing of this request was kept")
                case .failed(let message):
                    throw StoreError(message)
                }
            } catch {
                _ = store.takeWriteProblem()
                store.rollback(to: savepoint)
                throw error
            }
        }
    }
}
