import ClosetCore
import ClosetLanguage

/// `export saved to=<file> [images=<folder>]`: the saved photos (memo, URL, picture facts) to
/// JSON or CSV; `images=` copies each picture there as `<id>.png` or `<id>.jpg`, so `import
/// saved` can read them back.
enum ExportSaved {
    static let spec = CommandSpec(
        path: ["export", "saved"],
        summary: "write the saved photos to a .json or .csv file (and their pictures to a folder)",
        keys: [TransferFiles.toKey, TransferFiles.imagesKey],
        examples: ["export saved to=saved.json", "export saved to=out/saved.csv images=out/pictures"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            state.saved.list()
            let photos = state.saved.imageList
            return try TransferFiles.export(
                Photos.saved, photos.map { .opaque($0.id) }, invocation: invocation,
                pictures: { try photos.map { (pictureFile(of: $0), try state.checkedPicture($0)) } }
            ) {
                photos.map(PhotosRecords.record)
            }
        })

    /// The picture's file name beside an export: the photo's id, the picture's format.
    static func pictureFile(of photo: SavedPhoto) -> String {
        "\(photo.id).\(photo.image.format == .png ? "png" : "jpg")"
    }
}
