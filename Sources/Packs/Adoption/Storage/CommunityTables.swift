import ClosetCore
import ClosetTables
import Foundation

/// The community's stored rows: stories, comments, likes, donations, and the last id of
/// each (so an id is never given twice).
struct StoryPicture: Sendable, Hashable {
    package var id: UUID
    package var info: ImageInfo

    /// `<UUID>-<CRC32>.png|jpg`, the store's blob name.
    package var name: String { info.blobName(owner: id) }
}

package struct Story: Sendable, Hashable {
    package var id: Int
    package var author: String
    package var title: String
    package var content: String
    package var dog: String?
    var pictures: [StoryPicture]
    package var createdAt: Date
}

package struct Comment: Sendable, Hashable {
    package var id: Int
    package var story: Int
    package var author: String
    package var text: String
    package var createdAt: Date
}

package struct Like: Sendable, Hashable {
    package var story: Int
    package var user: String
}

struct Donation: Sendable, Hashable {
    package var id: Int
    package var user: String
    package var amount: Int
    package var dog: String?
    package var message: String?
    package var createdAt: Date

    /// `R-000001`.
    var receipt: String { Self.receipt(of: id) }

    static func receipt(of id: Int) -> String {
        "R-" + String(repeating: "0", count: max(0, 6 - String(id).count)) + String(id)
    }
}

extension ByteWriter {
    mutating func optional(_ text: String?) {
        u8(text == nil ? 0 : 1)
        if let text { string(text) }
    }
}

extension ByteReader {
    mutating func optional() throws(ByteReader.Malformed) -> String? { try u8() == 0 ? nil : try string() }
}

/// Stories by id; the list's order (newest first: id descending) is the table's index, so a
/// page after a cursor decodes only its own stories.
enum StoryTable: TableCodec {
    static let schema = TableSchema<StoryTable>(
        name: "adoption.stories", index: TableIndex(bucketCount: 1, bucket: { _ in 0 }, order: { Int64($0.id) }),
        groupings: [byAuthor])
    /// A profile's stories.
    static let byAuthor = TableGrouping<StoryTable>.text("author") { $0.author }
    static func key(of row: Story) -> Int { row.id }
    static func encode(_ story: Story, into writer: inout ByteWriter) {
        writer.wholeNumber(story.id)
        writer.string(story.author)
        writer.string(story.title)
        writer.string(story.content)
        writer.optional(story.dog)
        writer.u8(UInt8(story.pictures.count))
        for picture in story.pictures {
            writer.uuid(picture.id)
            writer.imageInfo(picture.info)
        }
        writer.date(story.createdAt)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Story {
        let id = try reader.wholeNumber()
        let author = try reader.string()
        let title = try reader.string()
        let content = try reader.string()
        let dog = try reader.optional()
        var pictures: [StoryPicture] = []
        for _ in 0..<(try reader.u8()) {
            let pictureID = try reader.uuid()
            pictures.append(StoryPicture(id: pictureID, info: try reader.imageInfo()))
        }
        return Story(
            id: id, author: author, title: title, content: content, dog: dog, pictures: pictures,
            createdAt: try reader.date())
    }
    static func encode(key: Int, into writer: inout ByteWriter) { writer.wholeNumber(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
        try reader.wholeNumber()
    }
    static func blobs(of story: Story) -> [String] { story.pictures.map(\.name) }
}

enum CommentTable: TableCodec {
    static let schema = TableSchema<CommentTable>(name: "adoption.comments", groupings: [byStory])
    /// A story's comments.
    static let byStory = TableGrouping<CommentTable>.number("story") { $0.story }
    static func key(of row: Comment) -> Int { row.id }
    static func encode(_ comment: Comment, into writer: inout ByteWriter) {
        writer.wholeNumber(comment.id)
        writer.wholeNumber(comment.story)
        writer.string(comment.author)
        writer.string(comment.text)
        writer.date(comment.createdAt)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Comment {
        Comment(
            id: try reader.wholeNumber(), story: try reader.wholeNumber(), author: try reader.string(),
            text: try reader.string(),
            createdAt: try reader.date())
    }
    static func encode(key: Int, into writer: inout ByteWriter) { writer.wholeNumber(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
        try reader.wholeNumber()
    }
}

enum LikeTable: TableCodec {
    static let schema = TableSchema<LikeTable>(name: "adoption.likes", groupings: [byStory, byUser])
    /// A story's likes (its count), and the stories a user liked (a profile).
    static let byStory = TableGrouping<LikeTable>.number("story") { $0.story }
    static let byUser = TableGrouping<LikeTable>.text("user") { $0.user }
    static func key(of row: Like) -> String { "\(row.story):\(row.user)" }
    static func encode(_ like: Like, into writer: inout ByteWriter) {
        writer.wholeNumber(like.story)
        writer.string(like.user)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Like {
        Like(story: try reader.wholeNumber(), user: try reader.string())
    }
    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }
}

enum DonationTable: TableCodec {
    static let schema = TableSchema<DonationTable>(name: "adoption.donations")
    static func key(of row: Donation) -> Int { row.id }
    static func encode(_ donation: Donation, into writer: inout ByteWriter) {
        writer.wholeNumber(donation.id)
        writer.string(donation.user)
        writer.wholeNumber(donation.amount)
        writer.optional(donation.dog)
        writer.optional(donation.message)
        writer.date(donation.createdAt)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Donation {
        Donation(
            id: try reader.wholeNumber(), user: try reader.string(), amount: try reader.wholeNumber(),
            dog: try reader.optional(),
            message: try reader.optional(), createdAt: try reader.date())
    }
    static func encode(key: Int, into writer: inout ByteWriter) { writer.wholeNumber(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
        try reader.wholeNumber()
    }
}

/// The last id given per kind (`story`, `comment`, `donation`).
enum CommunitySequenceTable: TableCodec {
    struct Row: Sendable, Hashable {
        var name: String
        var last: Int
    }
    static let schema = TableSchema<CommunitySequenceTable>(name: "adoption.sequence")
    static func key(of row: Row) -> String { row.name }
    static func encode(_ row: Row, into writer: inout ByteWriter) {
        writer.string(row.name)
        writer.wholeNumber(row.last)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row {
        Row(name: try reader.string(), last: try reader.wholeNumber())
    }
    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }
}
