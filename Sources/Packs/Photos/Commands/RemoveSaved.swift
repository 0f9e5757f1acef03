import ClosetCore
import ClosetLanguage

/// `remove saved <ref>`: the Repository screen's long-press delete ("삭제 하시겠습니까?"),
/// which takes a row of `list saved` where `unsave photo` takes one of the feed.
enum RemoveSaved {
    static let spec = CommandSpec(
        path: ["remove", "saved"],
        summary: "remove a saved photo and its picture (from list saved; unsave photo takes the feed's)",
        parameters: [Photos.savedParameter],
        examples: ["remove saved @1", "remove saved Dwu85P9SOIk"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let photo = try state.savedPhoto(invocation)
            state.repository.delete(id: photo.id)
            return .removed(Photos.saved, .opaque(photo.id))
        })
}
