import ClosetCore
import ClosetLanguage
import Foundation

/// `add saved id=<id> url=<url> image=<path> [memo=<text>] [height=<n>] [saved=<date>]`: restores a saved
/// photo from a local picture, offline. This is what `.dump` writes; `save photo` is how a
/// person saves one from the feed.
enum AddSaved {
    static let spec = CommandSpec(
        path: ["add", "saved"],
        summary: "restore a saved photo from a picture file (what .dump writes)",
        keys: PhotosRecords.saved.keys(.add),
        examples: ["add saved id=Dwu85P9SOIk url=https://images.unsplash.com/photo-1 image=sea.jpg memo=바다"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let draft = try PhotosRecords.saved.draft(invocation)
            let id = draft.text("id") ?? ""
            let idRange = invocation.argument("id")?.range ?? invocation.call.range
            guard PhotosState.isPhotoID(id) else { throw Diagnostic.notAPhotoID(id, at: idRange) }
            if state.repository.contains(id) { throw Diagnostic.alreadySaved(id, at: idRange) }
            guard let image = invocation.argument("image"), case .path(let path) = image.value else {
                throw invocation.missing("image")
            }
            var (bytes, info) = try invocation.readPicture(path, range: image.range)
            info.checksum = Checksum.crc32(bytes)
            let taken = Set(state.repository.fetchPictures().map(\.pictureID))
            // Its id, memo, URL, display height and time as given (by the saved photo's schema); the
            // rest is the picture's.
            var photo = SavedPhoto(
                id: id, memo: "", url: "", image: info, pictureID: invocation.newID { taken.contains($0) },
                displayHeight: info.width > 0 ? info.height * 150 / info.width : 0,
                savedAt: invocation.clock.now())
            PhotosRecords.saved.apply(draft, to: &photo)
            try state.repository.save(photo, picture: bytes)
            return Photos.outcome(photo)
        })
}
