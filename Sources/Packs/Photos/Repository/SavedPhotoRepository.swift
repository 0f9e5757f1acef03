import ClosetCore
import ClosetTables
import Foundation

/// The app's `CoreDataManager` and `PicterestFileManager` in one: saved photos and their
/// pictures, in the store's table and blobs (one transaction per statement).
final class SavedPhotoRepository {
    let table: Table<SavedPhotoTable>
    let blobs: BlobStore

    init(_ store: Store) throws(StoreError) {
        table = try store.tables.table(SavedPhotoTable.schema)
        blobs = store.blobs
    }

    var count: Int { table.count }

    /// In the order saved (the app's fetch had no sort: its order was whatever CoreData gave).
    func fetchPictures() -> [SavedPhoto] { table.rows }

    func searchPicture(id: String) -> SavedPhoto? { table[id] }

    func contains(_ id: String) -> Bool { table.contains(id) }

    /// Writes the picture, then the row: a picture that cannot be written saves nothing.
    func save(_ photo: SavedPhoto, picture: [UInt8]) throws(StoreError) {
        try blobs.write(picture, named: photo.pictureName)
        table.upsert(photo)
    }

    func update(_ photo: SavedPhoto) { table.upsert(photo) }

    /// The row goes; its picture is deleted once no committed row needs it.
    @discardableResult
    func delete(id: String) -> SavedPhoto? { table.remove(id) }

    func picture(of photo: SavedPhoto) -> [UInt8]? { blobs.read(named: photo.pictureName) }
}
