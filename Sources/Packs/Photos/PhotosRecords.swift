import ClosetCore
import Foundation

/// How feed photos and saved photos look in every output format.
enum PhotosRecords {
    /// A feed row: the photo, its display height and masonry column, and ★ when saved.
    static func record(_ photo: SavablePictureData, column: MasonryLayout.Column) -> Record {
        let data = photo.imageData
        let urls = data.imageUrl
        return Record(
            fields: [
                Field("id", .key(.opaque(data.id))), Field("width", .integer(data.width)),
                Field("height", .integer(data.height)), Field("displayHeight", .integer(data.displayHeight)),
                Field("column", .text(column.rawValue)), Field("saved", .bool(photo.isSaved)),
                Field(
                    "urls",
                    .object([
                        Field("raw", .text(urls.rawUrl)), Field("regular", .text(urls.regularUrl)),
                        Field("small", .text(urls.smallUrl)),
                    ])),
            ],
            data: [
                .key(.opaque(data.id)), .integer(data.width), .integer(data.height), .integer(data.displayHeight),
                .text(column.rawValue), .bool(photo.isSaved), .text(urls.rawUrl), .text(urls.regularUrl),
                .text(urls.smallUrl),
            ],
            table: [
                .key(.opaque(data.id)), .text("\(data.width)x\(data.height)"), .integer(data.displayHeight),
                .text(column.rawValue), .text(photo.isSaved ? "★" : ""),
            ])
    }

    static func record(_ photo: SavedPhoto) -> Record {
        let image = photo.image
        return Record(
            fields: [
                Field("id", .key(.opaque(photo.id))), Field("memo", .text(photo.memo)), Field("url", .text(photo.url)),
                Field(
                    "image",
                    .object([
                        Field("format", .text(image.format.rawValue)), Field("width", .integer(image.width)),
                        Field("height", .integer(image.height)), Field("bytes", .integer(image.bytes)),
                    ])),
                Field("savedAt", .date(photo.savedAt)),
            ],
            data: [
                .key(.opaque(photo.id)), .text(photo.memo), .text(photo.url), .text(image.format.rawValue),
                .integer(image.width), .integer(image.height), .integer(image.bytes), .date(photo.savedAt),
            ],
            table: [
                .key(.opaque(photo.id)), .text(photo.memo),
                .text("\(image.format.rawValue) \(image.width)x\(image.height) \(image.bytes)B"), .date(photo.savedAt),
            ])
    }
}
