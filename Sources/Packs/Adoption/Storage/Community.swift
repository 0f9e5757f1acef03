import ClosetCore
import ClosetTables
import Foundation

/// The community in the store: its tables and the rules that span them (removing a story
/// removes its comments and likes; only authors remove; one like per user and story).
final class Community {
    let stories: Table<StoryTable>
    let comments: Table<CommentTable>
    let likes: Table<LikeTable>
    let donations: Table<DonationTable>
    let sequence: Table<CommunitySequenceTable>
    let accounts: Table<CodableRows<Account>>
    let refreshTokens: Table<CodableRows<LiveRefreshToken>>
    let tokenKeys: Table<CodableRows<TokenKey>>
    let blobs: BlobStore

    init(_ store: Store) throws(StoreError) {
        stories = try store.tables.table(StoryTable.schema)
        comments = try store.tables.table(CommentTable.schema)
        likes = try store.tables.table(LikeTable.schema)
        donations = try store.tables.table(DonationTable.schema)
        sequence = try store.tables.table(CommunitySequenceTable.schema)
        accounts = try store.tables.table(AccountTables.accounts)
        refreshTokens = try store.tables.table(AccountTables.refreshTokens)
        tokenKeys = try store.tables.table(AccountTables.tokenKeys)
        blobs = store.blobs
    }

    func last(_ name: String) -> Int { sequence[name]?.last ?? 0 }

    /// The next id of a kind, or `id` when a dump restores one (the sequence follows). Nil when
    /// the next would pass the largest id a statement can write.
    func take(_ name: String, id: Int? = nil) -> Int? {
        guard let next = id ?? (last(name) < WholeNumber.maximum ? last(name) + 1 : nil) else { return nil }
        if next > last(name) { sequence.upsert(.init(name: name, last: next)) }
        return next
    }

    /// Newest first, after a cursor's story (ids only grow, so "after" is "older than"):
    /// adding stories never shifts a page, removing one never skips another. The stories'
    /// index (id descending) finds the cursor by binary search and decodes only the page.
    func page(after cursor: Int?, limit: Int) -> (stories: [Story], more: Bool) {
        let older = stories.orderedRows(
            groups: [[0]], descending: true, after: cursor.map(Int64.init), limit: limit + 1)
        return (Array(older.prefix(limit)), older.count > limit)
    }

    /// Likes and comments grouped by story, and likes and stories by user, each built in one
    /// pass the first time it is asked for after its table changed (the table's revision
    /// says when): a page of stories costs one pass over the likes, not one per story.
    private var likeGroups: (revision: Int, byStory: [Int: [String]], byUser: [String: [Int]])?
    private var commentGroups: (revision: Int, byStory: [Int: [Comment]])?
    private var storyGroups: (revision: Int, byAuthor: [String: [Int]])?

    private var groupedLikes: (byStory: [Int: [String]], byUser: [String: [Int]]) {
        if likeGroups?.revision != likes.revision {
            var byStory: [Int: [String]] = [:]
            var byUser: [String: [Int]] = [:]
            likes.forEachRow { like in
                byStory[like.story, default: []].append(like.user)
                byUser[like.user, default: []].append(like.story)
            }
            likeGroups = (likes.revision, byStory, byUser)
        }
        return (likeGroups?.byStory ?? [:], likeGroups?.byUser ?? [:])
    }

    // Each question is answered first from the snapshot's grouping sections (a new process
    // decodes only the group's rows), else from the groups in memory.

    func likeCount(_ story: Int) -> Int {
        likes.groupCount(LikeTable.byStory, .number(story)) ?? groupedLikes.byStory[story]?.count ?? 0
    }

    /// Likes written through these keep the groups current (no pass over every like after
    /// each one: seeding likes is linear); a rollback changes the revision, so they are built
    /// again when next asked for.
    func add(_ like: Like) {
        let current = likeGroups?.revision == likes.revision && likes[LikeTable.key(of: like)] == nil
        likes.upsert(like)
        guard current, var groups = likeGroups else { return }
        likeGroups = nil
        groups.byStory[like.story, default: []].append(like.user)
        groups.byUser[like.user, default: []].append(like.story)
        groups.revision = likes.revision
        likeGroups = groups
    }

