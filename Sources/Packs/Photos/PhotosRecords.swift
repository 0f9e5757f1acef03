import ClosetCore
import Foundation

/// Feed photos and saved photos, declared once: every output format derives from them.
enum PhotosRecords {
    /// A feed row: the photo, its masonry column (none for a photo shown outside the feed),
    /// and ★ when saved. Numbered as the app labels its cells (`N번째 사진` under `.lang ko`).
    struct FeedRow {
        var photo: SavablePictureData
        var column: MasonryLayout.Column?
        var data: PictureData { photo.imageData }
    }

    static let photoKind: EntityKind = EntityKind(
        singular: "photo", plural: "photos", korean: "사진", indefinite: "a photo", keyStyle: .opaque,
        koreanRowLabel: "번째 사진", columns: { photo.columns })
    static let photo = EntitySchema<FeedRow>(
        kind: photoKind,
        fields: [
            .field("id") { .key(.opaque($0.data.id)) },
            .column("size", detail: true) { .text("\($0.data.width)x\($0.data.height)") },
            // In the detail view `size` says both (and `height` is the display height there).
            .field("width", detail: false) { .integer($0.data.width) },
            .field("height", detail: false) { .integer($0.data.height) },
            .field("displayHeight", label: "height") { .integer($0.data.displayHeight) },
            .field("column") { $0.column.map { .text($0.rawValue) } ?? .null },
            .field("saved", data: .value { .bool($0.photo.isSaved) }, shown: { .text($0.photo.isSaved ? "★" : "") }) {
                .bool($0.photo.isSaved)
            },
            .field(
                "urls",
                data: .columns([
                    .init("raw") { .text($0.data.imageUrl.rawUrl) },
                    .init("regular") { .text($0.data.imageUrl.regularUrl) },
                    .init("small") { .text($0.data.imageUrl.smallUrl) },
                ])
            ) { row in
                let urls = row.data.imageUrl
                return .object([
                    Field("raw", .text(urls.rawUrl)), Field("regular", .text(urls.regularUrl)),
                    Field("small", .text(urls.smallUrl)),
                ])
            },
        ],
        listing: ["id", "size", "displayHeight", "column", "saved"])

    static let savedKind: EntityKind = EntityKind(
        singular: "saved", plural: "saved", korean: "저장한사진", indefinite: "a saved photo", keyStyle: .opaque,
        columns: { saved.columns })
    static let saved = EntitySchema<SavedPhoto>(
        kind: savedKind,
        fields: [
            .field("id", input: .required("id", .text, "the photo's Unsplash id", editable: false), set: .to(\.id)) {
                .key(.opaque($0.id))
            },
            .field(
                "memo", korean: "메모",
                input: .optional("memo", .text, "a note kept with it", editSummary: "the new memo (\"\" to clear)"),
                set: .to(\.memo)
            ) { .text($0.memo) },
            .field("url", input: .required("url", .text, "its original (raw) URL", editable: false), set: .to(\.url)) {
                .text($0.url)
            },
            .field(
                "image", label: "picture",
                data: .columns([
                    .init("format") { .text($0.image.format.rawValue) }, .init("width") { .integer($0.image.width) },
                    .init("height") { .integer($0.image.height) }, .init("bytes") { .integer($0.image.bytes) },
                ]),
                input: .required("image", .path(allowsNone: false), "its picture, a PNG or JPEG file", editable: false),
                shown: { .text("\($0.image.format.rawValue) \($0.image.width)x\($0.image.height) \($0.image.bytes)B") }
            ) { photo in
                .object([
                    Field("format", .text(photo.image.format.rawValue)), Field("width", .integer(photo.image.width)),
                    Field("height", .integer(photo.image.height)), Field("bytes", .integer(photo.image.bytes)),
                ])
            },
            // The app's `imageSize`: the height in the 150-point column, which sizes the
            // repository's cell (twice it). In the detail, and in data as `displayHeight` (an
            // export and its import keep it); `.dump` writes it as `height=`.
            .field(
                "displayHeight", label: "height",
                input: .optional(
                    "height", .count, "its display height in the 150-point column (default: from the picture)",
                    editable: false),
                set: .to(\.displayHeight)
            ) { .integer($0.displayHeight) },
            .field(
                "savedAt", label: "saved",
                input: .optional("saved", .date, "when it was saved (default now)", editable: false),
                set: .to(\.savedAt)
            ) {
                .date($0.savedAt)
            },
        ],
        listing: ["id", "memo", "image", "savedAt"],
        // The dump supplies the picture's copied path and the display height.
        restore: ["id", "url", "memo", "image", "height", "savedAt"])

    static func record(_ photo: SavablePictureData, column: MasonryLayout.Column) -> Record {
        Self.photo.record(FeedRow(photo: photo, column: column))
    }

    static func record(_ photo: SavedPhoto) -> Record { saved.record(photo) }
}
