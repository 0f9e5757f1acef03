import ClosetCore
import Foundation

/// Stories, comments and donations, declared once: every output format derives from them.
enum CommunityRecords {
    /// A story as the viewer sees it: its likes (and whether they liked it) and comments.
    struct StoryRow {
        var story: Story
        var likes: Int
        var liked: Bool
        var comments: [Comment]
    }

    static let storyKind: EntityKind = EntityKind(
        singular: "story", plural: "stories", korean: "스토리", indefinite: "a story", keyStyle: .opaque,
        columns: { story.columns })
    static let story = EntitySchema<StoryRow>(
        kind: storyKind,
        fields: [
            .field("id") { .integer($0.story.id) },
            .field("title") { .text($0.story.title) },
            .field("content") { .text($0.story.content) },
            .field("author") { .text($0.story.author) },
            .field("dog", word: true) { $0.story.dog.map(FieldValue.text) ?? .null },
            // Flat, the pictures' names (as a product's): what `import stories` reads them by.
            .field("images", data: .value { .text($0.story.pictures.map(\.name).joined(separator: " ")) }) {
                .list($0.story.pictures.map { .text($0.name) })
            },
            .field("likes", shown: { .text(($0.liked ? "♥ " : "") + String($0.likes)) }) { .integer($0.likes) },
            .field("liked") { .bool($0.liked) },
            .children(
                "comments", of: comment, data: .value { .integer($0.comments.count) },
                shown: { .integer($0.comments.count) }
            ) { $0.comments },
            .field("createdAt", label: "created") { .date($0.story.createdAt) },
            // Where `list stories after=` continues past this story: the last row's is the page's.
            .field("cursor", detail: false) { .text(StoryCursor.make(after: $0.story.id)) },
        ],
        listing: ["id", "title", "author", "likes", "comments", "dog", "createdAt"],
        restore: ["id", "author", "title", "content", "dog", "image", "createdAt"])

    static let commentKind: EntityKind = EntityKind(
        singular: "comment", plural: "comments", korean: "댓글", indefinite: "a comment", keyStyle: .opaque,
        columns: { comment.columns })
    static let comment = EntitySchema<Comment>(
        kind: commentKind,
        fields: [
            .field("id") { .integer($0.id) },
            .field("story") { .integer($0.story) },
            .field("author") { .text($0.author) },
            .field("text") { .text($0.text) },
            .field("createdAt", label: "created") { .date($0.createdAt) },
        ],
        listing: ["id", "story", "author", "text", "createdAt"],
        restore: ["id", "story", "author", "text", "createdAt"])

    static let donationKind: EntityKind = EntityKind(
        singular: "donation", plural: "donations", korean: "후원", indefinite: "a donation", keyStyle: .opaque,
        columns: { donation.columns })
    static let donation = EntitySchema<Donation>(
        kind: donationKind,
        fields: [
            .field("receipt") { .text($0.receipt) },
            .field("user") { .text($0.user) },
            .field("amount", shown: { .text(won($0.amount)) }) { .integer($0.amount) },
            .field("label", data: .none, detail: false) { .text(won($0.amount)) },
            .field("dog", word: true) { $0.dog.map(FieldValue.text) ?? .null },
            .field("message") { $0.message.map(FieldValue.text) ?? .null },
            .field("status", shown: { _ in .text("recorded, not charged") }) { _ in .text(notCharged) },
            .field("createdAt", label: "created") { .date($0.createdAt) },
        ],
        listing: ["receipt", "user", "amount", "dog", "message", "status", "createdAt"],
        // The dump supplies the receipt as the number `donate receipt=` takes.
        restore: ["receipt", "user", "amount", "dog", "message", "createdAt"])

    static func record(_ story: Story, likes: Int, liked: Bool, comments: [Comment]) -> Record {
        Self.story.record(StoryRow(story: story, likes: likes, liked: liked, comments: comments))
    }

    static func record(_ comment: Comment) -> Record { Self.comment.record(comment) }

    static func record(_ donation: Donation) -> Record { Self.donation.record(donation) }

    /// `10,000원`.
    static func won(_ amount: Int) -> String { DigitGrouping.grouped(amount) + "원" }

    static let notCharged = "recorded, not charged (no payment provider is reachable)"
}
