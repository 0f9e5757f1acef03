import ClosetCore
import ClosetLanguage

/// `export saved to=<file>`: the saved photos (memo, URL, picture facts) to JSON or CSV.
/// Pictures are not carried; `.dump --images` moves them.
enum ExportSaved {
    static let spec = CommandSpec(
        path: ["export", "saved"],
        summary: "write the saved photos to a .json or .csv file",
        keys: [TransferFiles.toKey],
        examples: ["export saved to=saved.json"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            state.saved.list()
            let photos = state.saved.imageList
            return try TransferFiles.export(Photos.saved, photos.map { .opaque($0.id) }, invocation: invocation) {
                photos.map(PhotosRecords.record)
            }
        })
}
