import ClosetCore
import ClosetTables
import Foundation

/// The wardrobe's clothes table. Its row coding is byte for byte what store format 1 wrote
/// after its operation tags 1 (put) and 2 (delete), so format-1 stores keep opening.
enum ClothesTable: TableCodec {
    static let schema = TableSchema<ClothesTable>(
        name: "clothes", formatOneTags: FormatOneTags(put: 1, delete: 2),
        index: TableIndex(bucketCount: bucketCount, bucket: bucket(of:), order: order(of:)))

    /// The snapshot's index: one bucket per category and season, newest first inside each, so
    /// a new process counts and pages `list clothes season=fall limit=20` without decoding.
    static let bucketCount = ClothesCategory.allCases.count * WeatherType.allCases.count

    static func bucket(category: ClothesCategory, season: WeatherType) -> Int {
        category.rawValue * WeatherType.allCases.count + season.rawValue
    }

    static func bucket(of clothes: Clothes) -> Int { bucket(category: clothes.category, season: clothes.weatherType) }

    /// Whole milliseconds, as the row stores its instant.
    static func order(of clothes: Clothes) -> Int64 {
        Int64((clothes.createdAt.timeIntervalSince1970 * 1000).rounded())
    }

    static func key(of row: Clothes) -> UUID { row.id }

    static func encode(_ clothes: Clothes, into writer: inout ByteWriter) {
        writer.uuid(clothes.id)
        writer.date(clothes.createdAt)
        writer.u8(UInt8(clothes.category.rawValue))
        writer.u8(UInt8(clothes.weatherType.rawValue))
        writer.string(clothes.descriptions)
        if let image = clothes.image {
            writer.u8(image.format == .png ? 1 : 2)
            writer.u32(UInt32(clamping: image.width))
            writer.u32(UInt32(clamping: image.height))
            writer.u64(UInt64(clamping: image.bytes))
            writer.u32(image.checksum)
        } else {
            writer.u8(0)
        }
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Clothes {
        let id = try reader.uuid()
        let created = try reader.date()
        guard let category = ClothesCategory(rawValue: Int(try reader.u8())),
            let season = WeatherType(rawValue: Int(try reader.u8()))
        else { throw ByteReader.Malformed() }
        let text = try reader.string()
        var image: ImageInfo?
        switch try reader.u8() {
        case 0: image = nil
        case let format where format <= 2:
            let width = Int(try reader.u32())
            let height = Int(try reader.u32())
            let bytes = try reader.u64()
            guard bytes <= UInt64(Int.max) else { throw ByteReader.Malformed() }
            image = ImageInfo(
                format: format == 1 ? .png : .jpeg, width: width, height: height, bytes: Int(bytes),
                checksum: try reader.u32())
        default: throw ByteReader.Malformed()
        }
        return Clothes(
            id: id, createdAt: created, image: image, category: category, weatherType: season, descriptions: text)
    }

    /// The description's stored UTF-8 within a row's bytes (after the id, the instant, the category
    /// and the season, as `encode` writes them): what a search reads without decoding the row. Nil
    /// when the row is too short to hold it.
    static func descriptionBytes(inRow row: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer? {
        let lengthAt = 16 + 8 + 1 + 1
        guard row.count >= lengthAt + 4 else { return nil }
        let length = Int(row.loadUnaligned(fromByteOffset: lengthAt, as: UInt32.self).littleEndian)
        guard length <= row.count - lengthAt - 4 else { return nil }
        return UnsafeRawBufferPointer(rebasing: row[(lengthAt + 4)..<(lengthAt + 4 + length)])
    }

    static func encode(key: UUID, into writer: inout ByteWriter) { writer.uuid(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> UUID { try reader.uuid() }

    static func blobs(of clothes: Clothes) -> [String] {
        clothes.image.map { [pictureName(for: clothes.id, $0)] } ?? []
    }

    /// `<UUID>-<CRC32>.png|jpg`: made from values closet makes itself, so no id or
    /// user-supplied file name can lead outside the store's folder, and a replaced picture
    /// never overwrites the committed one.
    static func pictureName(for id: UUID, _ image: ImageInfo) -> String { image.blobName(owner: id) }
}
