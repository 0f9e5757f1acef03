import ClosetCore
import ClosetLanguage
import Foundation

/// `import clothes from=<file> [images=<folder>]`: how a row read back becomes clothes, with its
/// picture where the row has one (`<id>.png` or `<id>.jpg` in the folder, as `export clothes
/// images=` writes them): each row is `add clothes` (`TransferFiles.importThroughAdd`).
enum ImportClothes {
    static let spec = CommandSpec(
        path: ["import", "clothes"],
        summary: "add clothes from a .json or .csv file: every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey],
        notes: [
            WardrobeRecords.clothes.importFields, "Categories and seasons in English or Korean.",
            "A row naming a picture has it as <id>.png or <id>.jpg in images= (missing: a bad row), else beside the file (missing: left out, with a note).",
            "Every row is checked as add clothes checks it; one bad row and nothing is imported.",
        ],
        examples: [
            "import clothes from=wardrobe.json", "import clothes from=sheet.csv",
            "import clothes from=out/wardrobe.json images=out/pictures",
        ],
        run: run)

    /// Each row is `add clothes`, through the door a statement goes through.
    static func run(_ invocation: Invocation) throws -> Outcome {
        _ = try invocation.state(WardrobeState.self)
        return try TransferFiles.importThroughAdd(invocation, schema: WardrobeRecords.clothes)
    }
}
