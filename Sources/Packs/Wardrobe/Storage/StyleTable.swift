import ClosetCore
import ClosetTables
import Foundation

/// The wardrobe's style table: a style keeps its clothes by id. Its row coding is byte for
/// byte what store format 1 wrote after its operation tags 3 (put) and 4 (delete).
enum StyleTable: TableCodec {
    static let schema = TableSchema<StyleTable>(name: "styles", formatOneTags: FormatOneTags(put: 3, delete: 4))

    static func key(of row: StyleRecord) -> UUID { row.id }

    static func encode(_ style: StyleRecord, into writer: inout ByteWriter) {
        writer.uuid(style.id)
        writer.date(style.createdAt)
        writer.u8(style.name == nil ? 0 : 1)
        if let name = style.name { writer.string(name) }
        writer.u8(UInt8(style.weather.rawValue))
        let slots = ClothesCategory.allCases.compactMap { category in style.clothesIDs[category].map { (category, $0) }
        }
        writer.u8(UInt8(slots.count))
        for (category, id) in slots {
            writer.u8(UInt8(category.rawValue))
            writer.uuid(id)
        }
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> StyleRecord {
        let id = try reader.uuid()
        let created = try reader.date()
        let name: String? = try reader.u8() == 0 ? nil : try reader.string()
        guard let season = WeatherType(rawValue: Int(try reader.u8())) else { throw ByteReader.Malformed() }
        var slots: [ClothesCategory: UUID] = [:]
        for _ in 0..<(try reader.u8()) {
            guard let category = ClothesCategory(rawValue: Int(try reader.u8())) else { throw ByteReader.Malformed() }
            slots[category] = try reader.uuid()
        }
        return StyleRecord(id: id, createdAt: created, name: name, weather: season, clothesIDs: slots)
    }

    static func encode(key: UUID, into writer: inout ByteWriter) { writer.uuid(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> UUID { try reader.uuid() }
}
