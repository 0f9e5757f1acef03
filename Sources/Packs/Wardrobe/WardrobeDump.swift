import ClosetCore
import ClosetLanguage
import Foundation

/// The wardrobe's part of `.dump`. Every clothes is bound to `$cN` so styles can name their
/// slots; ids and times are pinned (`id=`, `created=`).
enum WardrobeDump {
    static func write(_ store: WardrobeStore, into writer: inout DumpWriter) throws {
        let quote = DumpWriter.quote
        // Only the clothes a style names need their variable remembered (a wardrobe of a
        // million clothes has a few styles).
        let styles = try store.fetchStyles()
        let named = Set(styles.flatMap { $0.clothes.values.map(\.id) })
        var variable: [UUID: String] = [:]
        var index = 0
        // One at a time: a wardrobe of a million clothes is never decoded whole for its dump.
        try store.forEachClothes { item in
            index += 1
            let binding = DumpVariable("c", index)
            if !named.isEmpty, named.contains(item.id) { variable[item.id] = binding.name }
            var supplied: [String: String] = [:]
            if let image = item.image {
                let file = ExportClothes.pictureFile(of: item.id, image)
                if writer.copiesPictures {
                    // Left out by --skip-damaged: the clothes is made without it (said above it).
                    let path = try writer.copyChecked(named: file) { () throws(Diagnostic) -> [UInt8] in
                        try WardrobeState.checkedPicture(store, image, of: item)
                    }
                    if let path { supplied["image"] = quote(path) }
                } else {
                    writer.line(
                        "# \(binding.name) has a \(image.format.rawValue) picture \(file), not copied (use .dump --images <dir>)"
                    )
                }
            }
            writer.statement("add clothes", WardrobeRecords.clothes, item, binding: binding, supplied: supplied)
        }
        for style in styles {
            var slots: [String: String] = [:]
            for (category, item) in style.clothes {
                if let name = variable[item.id] { slots[category.englishName] = name }
            }
            writer.statement("add style", WardrobeRecords.style, style, supplied: slots)
        }
    }
}
