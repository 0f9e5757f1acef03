import Foundation
import TestSupport
import Testing

@testable import AdoptionPack
@testable import ClosetCore
@testable import ClosetStore
@testable import ClosetTables

/// Issue 24: a story's likes and comments, a user's liked stories and an author's stories
/// come from the snapshot's grouping sections (decoding only the group), adjusted by the
/// journal, and say exactly what decoding every row says; a grouping section that was not
/// written with its snapshot is never used.
@Suite struct CommunityGroupingTests {
    static let schemas = [
        AnyTableSchema(StoryTable.schema), AnyTableSchema(CommentTable.schema), AnyTableSchema(LikeTable.schema),
        AnyTableSchema(DonationTable.schema), AnyTableSchema(CommunitySequenceTable.schema),
    ]
    static let users = ["a", "b", "c", "d", "e"]

    func open(_ path: String) throws -> (DurableStore, Community) {
        let store = try DurableStore(path: path, tables: Self.schemas) { _ in }
        return (store, try Community(store))
    }

    /// A compacted community, then a journal of likes, unlikes, comments and a removal.
    func store() throws -> String {
        var random = SeededRandom(seed: 24)
        let path = NSTemporaryDirectory() + "closet-groups-\(UUID().uuidString)"
        do {
            let (store, community) = try open(path)
            for _ in 0..<300 {
                community.stories.upsert(
                    Story(
                        id: (community.take("story") ?? 0), author: Self.users.randomElement(using: &random)!,
                        title: "t",
                        content: "c", dog: nil, pictures: [], createdAt: Date(timeIntervalSince1970: 0)))
            }
            for _ in 0..<500 {
                let like = Like(
                    story: Int.random(in: 1...300, using: &random), user: Self.users.randomElement(using: &random)!)
                if community.likes[LikeTable.key(of: like)] == nil { community.add(like) }
            }
            for _ in 0..<400 { addComment(community, &random) }
            try store.commit()
            try store.compact()
        }
        let (store, community) = try open(path)
        for _ in 0..<60 {
            let like = Like(
                story: Int.random(in: 1...300, using: &random), user: Self.users.randomElement(using: &random)!)
            if community.likes[LikeTable.key(of: like)] == nil {
                community.add(like)
            } else {
                _ = community.remove(like)
            }
            addComment(community, &random)
            try store.commit()
        }
        if let story = community.stories[42] { community.remove(story: story) }
        try store.commit()
        return path
    }

    func addComment(_ community: Community, _ random: inout SeededRandom) {
        community.add(
            Comment(
                id: (community.take("comment") ?? 0), story: Int.random(in: 1...300, using: &random), author: "a",
                text: "x",
                createdAt: Date(timeIntervalSince1970: 0)))
    }

    /// What every question answers: likes, comments, liked and written stories.
    func answers(_ community: Community) -> [String] {
        (1...300).map { "\($0): \(community.likeCount($0)) \(community.commentsOf($0).map(\.id))" }
            + Self.users.map { user in
                "\(user): \(community.storiesLiked(by: user).map(\.id)) \(community.stories(by: user).map(\.id))"
            }
    }

    @Test func groupsFromTheSnapshotEqualDecodingEveryRow() throws {
        let path = try store()
        let (_, lazy) = try open(path)
        // Read in place: the grouping sections answer.
        #expect(lazy.likes.groupCount(LikeTable.byStory, .number(1)) != nil)
        #expect(lazy.comments.groupRows(CommentTable.byStory, .number(1)) != nil)
        #expect(lazy.stories.groupRows(StoryTable.byAuthor, .text("a")) != nil)
        let fromSections = answers(lazy)
        let (_, decoded) = try open(path)
        _ = (decoded.likes.rows, decoded.comments.rows, decoded.stories.rows)  // decoded whole
        #expect(decoded.likes.groupCount(LikeTable.byStory, .number(1)) == nil)
        #expect(fromSections == answers(decoded))
        #expect(lazy.stories[42] == nil && lazy.likeCount(42) == 0 && lazy.commentsOf(42).isEmpty)
    }

    /// A table's section and grouping sections as written now.
    func sections<Codec: TableCodec>(_ table: Table<Codec>) -> [[UInt8]] {
        var section = ByteWriter()
        table.writeSnapshotSection(committed: true, into: &section)
        return [section.bytes]
            + (0...table.groups.groupings.count).map { number in
                var derived = ByteWriter()
                table.writeDerivedSection(number, generation: 7, into: &derived)
                return derived.bytes
            }
    }

