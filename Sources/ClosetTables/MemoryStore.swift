import ClosetCore

/// A store kept in memory (`:memory:`): tables with statement-level undo, blobs in a
/// dictionary, forgotten at exit. A commit only forgets the undo log and the blobs that
/// committed changes released.
public final class MemoryStore: Store {
    public let tables: Tables
    public let blobs: BlobStore

    public init(_ schemas: [AnyTableSchema] = []) {
        tables = Tables(schemas)
        blobs = MemoryBlobs()
    }

    public var location: String { ":memory:" }

    public var details: [Field] {
        [
            Field(
                "images",
                .object([Field("files", .integer(blobs.names.count)), Field("bytes", .integer(blobs.totalBytes))]))
        ]
    }

    public func savepoint() -> Savepoint { tables.savepoint() }

    public func rollback(to savepoint: Savepoint) { tables.rollback(to: savepoint) }

    public func commit() throws(StoreError) {
        let released = tables.releasedBlobs()
        tables.forgetPendingChanges()
        tables.removeReleased(released, from: blobs)
    }
}
