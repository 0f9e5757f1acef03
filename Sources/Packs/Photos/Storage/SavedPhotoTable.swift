import ClosetCore
import ClosetTables
import Foundation

/// Saved photos in the store, keyed by photo id, in the order saved.
enum SavedPhotoTable: TableCodec {
    static let schema = TableSchema<SavedPhotoTable>(name: "photos.saved")

    static func key(of row: SavedPhoto) -> String { row.id }

    static func encode(_ photo: SavedPhoto, into writer: inout ByteWriter) {
        writer.string(photo.id)
        writer.string(photo.memo)
        writer.string(photo.url)
        writer.imageInfo(photo.image)
        writer.uuid(photo.pictureID)
        writer.u32(UInt32(clamping: photo.displayHeight))
        writer.date(photo.savedAt)
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> SavedPhoto {
        let id = try reader.string()
        let memo = try reader.string()
        let url = try reader.string()
        let image = try reader.imageInfo()
        return SavedPhoto(
            id: id, memo: memo, url: url, image: image, pictureID: try reader.uuid(),
            displayHeight: Int(try reader.u32()), savedAt: try reader.date())
    }

    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }

    static func blobs(of photo: SavedPhoto) -> [String] { [photo.pictureName] }
}
