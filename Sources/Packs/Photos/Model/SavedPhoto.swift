import ClosetCore
import Foundation

/// A saved photo (the app's CoreData `Picture` and its file): the photo's id, the memo, the
/// original (`raw`) URL, the picture kept in the store, the display height, and when it was
/// saved. The picture is named by `pictureID`, since Unsplash ids are not store names.
package struct SavedPhoto: Sendable, Hashable {
    package var id: String
    package var memo: String
    /// `originUrl`: the photo's raw URL.
    package var url: String
    package var image: ImageInfo
    package var pictureID: UUID
    /// `imageSize`: the height in the 150-point column when it was saved.
    package var displayHeight: Int
    package var savedAt: Date

    package init(
        id: String, memo: String, url: String, image: ImageInfo, pictureID: UUID, displayHeight: Int, savedAt: Date
    ) {
        self.id = id
        self.memo = memo
        self.url = url
        self.image = image
        self.pictureID = pictureID
        self.displayHeight = displayHeight
        self.savedAt = savedAt
    }

    /// `<UUID>-<CRC32>.png|jpg`, the store's blob name.
    var pictureName: String { image.blobName(owner: pictureID) }
}
