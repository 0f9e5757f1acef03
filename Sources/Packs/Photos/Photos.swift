import ClosetCore
import ClosetLanguage
import ClosetServing
import ClosetTables

/// Picterest, the photo saver, as a pack: the Unsplash feed (`photo`, remote) and the photos
/// saved from it (`saved`, in the store with their pictures).
public enum Photos {
    public static let pack = Pack(
        name: "photos",
        summary: "Picterest, the photo saver: the Unsplash feed and saved photos (사진, 저장한사진)",
        vocabularies: [],
        entityKinds: [photo, saved],
        tables: [AnyTableSchema(SavedPhotoTable.schema)],
        commands: [
            ListPhotos.spec, CountPhotos.spec, SavePhoto.spec, UnsavePhoto.spec, ListSaved.spec, CountSaved.spec,
            ShowSaved.spec, ShowPhoto.spec,
            EditSaved.spec, RemoveSaved.spec, AddSaved.spec, ExportSaved.spec, ImportSaved.spec,
        ].map { spec in
            var speaking = spec
            speaking.run = PicterestNetworkError.speaking(spec.run)
            return speaking
        },
        makeState: { try PhotosState($0) })

    /// The app's APIs `closet serve` answers from the store (or from recordings).
    public static let served: [ServedAPI] = [UnsplashService.api]

    /// A photo of the feed, keyed by its Unsplash id.
    package static let photo = PhotosRecords.photoKind

    /// A saved photo. The Korean word is written without its space (저장한 사진), since an
    /// entity word is one word.
    package static let saved = PhotosRecords.savedKind

    static let photoParameter = ParameterSpec(
        "ref", .reference(photo, many: false, allowsNone: false, constraint: nil),
        "a photo: its Unsplash id, $variable or @N of the feed")
    static let savedParameter = ParameterSpec(
        "ref", .reference(saved, many: false, allowsNone: false, constraint: nil),
        "a saved photo: its id, $variable or @N of list saved")

    static func outcome(_ photo: SavedPhoto) -> Outcome {
        .entity(saved, .opaque(photo.id)) { PhotosRecords.record(photo) }
    }
}
