import ClosetCore
import ClosetLanguage
import Foundation

/// `export clothes [filters] to=<file>`: clothes, filtered like `list clothes`, to JSON or CSV
/// (the engine's `TransferFiles` writes the file). Pictures are not carried (only their size);
/// `.dump --images` moves them.
enum ExportClothes {
    static let spec = CommandSpec(
        path: ["export", "clothes"],
        summary: "write clothes (filtered like list clothes) to a .json or .csv file",
        keys: Wardrobe.clothesFilterKeys + [
            TransferFiles.toKey
        ],
        examples: ["export clothes to=wardrobe.json", "export clothes season=winter to=winter.csv"],
        keysRepeat: true,
        run: { invocation in
            try Wardrobe.export(Wardrobe.outcome(Wardrobe.filteredClothes(invocation)), invocation)
        })
}
