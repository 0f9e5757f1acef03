import ClosetCore
import ClosetLanguage
import Foundation

/// `export clothes [filters] to=<file> [images=<folder>]`: clothes, filtered like `list clothes`,
/// to JSON or CSV (the engine's `TransferFiles` writes the file); `images=` copies each picture
/// there as `<id>.png` or `<id>.jpg` (checked against its checksum), so `import clothes` reads
/// them back.
enum ExportClothes {
    static let spec = CommandSpec(
        path: ["export", "clothes"],
        summary: "write clothes (filtered like list clothes) to a .json or .csv file",
        keys: Wardrobe.clothesFilterKeys + [TransferFiles.toKey, TransferFiles.imagesKey],
        examples: [
            "export clothes to=wardrobe.json", "export clothes season=winter to=winter.csv",
            "export clothes to=out/wardrobe.json images=out/pictures",
        ],
        keysRepeat: true,
        run: { invocation in
            let state = try invocation.state(WardrobeState.self)
            guard invocation.argument("images") != nil else {
                // No pictures to copy: the clothes are walked one at a time into the file.
                let viewModel = state.clothesViewModel
                viewModel.searchFilters = Wardrobe.filters(from: invocation)
                return try TransferFiles.export(WardrobeRecords.clothes, invocation) { visit in
                    try viewModel.forEachQueriedClothes(visit)
                }
            }
            let clothes = try Wardrobe.filteredClothes(invocation)
            guard case .entities(let entities) = Wardrobe.outcome(clothes) else { preconditionFailure() }
            return try TransferFiles.export(entities, invocation) {
                try clothes.compactMap { item in
                    try item.image.map { image in
                        (
                            pictureFile(of: item.id, image),
                            try WardrobeState.checkedPicture(state.store, image, of: item)
                        )
                    }
                }
            }
        })

    /// A picture's file name beside an export (and in `.dump --images`): the clothes' id, the
    /// picture's format.
    static func pictureFile(of id: UUID, _ image: ImageInfo) -> String {
        "\(id.uuidString).\(image.format == .png ? "png" : "jpg")"
    }
}
