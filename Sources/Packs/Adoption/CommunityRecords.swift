import ClosetCore
import Foundation

/// How stories, comments and donations look in every output format.
enum CommunityRecords {
    static func record(_ story: Story, likes: Int, liked: Bool, comments: [Comment]) -> Record {
        let dog = story.dog.map(FieldValue.text) ?? .null
        return Record(
            fields: [
                Field("id", .integer(story.id)), Field("title", .text(story.title)),
                Field("content", .text(story.content)),
                Field("author", .text(story.author)), Field("dog", dog),
                Field("images", .list(story.pictures.map { .text($0.name) })), Field("likes", .integer(likes)),
                Field("liked", .bool(liked)), Field("comments", .list(comments.map { .object(record($0).fields) })),
                Field("createdAt", .date(story.createdAt)),
            ],
            data: [
                .integer(story.id), .text(story.title), .text(story.content), .text(story.author), dog,
                .integer(story.pictures.count), .integer(likes), .bool(liked), .integer(comments.count),
                .date(story.createdAt),
            ],
            table: [
                .integer(story.id), .text(story.title), .text(story.author), .text((liked ? "♥ " : "") + String(likes)),
                .integer(comments.count), dog, .date(story.createdAt),
            ])
    }

    static func record(_ comment: Comment) -> Record {
        Record(
            fields: [
                Field("id", .integer(comment.id)), Field("story", .integer(comment.story)),
                Field("author", .text(comment.author)), Field("text", .text(comment.text)),
                Field("createdAt", .date(comment.createdAt)),
            ],
            data: [
                .integer(comment.id), .integer(comment.story), .text(comment.author), .text(comment.text),
                .date(comment.createdAt),
            ],
            table: [
                .integer(comment.id), .integer(comment.story), .text(comment.author), .text(comment.text),
                .date(comment.createdAt),
            ])
    }

    /// `10,000원`.
    static func won(_ amount: Int) -> String { DigitGrouping.grouped(amount) + "원" }

    static let notCharged = "recorded, not charged (no payment provider is reachable)"

    static func record(_ donation: Donation) -> Record {
        let dog = donation.dog.map(FieldValue.text) ?? .null
        let message = donation.message.map(FieldValue.text) ?? .null
        return Record(
            fields: [
                Field("receipt", .text(donation.receipt)), Field("user", .text(donation.user)),
                Field("amount", .integer(donation.amount)), Field("label", .text(won(donation.amount))),
                Field("dog", dog),
                Field("message", message), Field("status", .text(notCharged)),
                Field("createdAt", .date(donation.createdAt)),
            ],
            data: [
                .text(donation.receipt), .text(donation.user), .integer(donation.amount), dog, message,
                .text(notCharged),
                .date(donation.createdAt),
            ],
            table: [
                .text(donation.receipt), .text(donation.user), .text(won(donation.amount)), dog, message,
                .text("recorded, not charged"), .date(donation.createdAt),
            ])
    }
}
