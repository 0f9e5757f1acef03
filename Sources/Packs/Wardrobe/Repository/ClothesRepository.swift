import ClosetCore
import Foundation

/// The app's `ClothesRepositoryProtocol`, made synchronous: closet evaluates one statement at
/// a time, so publishers would only add ceremony.
package protocol ClothesRepository: AnyObject {
    /// Every clothes grouped by category, insertion order inside each group. An empty closet
    /// is an empty list (the app failed with `.invalidData` here: a quirk not copied).
    func fetchClothesList() throws(RepositoryError) -> ClothesList
    /// Every clothes in insertion order.
    func fetchAllClothes() -> [Clothes]
    /// The same clothes in the same order, handed over one at a time (a dump of a wardrobe of any
    /// size without holding it whole, where the store can).
    func forEachClothes(_ visit: (Clothes) throws -> Void) throws
    func clothes(withID id: UUID) -> Clothes?
    var clothesCount: Int { get }
    /// Changes whenever anything in the store changes (rollbacks included), so view models
    /// can skip fetching what they already have.
    var revision: Int { get }
    /// Insert or replace (keyed on id), as the app's upsert.
    func save(clothes: Clothes) throws(RepositoryError)
    /// Removes the clothes and empties every style slot that held it.
    func remove(clothes: Clothes) throws(RepositoryError)
    func removeAllClothes() throws(RepositoryError)
    /// How many clothes have a category and a season in these masks (bit = raw value) and a
    /// description containing every search's text, answered from the store's index (and, for a
    /// search, its stored rows' bytes) without fetching; nil when it cannot.
    func indexedClothesCount(categories: UInt8, seasons: UInt8, searches: [TextSearch]) -> Int?
    /// Those clothes, categories in display order, each sorted as `sort` (equal instants in
    /// insertion order), the first `limit` of them: what the filtered list begins with, each read
    /// when asked for (`ClothesRows`: the store keeps where each lies instead of the clothes).
    /// Nil when the store cannot answer from its index.
    func indexedClothesRows(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int
    ) -> ClothesRows?
    /// The same clothes handed over one at a time (decoded a few thousand at a time), up to
    /// `limit`; false, and none visited, when the store cannot answer from its index.
    func forEachIndexedClothes(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int,
        _ visit: (Clothes) throws -> Void
    ) throws -> Bool
}

extension ClothesRepository {
    package func forEachClothes(_ visit: (Clothes) throws -> Void) throws {
        for clothes in fetchAllClothes() { try visit(clothes) }
    }
    package func indexedClothesCount(categories: UInt8, seasons: UInt8, searches: [TextSearch]) -> Int? { nil }
    package func indexedClothesRows(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int
    ) -> ClothesRows? { nil }
    package func forEachIndexedClothes(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int,
        _ visit: (Clothes) throws -> Void
    ) throws -> Bool { false }

    /// Without a search.
    package func indexedClothesCount(categories: UInt8, seasons: UInt8) -> Int? {
        indexedClothesCount(categories: categories, seasons: seasons, searches: [])
    }
}
