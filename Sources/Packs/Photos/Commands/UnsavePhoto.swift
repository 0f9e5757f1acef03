import ClosetCore
import ClosetLanguage

/// `unsave photo <ref>`: the star tapped off ("삭제 되었습니다"): the saved photo and its
/// picture go.
enum UnsavePhoto {
    static let spec = CommandSpec(
        path: ["unsave", "photo"],
        summary: "unsave a photo: remove it and its picture from the store",
        parameters: [Photos.photoParameter],
        examples: ["unsave photo @1", "unsave photo Dwu85P9SOIk"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let id = try state.photoID(invocation)
            guard state.repository.delete(id: id) != nil else {
                throw Diagnostic.notSaved(id, at: invocation.parameters.first?.range)
            }
            invocation.notify(.localized("", korean: "삭제 되었습니다"))
            return .removed(Photos.saved, .opaque(id))
        })
}
