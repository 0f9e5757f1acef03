import ClosetCore
import ClosetLanguage
import Foundation

/// `import saved from=<file> [images=<folder>]`: what `export saved` writes, read back with
/// each photo's picture (`<id>.png` or `<id>.jpg` in the folder, as `images=` exports them),
/// each row checked as `add saved` checks it and nothing kept if one is bad.
enum ImportSaved {
    static let spec = CommandSpec(
        path: ["import", "saved"],
        summary: "add saved photos and their pictures from a file export wrote: every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey],
        notes: [
            PhotosRecords.saved.importFields, "image: the picture, <id>.png or <id>.jpg in images=.",
        ],
        examples: ["import saved from=out/saved.csv images=out/pictures"],
        run: run)

    /// Each row is `add saved`, through the door a statement goes through.
    static func run(_ invocation: Invocation) throws -> Outcome {
        _ = try invocation.state(PhotosState.self)
        return try TransferFiles.importThroughAdd(invocation, schema: PhotosRecords.saved)
    }
}
