import ClosetCore
import ClosetLanguage

/// `list saved`: the Repository screen, in the order saved.
enum ListSaved {
    static let spec = CommandSpec(
        path: ["list", "saved"],
        summary: "list saved photos, in the order saved",
        examples: ["list saved", "list 저장한사진"],
        lists: true,
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            state.saved.list()
            let photos = state.saved.imageList
            // The screen's two-column masonry, each at the height the app shows it.
            return .listing(Photos.saved, photos.map { .opaque($0.id) }) { photos.map(PhotosRecords.record) }
                .showing(
                    Pictures(
                        .masonry(columns: 2),
                        photos.map { photo in
                            { @Sendable session in
                                .stored(
                                    session.state(PhotosState.self)?.repository.picture(of: photo), photo.image,
                                    name: photo.pictureName,
                                    displaySize: (PhotosState.columnWidth, photo.displayHeight))
                            }
                        }))
        })
}
