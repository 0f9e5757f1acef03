import ClosetCore
import Foundation

/// The app's `StyleRepositoryProtocol`, synchronous.
package protocol StyleRepository: AnyObject {
    /// Every style in insertion order, each with its clothes as they are now.
    func fetchStyles() throws(RepositoryError) -> [Style]
    func style(withID id: UUID) -> Style?
    var styleCount: Int { get }
    /// As `ClothesRepository.revision`.
    var revision: Int { get }
    /// Insert or replace. Every clothes in the style must exist.
    func save(style: Style) throws(RepositoryError)
    func remove(style: Style) throws(RepositoryError)
    func removeAllStyles() throws(RepositoryError)
}
