import ClosetCore
import WardrobePack
import Foundation

/// One change as the journal and snapshot keep it: the whole new row, or a deletion.
/// Replaying operations in order rebuilds the tables, insertion order included.
enum StoreOperation: Equatable {
    case putClothes(Clothes)
    case deleteClothes(UUID)
    case putStyle(StyleRecord)
    case deleteStyle(UUID)

    private enum Tag: UInt8 {
        case putClothes = 1, deleteClothes, putStyle, deleteStyle
    }

    func encode(into writer: inout ByteWriter) {
        switch self {
        case .putClothes(let clothes):
            writer.u8(Tag.putClothes.rawValue)
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
        case .deleteClothes(let id):
            writer.u8(Tag.deleteClothes.rawValue)
            writer.uuid(id)
        case .putStyle(let style):
            writer.u8(Tag.putStyle.rawValue)
            writer.uuid(style.id)
            writer.date(style.createdAt)
            writer.u8(style.name == nil ? 0 : 1)
            if let name = style.name { writer.string(name) }
            writer.u8(UInt8(style.weather.rawValue))
            let slots = ClothesCategory.allCases.compactMap { category in style.clothesIDs[category].map { (category, $0) } }
            writer.u8(UInt8(slots.count))
            for (category, id) in slots {
                writer.u8(UInt8(category.rawValue))
                writer.uuid(id)
            }
        case .deleteStyle(let id):
            writer.u8(Tag.deleteStyle.rawValue)
            writer.uuid(id)
        }
    }

    static func decode(from reader: inout ByteReader) throws(ByteReader.Malformed) -> StoreOperation {
        guard let tag = Tag(rawValue: try reader.u8()) else { throw ByteReader.Malformed() }
        switch tag {
        case .putClothes:
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
            return .putClothes(Clothes(
                id: id, createdAt: created, image: image, category: category, weatherType: season, descriptions: text))
        case .deleteClothes:
            return .deleteClothes(try reader.uuid())
        case .putStyle:
            let id = try reader.uuid()
            let created = try reader.date()
            let name: String? = try reader.u8() == 0 ? nil : try reader.string()
            guard let season = WeatherType(rawValue: Int(try reader.u8())) else { throw ByteReader.Malformed() }
            var slots: [ClothesCategory: UUID] = [:]
            for _ in 0..<(try reader.u8()) {
                guard let category = ClothesCategory(rawValue: Int(try reader.u8())) else { throw ByteReader.Malformed() }
                slots[category] = try reader.uuid()
            }
            return .putStyle(StyleRecord(id: id, createdAt: created, name: name, weather: season, clothesIDs: slots))
        case .deleteStyle:
            return .deleteStyle(try reader.uuid())
        }
    }
}
