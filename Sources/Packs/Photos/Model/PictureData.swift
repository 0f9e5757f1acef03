import Foundation

/// A photo of the Unsplash feed, as the app decodes it (`[PictureData]`): the id, the size
/// in pixels and the image URLs (the list shows `small`).
public struct PictureData: Sendable, Hashable, Decodable {
    public var id: String
    public var width: Int
    public var height: Int
    public var imageUrl: ImageUrl

    enum CodingKeys: String, CodingKey {
        case id, width, height
        case imageUrl = "urls"
    }

    public init(id: String, width: Int, height: Int, imageUrl: ImageUrl) {
        self.id = id
        self.width = width
        self.height = height
        self.imageUrl = imageUrl
    }

    /// The height shown in the app's 150-point-wide column: `height × 150 / width`, rounded
    /// down (a photo with no width has none).
    public var displayHeight: Int { width > 0 ? height * PhotosState.columnWidth / width : 0 }
}

public struct ImageUrl: Sendable, Hashable, Decodable {
    public var rawUrl: String
    public var regularUrl: String
    public var smallUrl: String

    enum CodingKeys: String, CodingKey {
        case rawUrl = "raw"
        case regularUrl = "regular"
        case smallUrl = "small"
    }

    public init(rawUrl: String, regularUrl: String, smallUrl: String) {
        self.rawUrl = rawUrl
        self.regularUrl = regularUrl
        self.smallUrl = smallUrl
    }
}

/// A feed photo and whether it is saved (the ★ on its cell).
public struct SavablePictureData: Sendable, Hashable {
    public var imageData: PictureData
    public var isSaved: Bool = false

    public init(imageData: PictureData, isSaved: Bool = false) {
        self.imageData = imageData
        self.isSaved = isSaved
    }
}
