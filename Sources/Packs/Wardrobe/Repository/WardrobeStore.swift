import ClosetCore
import Foundation

/// Both repositories over one set of data, with the transaction control the shell needs:
/// a statement that fails is rolled back to its savepoint; `commit` makes everything since
/// the last commit durable (a no-op for the in-memory store).
public protocol WardrobeStore: ClothesRepository, StyleRepository, TransactionalStore {
    /// Keeps a picture's bytes for a clothes (before the row that refers to it is saved).
    func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(RepositoryError)
    /// A committed or pending picture's bytes, or nil if the file is gone.
    func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]?
}
