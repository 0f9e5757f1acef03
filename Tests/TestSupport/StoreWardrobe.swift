import ClosetCore
import ClosetTables
import Foundation
import WardrobePack

/// A store and the wardrobe's repositories over it in one object, as tests like to hold
/// them: commit and roll back, save and fetch, on the same value.
package final class StoreWardrobe<Base: Store>: Store, WardrobeStore {
    package let base: Base
    package let wardrobe: TableWardrobe

    package init(_ base: Base) {
        self.base = base
        // The wardrobe's tables always open on a store made for tests.
        guard let wardrobe = try? TableWardrobe(base) else { fatalError("the wardrobe's tables did not open") }
        self.wardrobe = wardrobe
    }

    // Store
    package var tables: Tables { base.tables }
    package var blobs: BlobStore { base.blobs }
    package func savepoint() -> Savepoint { base.savepoint() }
    package func rollback(to savepoint: Savepoint) { base.rollback(to: savepoint) }
    package func commit() throws(StoreError) { try base.commit() }
    package func refresh() throws(StoreError) { try base.refresh() }
    package func takeWriteProblem() -> WriteProblem? { base.takeWriteProblem() }
    package var location: String { base.location }
    package var details: [Field] { base.details }
    package func check() -> StoreCheck { base.check() }

    // WardrobeStore
    package var revision: Int { wardrobe.revision }
    package var clothesCount: Int { wardrobe.clothesCount }
    package var styleCount: Int { wardrobe.styleCount }
    package func fetchClothesList() throws(RepositoryError) -> ClothesList { try wardrobe.fetchClothesList() }
    package func fetchAllClothes() -> [Clothes] { wardrobe.fetchAllClothes() }
    package func clothes(withID id: UUID) -> Clothes? { wardrobe.clothes(withID: id) }
    package func save(clothes: Clothes) throws(RepositoryError) { try wardrobe.save(clothes: clothes) }
    package func remove(clothes: Clothes) throws(RepositoryError) { try wardrobe.remove(clothes: clothes) }
    package func removeAllClothes() throws(RepositoryError) { try wardrobe.removeAllClothes() }
    package func fetchStyles() throws(RepositoryError) -> [Style] { try wardrobe.fetchStyles() }
    package func style(withID id: UUID) -> Style? { wardrobe.style(withID: id) }
    package func save(style: Style) throws(RepositoryError) { try wardrobe.save(style: style) }
    package func remove(style: Style) throws(RepositoryError) { try wardrobe.remove(style: style) }
    package func removeAllStyles() throws(RepositoryError) { try wardrobe.removeAllStyles() }
    package func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(StoreError) {
        try wardrobe.storeImage(bytes, image, for: id)
    }
    package func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? { wardrobe.loadImage(image, for: id) }
}

/// The wardrobe on a fresh in-memory store.
package typealias MemoryWardrobe = StoreWardrobe<MemoryStore>

extension StoreWardrobe where Base == MemoryStore {
    package convenience init() { self.init(MemoryStore(Wardrobe.pack.tables)) }
}
