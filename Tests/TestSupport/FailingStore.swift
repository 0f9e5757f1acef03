import ClosetCore
import ClosetTables
import Foundation

/// A store whose commits fail (a full disk, say), over an in-memory one: for checking that a
/// statement that could not be saved is reported, undone, and counted as a failure.
package final class FailingStore: Store {
    package let inner = MemoryStore()
    package var failCommits = true

    package init() {}

    package func commit() throws(StoreError) {
        if failCommits { throw StoreError("disk full") }
        try inner.commit()
    }

    package var tables: Tables { inner.tables }
    package var blobs: BlobStore { inner.blobs }
    package var location: String { "failing" }
    package var details: [Field] { inner.details }
    package func savepoint() -> Savepoint { inner.savepoint() }
    package func rollback(to savepoint: Savepoint) { inner.rollback(to: savepoint) }
}
