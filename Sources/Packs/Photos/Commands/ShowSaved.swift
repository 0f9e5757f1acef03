import ClosetCore
import ClosetLanguage

/// `show saved <ref>`: one saved photo, its picture checked against the store.
enum ShowSaved {
    static let spec = CommandSpec(
        path: ["show", "saved"],
        summary: "show one saved photo",
        parameters: [Photos.savedParameter],
        examples: ["show saved @1", "show saved Dwu85P9SOIk"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let photo = try state.savedPhoto(invocation)
            let picture = try state.checkedPicture(photo)
            return .detail(Photos.saved, .opaque(photo.id)) { PhotosRecords.saved.detailRecord(photo) }
                .showing(Pictures(.single, [.bytes(picture, name: photo.pictureName)]))
        })
}
