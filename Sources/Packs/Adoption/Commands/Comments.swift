import ClosetCore
import ClosetLanguage
import Foundation

/// Comments on stories, and donations.
enum Comments {
    static func storyID(_ invocation: Invocation) throws(Diagnostic) -> Int {
        guard let argument = invocation.argument("story"), case .references(_, let keys) = argument.value,
            let text = keys.first?.text
        else { throw invocation.missing("story") }
        guard let id = Int(text), id > 0 else { throw .notAnID(text, "story", at: argument.range) }
        return id
    }

    static let storyKey = KeySpec(
        "story", .reference(Adoption.story, many: false, allowsNone: false, constraint: nil), "the story",
        required: true)

    static let add = CommandSpec(
        path: ["add", "comment"],
        summary: "comment on a story",
        keys: CommunityRecords.comment.keys(.add) + CommunityRecords.comment.keys(.restoring),
        examples: ["add comment story=3 text=\"축하해요!\""],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let story = try Stories.story(state, try storyID(invocation), at: invocation.argument("story")?.range)
            // The text: required (the binder saw to it), set by the comment's schema.
            let draft = try CommunityRecords.comment.draft(invocation)
            if let id = invocation.count("id"), state.community.comments[id] != nil {
                throw Diagnostic.exists("comment", id, at: invocation.argument("id")?.range)
            }
            var comment = Comment(
                id: try state.newID("comment", invocation), story: story.id,
                author: try state.person(invocation, "author"), text: "",
                createdAt: invocation.date("created") ?? invocation.clock.now())
            CommunityRecords.comment.apply(draft, to: &comment)
            state.community.add(comment)
            return .entity(Adoption.comment, .opaque(String(comment.id))) { [comment] in
                CommunityRecords.record(comment)
            }
        })

    static let list = CommandSpec(
        path: ["list", "comments"],
        summary: "list a story's comments, oldest first",
        keys: [storyKey],
        examples: ["list comments story=3"],
        lists: true,
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let story = try Stories.story(state, try storyID(invocation), at: invocation.argument("story")?.range)
            let comments = state.community.commentsOf(story.id)
            return .listing(Adoption.comment, comments.map { .opaque(String($0.id)) }) {
                comments.map(CommunityRecords.record)
            }
        })

    static let edit = CommandSpec(
        path: ["edit", "comment"],
        summary: "change my comment's text (only its author)",
        parameters: [Adoption.commentParameter],
        keys: CommunityRecords.comment.keys(.edit),
        examples: ["edit comment 7 text=\"정말 축하해요!\""],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            var comment = try comment(state, invocation)
            guard comment.author == state.user() else {
                throw Diagnostic.onlyTheAuthor(
                    "comment", author: comment.author, doing: "change", at: invocation.call.range)
            }
            guard !invocation.arguments.isEmpty else { throw invocation.nothingToChange(besides: []) }
            CommunityRecords.comment.apply(try CommunityRecords.comment.draft(invocation), to: &comment)
            state.community.comments.upsert(comment)
            return .entity(Adoption.comment, .opaque(String(comment.id))) { [comment] in
                CommunityRecords.record(comment)
            }
        })

    /// The comment the parameter names.
    static func comment(_ state: AdoptionState, _ invocation: Invocation) throws(Diagnostic) -> Comment {
        let text = try invocation.referenceParameter().text
        guard let id = Int(text), id > 0 else {
            throw Diagnostic.notAnID(text, "comment", at: invocation.parameters.first?.range)
        }
        guard let comment = state.community.comments[id] else {
            throw Diagnostic.noSuch("comment", id, at: invocation.call.range)
        }
        return comment
    }

    static let remove = CommandSpec(
        path: ["remove", "comment"],
        summary: "remove my comment",
        parameters: [Adoption.commentParameter],
        examples: ["remove comment 7"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let comment = try comment(state, invocation)
            guard comment.author == state.user() else {
                throw Diagnostic.onlyTheAuthor("comment", author: comment.author, at: invocation.call.range)
            }
            state.community.comments.remove(comment.id)
            return .removed(Adoption.comment, .opaque(String(comment.id)))
        })

    static let donate = CommandSpec(
        path: ["donate"],
        summary: "donate to the shelters (whole KRW, 1,000 to 1,000,000 in thousands): recorded, not charged",
        keys: CommunityRecords.donation.keys(.add) + CommunityRecords.donation.keys(.restoring),
        notes: ["No payment provider is reachable: the donation is recorded with a receipt, and nothing is charged."],
        examples: ["donate amount=10000 message=\"힘내세요\""],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            // Required, and in its declared range (`CommunityRecords.amountRule`): the binder saw to both.
            guard let amount = invocation.count("amount") else { throw invocation.missing("amount") }
            var dog: String?
            if let argument = invocation.argument("dog"), case .references(_, let keys) = argument.value {
                dog = keys.first?.text
                guard dog?.allSatisfy({ $0.isASCII && $0.isNumber }) == true else {
                    throw Diagnostic.notADesertionNumber(dog ?? "", at: argument.range)
                }
            }
            if let id = invocation.count("receipt"), state.community.donations[id] != nil {
                throw Diagnostic.receiptTaken(Donation.receipt(of: id), at: invocation.argument("receipt")?.range)
            }
            let donation = Donation(
                id: try state.newID("donation", invocation, "receipt"), user: try state.person(invocation, "user"),
                amount: amount, dog: dog,
                // An empty message is none, as a dump or an export leaves it (null, not "").
                message: invocation.text("message").flatMap { $0.isEmpty ? nil : $0 },
                createdAt: invocation.date("created") ?? invocation.clock.now())
            state.community.donations.upsert(donation)
            return .entity(Adoption.donation, .opaque(donation.receipt)) { CommunityRecords.record(donation) }
        })

    /// `show donation <receipt>`: one of my donations in full (a donation is its giver's).
    static let showDonation = CommandSpec(
        path: ["show", "donation"],
        summary: "show one of my donations by its receipt",
        parameters: [Adoption.donationParameter],
        examples: ["show donation R-000001", "show donation @1"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let text = try invocation.referenceParameter().text
            let range = invocation.parameters.first?.range
            let digits = text.hasPrefix("R-") ? String(text.dropFirst(2)) : text
            guard let id = Int(digits), id > 0 else { throw Diagnostic.notAReceipt(text, at: range) }
            guard let donation = state.community.donations[id], donation.user == state.user() else {
                throw Diagnostic.noSuchDonation(Donation.receipt(of: id), at: range)
            }
            return .detail(Adoption.donation, .opaque(donation.receipt)) {
                CommunityRecords.donation.detailRecord(donation)
            }
        })

    static let listDonations = CommandSpec(
        path: ["list", "donations"],
        summary: "list my donations",
        examples: ["list donations"],
        lists: true,
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let mine = state.community.donations.rows.filter { $0.user == state.user() }
            return .listing(Adoption.donation, mine.map { .opaque($0.receipt) }) { mine.map(CommunityRecords.record) }
        })

    static let profile = CommandSpec(
        path: ["show", "profile"],
        aliases: [["show", "프로필"]],
        summary: "show a profile: the stories written and liked, and donations with their total",
        keys: [KeySpec("user", .text, "whose (default me)")],
        examples: ["show profile", "show profile user=민지"],
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            let user = invocation.text("user") ?? state.user()
            let community = state.community
            let profile = CommunityRecords.Profile(
                user: user, written: community.stories(by: user), liked: community.storiesLiked(by: user),
                donations: community.donations.rows.filter { $0.user == user })
            return .detail(CommunityRecords.profileKind, .opaque(user)) {
                CommunityRecords.profile.detailRecord(profile)
            }
        })
}
