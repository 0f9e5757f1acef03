import ClosetCore
import Foundation

/// Stories, comments and donations, declared once: every output format, the keys of `add story`,
/// `add comment` and `donate`, and their `.dump` lines derive from them.
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
            .field("id", input: .restoring("id", .count, "restore with this id (what .dump writes)")) {
                .integer($0.story.id)
            },
            .field("title", input: .required("title", .text, "the title"), set: .to(\.story.title)) {
                .text($0.story.title)
            },
            .field("content", input: .required("content", .text, "the story"), set: .to(\.story.content)) {
                .text($0.story.content)
            },
            .field("author", input: .restoring("author", .text, "restore with this author (what .dump writes)")) {
                .text($0.story.author)
            },
            .field(
                "dog", word: true,
                input: .optional(
                    "dog", .reference(Adoption.dog, many: false, allowsNone: false, constraint: nil),
                    "the dog it is about")
            ) { $0.story.dog.map(FieldValue.text) ?? .null },
            // Flat, the pictures' names (as a product's): what `import stories` reads them by.
            .field(
                "images", data: .value { .text($0.story.pictures.map(\.name).joinedText(separator: " ")) },
                input: .optional(
                    "image", .paths(maximum: 5), "up to five PNG or JPEG files, separated by commas", editable: false)
            ) {
                .list($0.story.pictures.map { .text($0.name) })
            },
            .field("likes", shown: { .text(($0.liked ? "♥ " : "") + String($0.likes)) }) { .integer($0.likes) },
            .field("liked") { .bool($0.liked) },
            .children(
                "comments", of: comment, data: .value { .integer($0.comments.count) },
                shown: { .integer($0.comments.count) }
            ) { $0.comments },
            .field(
                "createdAt", label: "created",
                input: .restoring("created", .date, "restore with this time (what .dump writes)")
            ) { .date($0.story.createdAt) },
            // Where `list stories after=` continues past this story: the last row's is the page's.
            .field("cursor", detail: false) { .text(StoryCursor.make(after: $0.story.id)) },
        ],
        listing: ["id", "title", "author", "likes", "comments", "dog", "createdAt"],
        restore: ["id", "author", "title", "content", "dog", "images", "createdAt"])

    static let commentKind: EntityKind = EntityKind(
        singular: "comment", plural: "comments", korean: "댓글", indefinite: "a comment", keyStyle: .opaque,
        columns: { comment.columns })
    static let comment = EntitySchema<Comment>(
        kind: commentKind,
        fields: [
            .field("id", input: .restoring("id", .count, "restore with this id (what .dump writes)")) {
                .integer($0.id)
            },
            .field(
                "story",
                input: .required(
                    "story", .reference(Adoption.story, many: false, allowsNone: false, constraint: nil), "the story",
                    editable: false)
            ) { .integer($0.story) },
            .field("author", input: .restoring("author", .text, "restore with this author (what .dump writes)")) {
                .text($0.author)
            },
            .field("text", input: .required("text", .text, "the comment"), set: .to(\.text)) { .text($0.text) },
            .field(
                "createdAt", label: "created",
                input: .restoring("created", .date, "restore with this time (what .dump writes)")
            ) { .date($0.createdAt) },
        ],
        listing: ["id", "story", "author", "text", "createdAt"],
        restore: ["id", "story", "author", "text", "createdAt"])

    static let donationKind: EntityKind = EntityKind(
        singular: "donation", plural: "donations", korean: "후원", indefinite: "a donation", keyStyle: .opaque,
        columns: { donation.columns })
    static let donation = EntitySchema<Donation>(
        kind: donationKind,
        fields: [
            .field(
                "receipt",
                input: .restoring(
                    "receipt", .count, "restore with this receipt (R-000012 or 12: what .dump writes)",
                    rule: receiptRule)
            ) {
                .text($0.receipt)
            },
            .field("user", input: .restoring("user", .text, "restore as this user's (what .dump writes)")) {
                .text($0.user)
            },
            .field(
                "amount",
                input: .required(
                    "amount", .count, "won, a multiple of 1,000 from 1,000 to 1,000,000", rule: amountRule),
                shown: { .text(won($0.amount)) }
            ) { .integer($0.amount) },
            .field("label", data: .none, detail: false) { .text(won($0.amount)) },
            .field(
                "dog", word: true,
                input: .optional(
                    "dog", .reference(Adoption.dog, many: false, allowsNone: false, constraint: nil), "for this dog")
            ) { $0.dog.map(FieldValue.text) ?? .null },
            .field("message", input: .optional("message", .text, "a message with it")) {
                $0.message.map(FieldValue.text) ?? .null
            },
            .field("status", shown: { _ in .text("recorded, not charged") }) { _ in .text(notCharged) },
            .field(
                "createdAt", label: "created",
                input: .restoring("created", .date, "restore with this time (what .dump writes)")
            ) { .date($0.createdAt) },
        ],
        listing: ["receipt", "user", "amount", "dog", "message", "status", "createdAt"],
        // The dump supplies the receipt as the number `donate receipt=` takes.
        restore: ["receipt", "user", "amount", "dog", "message", "createdAt"])

    /// Whole won from 1,000 to 1,000,000, in thousands: for `donate` and every donation imported.
    static let amountRule = WholeNumberRule(
        1000...1_000_000, step: 1000, meaning: "a donation",
        requirement: "whole won from 1,000 to 1,000,000, in thousands")
    /// A receipt as the app shows it (`R-000012`) or its number alone.
    static let receiptRule = WholeNumberRule(
        0...WholeNumber.maximum, prefix: "R-", meaning: "a receipt", requirement: "R- and its number, or the number")

    /// A profile as the app's 프로필 screen: the stories written and liked, and the donations.
    struct Profile {
        var user: String
        var written: [Story]
        var liked: [Story]
        var donations: [Donation]

        var donationTotal: Int { donations.reduce(0) { $0 + $1.amount } }
    }

    static let profileKind: EntityKind = EntityKind(
        singular: "profile", plural: "profiles", korean: "프로필", indefinite: "a profile", keyStyle: .opaque,
        columns: { profile.columns })
    static let profile = EntitySchema<Profile>(
        kind: profileKind,
        fields: [
            .field("user") { .text($0.user) },
            // Under `.lang ko` as the app's README names the screen: 작성글 및 좋아요한 글.
            .children("stories", korean: "작성글", of: briefStory) { $0.written.map(StoryRow.init(brief:)) },
            .children("liked", korean: "좋아요한 글", of: briefStory) { $0.liked.map(StoryRow.init(brief:)) },
            .children("donations", of: briefDonation) { $0.donations },
            .field("donationTotal", label: "donation total", shown: { .text(won($0.donationTotal)) }) {
                .integer($0.donationTotal)
            },
            .field("donationTotalLabel", detail: false) { .text(won($0.donationTotal)) },
        ],
        listing: ["user", "donationTotal"])
    /// A story and a donation in brief, as a profile lists them.
    static let briefStory = story.only(["id", "title"])
    static let briefDonation = donation.only(["receipt", "amount"])

    static func record(_ story: Story, likes: Int, liked: Bool, comments: [Comment]) -> Record {
        Self.story.record(StoryRow(story: story, likes: likes, liked: liked, comments: comments))
    }

    static func record(_ comment: Comment) -> Record { Self.comment.record(comment) }

    static func record(_ donation: Donation) -> Record { Self.donation.record(donation) }

    /// `10,000원`.
    static func won(_ amount: Int) -> String { DigitGrouping.grouped(amount) + "원" }

    static let notCharged = "recorded, not charged (no payment provider is reachable)"
}

extension CommunityRecords.StoryRow {
    /// A story alone, where only its id and title are shown (a profile's lists).
    init(brief story: Story) { self.init(story: story, likes: 0, liked: false, comments: []) }
}
