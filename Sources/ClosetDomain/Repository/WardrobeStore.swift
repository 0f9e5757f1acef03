/// Both repositories over one set of data, with the transaction control the shell needs:
/// a statement that fails is rolled back to its savepoint; `commit` makes everything since
/// the last commit durable (a no-op for the in-memory store).
public protocol WardrobeStore: ClothesRepository, StyleRepository {
    /// A mark to roll back to. Marks nest: rolling back to an outer mark undoes inner ones.
    func savepoint() -> Savepoint
    func rollback(to savepoint: Savepoint)
    func commit() throws(RepositoryError)
    /// What the store is, for `.store`: a path or ":memory:".
    var location: String { get }
}

/// An opaque position in a store's undo log.
public struct Savepoint: Hashable, Sendable {
    public let position: Int
    public init(position: Int) { self.position = position }
}
