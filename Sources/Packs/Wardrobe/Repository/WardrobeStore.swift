import ClosetCore
import ClosetTables
import Foundation

/// Both repositories over one set of data, and the clothes' pictures. Transactions belong to
/// the engine's store underneath: a statement that fails is rolled back there.
package protocol WardrobeStore: ClothesRepository, StyleRepository {
    /// Keeps a picture's bytes for a clothes (before the row that refers to it is saved).
    func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(StoreError)
    /// A committed or pending picture's bytes, or nil if the file is gone.
    func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]?
}
