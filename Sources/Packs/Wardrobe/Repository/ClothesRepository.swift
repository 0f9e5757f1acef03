import ClosetCore
import Foundation

/// The app's `ClothesRepositoryProtocol`, made synchronous: closet evaluates one statement at
/// a time, so publishers would only add ceremony.
public protocol ClothesRepository: AnyObject {
    /// Every clothes grouped by category, insertion order inside each group. An empty closet
    /// is an empty list (the app failed with `.invalidData` here: a quirk not copied).
    func fetchClothesList() throws(RepositoryError) -> ClothesList
    /// Every clothes in insertion order.
    func fetchAllClothes() -> [Clothes]
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
}
