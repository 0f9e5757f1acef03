import ClosetCore
import ClosetLanguage
import ClosetTables

/// `closet serve`: each request is one transaction on the served store, as a statement at the
/// prompt is, and retried as one is (`retryingConflicts`). What other processes committed is
/// read first; a write takes the store's lock (waiting up to the busy timeout); a conflict
/// with another process runs the request again on the new state; anything thrown undoes all of it.
extension Session {
    public func serving<T>(_ body: () throws -> T) throws -> T {
        if !store.tables.hasPendingChanges { try store.refresh() }
        let savepoint = store.savepoint()
        do {
            let result = try store.retryingConflicts(from: savepoint, unit: "request") { _ in try body() }
            try store.commit()
            return result
        } catch let failure as StoreWriteFailure {
            throw failure.error
        } catch {
            store.rollback(to: savepoint)
            throw error
        }
    }
}
