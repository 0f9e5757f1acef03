import Foundation

/// A photo of the Unsplash feed, as the app decodes it (`[PictureData]`): the id, the size
/// in pixels and the image URLs (the list shows `small`).
package struct PictureData: Sendable, Hashable, Decodable {
    package var id: String
    package var width: Int
    package var height: Int
    package var imageUrl: ImageUrl

    enum CodingKeys: String, CodingKey {
        case id, width, height
        case imageUrl = "urls"
    }

    package init(id: String, width: Int, height: Int, imageUrl: ImageUrl) {
        self.id = id
        self.width = width
        self.height = height
        self.imageUrl = imageUrl
    }

    /// The height shown in the app's 150-point-wide column: `height × 150 / width`, rounded
    /// down (a photo with no width has none).
    package var displayHeight: Int { width > 0 ? height * PhotosState.columnWidth / width : 0 }
}

package struct ImageUrl: Sendable, Hashable, Decodable {
    package var rawUrl: String
    package var regularUrl: String
    package var smallUrl: String

    enum CodingKeys: String, CodingKey {
        case rawUrl = "raw"
        case regularUrl = "regular"
        case smallUrl = "small"
    }

    package init(rawUrl: String, regularUrl: String, smallUrl: String) {
        self.rawUrl = rawUrl
        self.regularUrl = regularUrl
        self.smallUrl = smallUrl
    }
}

/// A feed photo and whether it is saved (the ★ on its cell).
struct SavablePictureData: Sendable, Hashable {
    package var imageData: PictureData
    package var isSaved: Bool = false

    package init(imageData: PictureData, isSaved: Bool = false) {
        self.imageData = imageData
        self.isSaved = isSaved
    }
}
