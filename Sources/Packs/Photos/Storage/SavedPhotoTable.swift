import ClosetCore
import Foundation

/// Saved photos in the store, keyed by photo id, in the order saved.
enum SavedPhotoTable: TableCodec {
    static let schema = TableSchema<SavedPhotoTable>(name: "photos.saved")

    static func key(of row: SavedPhoto) -> String { row.id }

    static func encode(_ photo: SavedPhoto, into writer: inout ByteWriter) {
        writer.string(photo.id)
        writer.string(photo.memo)
        writer.string(photo.url)
        writer.u8(photo.image.format == .png ? 1 : 2)
        writer.u32(UInt32(clamping: photo.image.width))
        writer.u32(UInt32(clamping: photo.image.height))
        writer.u64(UInt64(clamping: photo.image.bytes))
        writer.u32(photo.image.checksum)
        writer.uuid(photo.pictureID)
        writer.u32(UInt32(clamping: photo.displayHeight))
        writer.date(photo.savedAt)
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> SavedPhoto {
        let id = try reader.string()
        let memo = try reader.string()
        let url = try reader.string()
        let format: ImageInfo.Format
        switch try reader.u8() {
        case 1: format = .png
        case 2: format = .jpeg
        default: throw ByteReader.Malformed()
        }
        let image = ImageInfo(
            format: format, width: Int(try reader.u32()), height: Int(try reader.u32()),
            bytes: Int(clamping: try reader.u64()), checksum: try reader.u32())
        return SavedPhoto(
            id: id, memo: memo, url: url, image: image, pictureID: try reader.uuid(),
            displayHeight: Int(try reader.u32()), savedAt: try reader.date())
    }

    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }

    static func blobs(of photo: SavedPhoto) -> [String] { [photo.pictureName] }
}
