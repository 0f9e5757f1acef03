import ClosetCore
import Foundation

/// The community in the store: its tables and the rules that span them (removing a story
/// removes its comments and likes; only authors remove; one like per user and story).
final class Community {
    let stories: Table<StoryTable>
    let comments: Table<CommentTable>
    let likes: Table<LikeTable>
    let donations: Table<DonationTable>
    let sequence: Table<CommunitySequenceTable>
    let blobs: BlobStore

    init(_ store: Store) throws(StoreError) {
        stories = try store.tables.table(StoryTable.schema)
        comments = try store.tables.table(CommentTable.schema)
        likes = try store.tables.table(LikeTable.schema)
        donations = try store.tables.table(DonationTable.schema)
        sequence = try store.tables.table(CommunitySequenceTable.schema)
        blobs = store.blobs
    }

    func last(_ name: String) -> Int { sequence[name]?.last ?? 0 }

    /// The next id of a kind, or `id` when a dump restores one (the sequence follows).
    func take(_ name: String, id: Int? = nil) -> Int {
        let next = id ?? last(name) + 1
        if next > last(name) { sequence.upsert(.init(name: name, last: next)) }
        return next
    }

    /// Newest first, after a cursor's story (ids only grow, so "after" is "older than"):
    /// adding stories never shifts a page, removing one never skips another.
    func page(after cursor: Int?, limit: Int) -> (stories: [Story], more: Bool) {
        let older = stories.rows.filter { cursor == nil || $0.id < cursor! }.sorted { $0.id > $1.id }
        return (Array(older.prefix(limit)), older.count > limit)
    }

    func likeCount(_ story: Int) -> Int { likes.rows.filter { $0.story == story }.count }
    func commentsOf(_ story: Int) -> [Comment] { comments.rows.filter { $0.story == story }.sorted { $0.id < $1.id } }

    func remove(story: Story) {
        for comment in commentsOf(story.id) { comments.remove(comment.id) }
        for like in likes.rows where like.story == story.id { likes.remove(LikeTable.key(of: like)) }
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
