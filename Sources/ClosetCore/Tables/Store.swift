/// A store a session runs on: typed tables with one set of transactions, and blobs.
/// `MemoryStore` here, the durable store in ClosetStore. Packs reach their tables through
/// it and never see files.
public protocol Store: TransactionalStore {
    var tables: Tables { get }
    var blobs: BlobStore { get }
}

/// What the engine needs of a store: statement-level savepoints and commits. Each statement
/// runs inside a savepoint and is rolled back to it when it fails; the host decides when
/// everything so far is committed.
public protocol TransactionalStore: AnyObject {
    /// A mark to roll back to. Marks nest: rolling back to an outer mark undoes inner ones.
    func savepoint() -> Savepoint
    func rollback(to savepoint: Savepoint)
    /// Makes everything since the last commit durable (a no-op in memory).
    func commit() throws(StoreError)
    /// What the store is: a path or ":memory:".
    var location: String { get }
    /// Facts for `.store` after the packs' counts, in order: files and sizes.
    var details: [(String, String)] { get }
}

/// An opaque position in a store's undo log.
public struct Savepoint: Hashable, Sendable {
    public let position: Int
    public init(position: Int) { self.position = position }
}

/// The store itself failed (a write, a sync, a damaged file): reported in the engine's own
/// words, never as an app's alert text.
public struct StoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// An error whose text is meant for the user as it is (an app's own alert message).
public protocol LocalizedMessage: Error {
    var message: String { get }
}
