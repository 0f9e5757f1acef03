import ClosetCore
import ClosetLanguage
import Foundation

/// The wardrobe's part of `.dump`. Every clothes is bound to `$cN` so styles can name their
/// slots; ids and times are pinned (`id=`, `created=`).
enum WardrobeDump {
    static func write(_ store: WardrobeStore, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        var variable: [UUID: String] = [:]
        for (index, item) in store.fetchAllClothes().enumerated() {
            let name = "$c\(index + 1)"
            variable[item.id] = name
            var line = "let \(name) = add clothes id=\(item.id.uuidString) category=\(item.category.englishName)"
            line += " season=\(item.weatherType.englishName)"
            if !item.descriptions.isEmpty { line += " description=\(quote(item.descriptions))" }
            if let image = item.image {
                let file = "\(item.id.uuidString).\(image.format == .png ? "png" : "jpg")"
                if writer.copiesPictures,
                    let path = try writer.copyPicture(
                        named: file, bytes: WardrobeState.checkedPicture(store, image, of: item))
                {
                    line += " image=\(quote(path))"
                } else {
                    writer.line(
                        "# \(name) has a \(image.format.rawValue) picture \(file), not copied (use .dump --images <dir>)"
                    )
                }
            }
            line += " created=\(Timestamp.format(item.createdAt))"
            writer.line(line)
        }
        for style in try store.fetchStyles() {
            var line = "add style id=\(style.id.uuidString)"
            if let name = style.name { line += " name=\(quote(name))" }
            line += " season=\(style.weather.englishName)"
            for category in ClothesCategory.allCases {
                if let item = style.clothes[category], let name = variable[item.id] {
                    line += " \(category.englishName)=\(name)"
                }
            }
            line += " created=\(Timestamp.format(style.createdAt))"
            writer.line(line)
        }
    }
}
