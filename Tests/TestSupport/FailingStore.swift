import ClosetCore
import WardrobePack
import ClosetStorage
import Foundation

/// A store whose commits fail (a full disk, say), over an in-memory one: for checking that a
/// statement that could not be saved is reported, undone, and counted as a failure.
public final class FailingStore: WardrobeStore {
    public let inner = MemoryWardrobe()
    public var failCommits = true

    public init() {}

    public func commit() throws(StoreError) {
        if failCommits { throw StoreError("disk full") }
        try inner.commit()
    }

    public var location: String { "failing" }
    public var details: [(String, String)] { inner.details }
    public var revision: Int { inner.revision }
    public func savepoint() -> Savepoint { inner.savepoint() }
    public func rollback(to savepoint: Savepoint) { inner.rollback(to: savepoint) }
    public func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(RepositoryError) { try inner.storeImage(bytes, image, for: id) }
    public func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? { inner.loadImage(image, for: id) }
    public func fetchClothesList() throws(RepositoryError) -> ClothesList { try inner.fetchClothesList() }
    public func fetchAllClothes() -> [Clothes] { inner.fetchAllClothes() }
    public func clothes(withID id: UUID) -> Clothes? { inner.clothes(withID: id) }
    public var clothesCount: Int { inner.clothesCount }
    public func save(clothes: Clothes) throws(RepositoryError) { try inner.save(clothes: clothes) }
    public func remove(clothes: Clothes) throws(RepositoryError) { try inner.remove(clothes: clothes) }
    public func removeAllClothes() throws(RepositoryError) { try inner.removeAllClothes() }
    public func fetchStyles() throws(RepositoryError) -> [Style] { try inner.fetchStyles() }
    public func style(withID id: UUID) -> Style? { inner.style(withID: id) }
    public var styleCount: Int { inner.styleCount }
    public func save(style: Style) throws(RepositoryError) { try inner.save(style: style) }
    public func remove(style: Style) throws(RepositoryError) { try inner.remove(style: style) }
    public func removeAllStyles() throws(RepositoryError) { try inner.removeAllStyles() }
}