    /// Takes back a like; false when there was none.
    func remove(_ like: Like) -> Bool {
        let current = likeGroups?.revision == likes.revision
        guard likes.remove(LikeTable.key(of: like)) != nil else { return false }
        guard current, var groups = likeGroups else { return true }
        likeGroups = nil
        groups.byStory[like.story]?.removeAll { $0 == like.user }
        groups.byUser[like.user]?.removeAll { $0 == like.story }
        groups.revision = likes.revision
        likeGroups = groups
        return true
    }

    /// A comment written through this keeps the groups current, as `add(_: Like)` does.
    func add(_ comment: Comment) {
        let current = commentGroups?.revision == comments.revision && comments[comment.id] == nil
        comments.upsert(comment)
        guard current, var groups = commentGroups else { return }
        commentGroups = nil
        groups.byStory[comment.story, default: []].append(comment)
        groups.byStory[comment.story]?.sort { $0.id < $1.id }
        groups.revision = comments.revision
        commentGroups = groups
    }

    /// The stories a user liked, newest first.
    func storiesLiked(by user: String) -> [Story] {
        let liked = likes.groupRows(LikeTable.byUser, .text(user))?.map(\.story) ?? groupedLikes.byUser[user] ?? []
        return liked.sorted(by: >).compactMap { stories[$0] }
    }

    /// A story's comments, oldest first.
    func commentsOf(_ story: Int) -> [Comment] {
        if let rows = comments.groupRows(CommentTable.byStory, .number(story)) { return rows.sorted { $0.id < $1.id } }
        if commentGroups?.revision != comments.revision {
            var byStory: [Int: [Comment]] = [:]
            comments.forEachRow { byStory[$0.story, default: []].append($0) }
            for story in byStory.keys { byStory[story]?.sort { $0.id < $1.id } }
            commentGroups = (comments.revision, byStory)
        }
        return commentGroups?.byStory[story] ?? []
    }

    /// The stories a user wrote, newest first.
    func stories(by author: String) -> [Story] {
        if let rows = stories.groupRows(StoryTable.byAuthor, .text(author)) { return rows.sorted { $0.id > $1.id } }
        if storyGroups?.revision != stories.revision {
            var byAuthor: [String: [Int]] = [:]
            stories.forEachRow { byAuthor[$0.author, default: []].append($0.id) }
            storyGroups = (stories.revision, byAuthor)
        }
        return (storyGroups?.byAuthor[author] ?? []).sorted(by: >).compactMap { stories[$0] }
    }

    func remove(story: Story) {
        for comment in commentsOf(story.id) { comments.remove(comment.id) }
        let users =
            likes.groupRows(LikeTable.byStory, .number(story.id))?.map(\.user) ?? groupedLikes.byStory[story.id] ?? []
        for user in users { _ = remove(Like(story: story.id, user: user)) }
        stories.remove(story.id)
    }
}

/// Opaque cursors for `list stories`: the story the page ended at, with a check so a
/// forged or mistyped cursor is refused rather than read.
enum StoryCursor {
    static func make(after story: Int) -> String {
        let body = String(story, radix: 36)
        return "c" + body + "." + check(body)
    }

    /// The story id, or nil when the text is not a cursor this pack made.
    static func read(_ text: String) -> Int? {
        guard text.hasPrefix("c"), let dot = text.firstIndex(of: ".") else { return nil }
        let body = String(text[text.index(after: text.startIndex)..<dot])
        guard !body.isEmpty, String(text[text.index(after: dot)...]) == check(body), let id = Int(body, radix: 36),
            id > 0
        else { return nil }
        return id
    }

    static func check(_ body: String) -> String {
        let crc = Checksum.crc32(Array("closet-story-cursor:\(body)".utf8))
        let hex = String(crc & 0xFFFFFF, radix: 16)
        return String(repeating: "0", count: 6 - hex.count) + hex
    }
}
