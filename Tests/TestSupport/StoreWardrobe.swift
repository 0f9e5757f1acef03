import ClosetCore
import ClosetTables
import Foundation
import WardrobePack

/// A store and the wardrobe's repositories over it in one object, as tests like to hold
/// them: commit and roll back, save and fetch, on the same value.
public final class StoreWardrobe<Base: Store>: Store, WardrobeStore {
    public let base: Base
    public let wardrobe: TableWardrobe

    public init(_ base: Base) {
        self.base = base
        // The wardrobe's tables always open on a store made for tests.
        guard let wardrobe = try? TableWardrobe(base) else { fatalError("the wardrobe's tables did not open") }
        self.wardrobe = wardrobe
    }

    // Store
    public var tables: Tables { base.tables }
    public var blobs: BlobStore { base.blobs }
    public func savepoint() -> Savepoint { base.savepoint() }
    public func rollback(to savepoint: Savepoint) { base.rollback(to: savepoint) }
    public func commit() throws(StoreError) { try base.commit() }
    public func refresh() throws(StoreError) { try base.refresh() }
    public func takeWriteProblem() -> WriteProblem? { base.takeWriteProblem() }
    public var location: String { base.location }
    public var details: [(String, String)] { base.details }
    public func check() -> StoreCheck { base.check() }

    // WardrobeStore
    public var revision: Int { wardrobe.revision }
    public var clothesCount: Int { wardrobe.clothesCount }
    public var styleCount: Int { wardrobe.styleCount }
    public func fetchClothesList() throws(RepositoryError) -> ClothesList { try wardrobe.fetchClothesList() }
    public func fetchAllClothes() -> [Clothes] { wardrobe.fetchAllClothes() }
    public func clothes(withID id: UUID) -> Clothes? { wardrobe.clothes(withID: id) }
    public func save(clothes: Clothes) throws(RepositoryError) { try wardrobe.save(clothes: clothes) }
    public func remove(clothes: Clothes) throws(RepositoryError) { try wardrobe.remove(clothes: clothes) }
    public func removeAllClothes() throws(RepositoryError) { try wardrobe.removeAllClothes() }
    public func fetchStyles() throws(RepositoryError) -> [Style] { try wardrobe.fetchStyles() }
    public func style(withID id: UUID) -> Style? { wardrobe.style(withID: id) }
    public func save(style: Style) throws(RepositoryError) { try wardrobe.save(style: style) }
    public func remove(style: Style) throws(RepositoryError) { try wardrobe.remove(style: style) }
    public func removeAllStyles() throws(RepositoryError) { try wardrobe.removeAllStyles() }
    public func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(StoreError) {
        try wardrobe.storeImage(bytes, image, for: id)
    }
    public func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? { wardrobe.loadImage(image, for: id) }
}

/// The wardrobe on a fresh in-memory store.
public typealias MemoryWardrobe = StoreWardrobe<MemoryStore>

extension StoreWardrobe where Base == MemoryStore {
    public convenience init() { self.init(MemoryStore(Wardrobe.pack.tables)) }
}
