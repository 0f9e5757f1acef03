import ClosetCore
import ClosetLanguage
import ClosetNetwork

/// `show photo <ref>`: one feed photo in full (its sizes, column, ★ and URLs) with its picture,
/// as the app's detail opens from the feed. A photo not in the feed in hand is asked of the API.
enum ShowPhoto {
    static let spec = CommandSpec(
        path: ["show", "photo"],
        summary: "show one feed photo: its size, column, whether it is saved, its URLs and picture",
        parameters: [Photos.photoParameter],
        examples: ["show photo @1", "show photo Dwu85P9SOIk"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let id = try state.photoID(invocation)
            let row: PhotosRecords.FeedRow
            if let index = state.feed.index(of: id) {
                row = PhotosRecords.FeedRow(photo: state.feed.image(at: index), column: state.feed.columns[index])
            } else {
                let picture = try state.picture(id)
                row = PhotosRecords.FeedRow(
                    photo: SavablePictureData(imageData: picture, isSaved: state.repository.contains(id)), column: nil)
            }
            let url = row.data.imageUrl.smallUrl
            return .detail(Photos.photo, .opaque(id)) { PhotosRecords.photo.detailRecord(row) }
                .showing(
                    Pictures(
                        .single,
                        [
                            { @Sendable session in
                                guard let state = session.state(PhotosState.self) else {
                                    return Picture(.unavailable("the photos pack is not running"))
                                }
                                do throws(NetworkError) {
                                    return Picture(.bytes(try state.feedPicture(at: url)), name: id)
                                } catch {
                                    return Picture(.unavailable(error.message))
                                }
                            }
                        ]))
        })
}
