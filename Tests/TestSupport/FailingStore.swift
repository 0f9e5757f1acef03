import ClosetCore
import ClosetTables
import Foundation

/// A store whose commits fail (a full disk, say), over an in-memory one: for checking that a
/// statement that could not be saved is reported, undone, and counted as a failure.
public final class FailingStore: Store {
    public let inner = MemoryStore()
    public var failCommits = true

    public init() {}

    public func commit() throws(StoreError) {
        if failCommits { throw StoreError("disk full") }
        try inner.commit()
    }

    public var tables: Tables { inner.tables }
    public var blobs: BlobStore { inner.blobs }
    public var location: String { "failing" }
    public var details: [(String, String)] { inner.details }
    public func savepoint() -> Savepoint { inner.savepoint() }
    public func rollback(to savepoint: Savepoint) { inner.rollback(to: savepoint) }
}
