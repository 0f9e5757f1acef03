import Foundation

/// Both repositories over one set of data, with the transaction control the shell needs:
/// a statement that fails is rolled back to its savepoint; `commit` makes everything since
/// the last commit durable (a no-op for the in-memory store).
public protocol WardrobeStore: ClothesRepository, StyleRepository {
    /// A mark to roll back to. Marks nest: rolling back to an outer mark undoes inner ones.
    func savepoint() -> Savepoint
    func rollback(to savepoint: Savepoint)
    func commit() throws(RepositoryError)
    /// What the store is: a path or ":memory:".
    var location: String { get }
    /// Facts for `.store`, in order: location, counts, sizes.
    var details: [(String, String)] { get }

    /// Keeps a picture's bytes for a clothes (before the row that refers to it is saved).
    func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(RepositoryError)
    /// A committed or pending picture's bytes, or nil if the file is gone.
    func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]?
}

/// An opaque position in a store's undo log.
public struct Savepoint: Hashable, Sendable {
    public let position: Int
    public init(position: Int) { self.position = position }
}