    /// A compaction over grouped rows still read in place copies them as bytes (`SectionCopy`)
    /// and carries each group over from the grouping section (kept rows renumbered, a row
    /// replaced under another group moved, new rows added): exactly the sections decoding
    /// every row and writing them again gives, and the store compacted so answers as before.
    @Test func aCompactionCopiesGroupedRowsAndCarriesTheirGroups() throws {
        let path = try store()
        let (store, community) = try open(path)
        var random = SeededRandom(seed: 47)
        // Stories moved to another author or kept by theirs, in place; new ones after them.
        for id in [7, 8, 9, 250] {
            guard var story = community.stories[id] else { continue }
            story.author = id == 9 ? story.author : Self.users.randomElement(using: &random)! + "2"
            story.title = "moved"
            community.stories.upsert(story)
        }
        for _ in 0..<5 {
            community.stories.upsert(
                Story(
                    id: (community.take("story") ?? 0), author: "f", title: "new", content: "c", dog: nil,
                    pictures: [], createdAt: Date(timeIntervalSince1970: 0)))
        }
        try store.commit()
        let expected = answers(community)
        // (Compared as flags: a failure would otherwise print every byte.)
        let storiesCopied = sections(community.stories)
        let storiesLazy = community.stories.lazy != nil
        let commentsCopied = sections(community.comments)
        let commentsLazy = community.comments.lazy != nil
        let likesCopied = sections(community.likes)
        let likesLazy = community.likes.lazy != nil
        #expect(storiesLazy && commentsLazy && likesLazy)  // copied, not decoded
        _ = (community.stories.rows, community.comments.rows, community.likes.rows)
        let storiesSame = storiesCopied == sections(community.stories)
        let commentsSame = commentsCopied == sections(community.comments)
        let likesSame = likesCopied == sections(community.likes)
        #expect(storiesSame && commentsSame && likesSame)
        let (compacting, _) = try open(path)
        try compacting.compact()
        let (reopened, compacted) = try open(path)
        #expect(compacted.stories.groupRows(StoryTable.byAuthor, .text("f"))?.count == 5)
        #expect(compacted.likes.groupCount(LikeTable.byUser, .text("a")) != nil)
        #expect(answers(compacted) == expected)
        #expect(reopened.check().problems.isEmpty, "\(reopened.check().problems)")
    }

    /// `.check` compares each grouping section with what the rows say.
    @Test func theCheckComparesGroupingSectionsWithTheRows() throws {
        let path = try store()
        let (store, community) = try open(path)
        #expect(store.check().problems.isEmpty, "\(store.check().problems)")
        let section = try #require(community.likes.groups.sections[0])
        var rows: [[UInt8]: [Int]] = [:]
        for ordinal in 0..<community.likes.lazy!.base.count {
            let like = community.likes.lazy!.decodeBase(ordinal)
            rows[LikeTable.byStory.key(like), default: []].append(ordinal)
        }
        #expect(TablePasses<LikeTable>.groupProblem(section, rows) == nil)
        var moved = rows
        let keys = moved.keys.sorted { $0.lexicographicallyPrecedes($1) }
        moved[keys[1], default: []].append(moved[keys[0]]!.removeLast())
        #expect(
            TablePasses<LikeTable>.groupProblem(section, moved) == "a group does not list the rows that belong to it")
        #expect(
            TablePasses<LikeTable>.groupProblem(section, rows.merging([[9]: [0]]) { a, _ in a }) == "it lacks a group")
    }

    @Test func aGroupingSectionNotWrittenWithItsSnapshotIsNotUsed() throws {
        let path = try store()
        // The snapshot's generation moved on (as when an older closet compacted, carrying the
        // grouping sections over unread): header resealed, the journal following it again.
        var bytes = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let generation = (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[8 + $1]) << (8 * UInt64($1)) } + 1
        for shift in 0..<8 { bytes[8 + shift] = UInt8(truncatingIfNeeded: generation >> (8 * UInt64(shift))) }
        let own = StoreChecksum.crc32c(bytes[0..<28])
        for shift in 0..<4 { bytes[28 + shift] = UInt8(truncatingIfNeeded: own >> (8 * UInt32(shift))) }
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/snapshot"))
        let header = try #require(bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        var journal = try #require(try POSIXFile.readAll(path + "/journal"))
        let rewritten = StoreFormat.journalHeader(
            StoreFormat.JournalHeader(generation: generation + 1, follows: header.link))
        journal.replaceSubrange(0..<StoreFormat.recordsStart, with: rewritten)
        // Records and commit points name the journal's generation: replay none of them here;
        // the grouping sections alone are what this test is about.
        journal.removeSubrange(StoreFormat.recordsStart...)
        try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
        let (_, stale) = try open(path)
        #expect(stale.likes.groupCount(LikeTable.byStory, .number(1)) == nil)
        let (_, decoded) = try open(path)
        _ = (decoded.likes.rows, decoded.comments.rows, decoded.stories.rows)
        #expect(answers(stale) == answers(decoded))
    }
}
