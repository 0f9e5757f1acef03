import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// `save photo <ref> [memo=<text>]`: the star tapped on, with the memo the app asks for
/// ("메모를 함께 남겨주세요"). The picture the list shows (`small`) is downloaded and checked
/// like every picture before anything is stored; the original URL (`raw`) is kept with it.
enum SavePhoto {
    static let spec = CommandSpec(
        path: ["save", "photo"],
        summary: "save a feed photo: download its picture into the store, with a memo",
        parameters: [Photos.photoParameter],
        keys: [KeySpec("memo", .text, "a note kept with it (default empty)")],
        examples: ["save photo @1 memo=\"바다 사진\"", "save photo Dwu85P9SOIk", "save photo $p"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let id = try state.photoID(invocation)
            if state.repository.contains(id) { throw Diagnostic.alreadySaved(id, at: invocation.call.range) }
            let picture = try state.picture(id)
            let bytes = try state.feedPicture(at: picture.imageUrl.smallUrl)
            var info: ImageInfo
            do throws(PictureBytes.Problem) {
                info = try PictureBytes.inspect(bytes)
            } catch {
                throw Diagnostic.notAPhotoPicture(
                    picture.imageUrl.smallUrl, problem: error.message, at: invocation.call.range)
            }
            info.checksum = Checksum.crc32(bytes)
            let taken = Set(state.repository.fetchPictures().map(\.pictureID))
            let photo = SavedPhoto(
                id: id, memo: invocation.text("memo") ?? "", url: picture.imageUrl.rawUrl, image: info,
                pictureID: invocation.newID { taken.contains($0) }, displayHeight: picture.displayHeight,
                savedAt: invocation.clock.now())
            try state.repository.save(photo, picture: bytes)
            return Photos.outcome(photo)
        })
}
