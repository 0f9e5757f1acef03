import ClosetCore
import ClosetLanguage
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import AdoptionPack

/// Cursor pagination: paging through stories while any sequence of adds and removes happens
/// never repeats a story and never skips one that was there the whole time.
@Suite struct CursorPropertyTests {
    @Test func pagingNeverRepeatsOrSkips() throws {
        var random = SystemRandomNumberGenerator()
        for round in 0..<200 {
            let store = MemoryStore([
                AnyTableSchema(StoryTable.schema), AnyTableSchema(CommentTable.schema),
                AnyTableSchema(LikeTable.schema),
                AnyTableSchema(DonationTable.schema), AnyTableSchema(CommunitySequenceTable.schema),
            ])
            let community = try Community(store)
            func add() {
                community.stories.upsert(
                    Story(
                        id: (community.take("story") ?? 0), author: "u", title: "t", content: "c", dog: nil,
                        pictures: [],
                        createdAt: Date(timeIntervalSince1970: 0)))
            }
            for _ in 0..<Int.random(in: 0...40, using: &random) { add() }
            let before = Set(community.stories.rows.map(\.id))
            var removed = Set<Int>()
            var seen: [Int] = []
            let limit = Int.random(in: 1...7, using: &random)
            var cursor: Int?
            while true {
                let page = community.page(after: cursor, limit: limit)
                seen += page.stories.map(\.id)
                // Meanwhile: adds and removes.
                for _ in 0..<Int.random(in: 0...3, using: &random) {
                    if Bool.random(using: &random) {
                        add()
                    } else if let victim = community.stories.rows.randomElement(using: &random) {
                        community.remove(story: victim)
                        removed.insert(victim.id)
                    }
                }
                guard page.more, let last = page.stories.last else { break }
                cursor = StoryCursor.read(StoryCursor.make(after: last.id))
            }
            #expect(seen.count == Set(seen).count, "round \(round): a story came twice")
            #expect(before.subtracting(removed).isSubset(of: Set(seen)), "round \(round): a story was skipped")
            #expect(seen == seen.sorted(by: >), "round \(round): not newest first")
        }
    }

    /// Likes and comments grouped by story and user (kept current on write, built again after
    /// a rollback) always say what a scan of every row says.
    @Test func groupsMatchAScanThroughWritesAndRollbacks() throws {
        var random = SystemRandomNumberGenerator()
        let store = MemoryStore([
            AnyTableSchema(StoryTable.schema), AnyTableSchema(CommentTable.schema), AnyTableSchema(LikeTable.schema),
            AnyTableSchema(DonationTable.schema), AnyTableSchema(CommunitySequenceTable.schema),
        ])
        let community = try Community(store)
        let users = ["a", "b", "c"]
        for step in 0..<600 {
            let stories = community.stories.rows
            let savepoint = store.savepoint()
            switch Int.random(in: 0..<6, using: &random) {
            case 0:
                community.stories.upsert(
                    Story(
                        id: (community.take("story") ?? 0), author: users.randomElement(using: &random)!, title: "t",
                        content: "c", dog: nil, pictures: [], createdAt: Date(timeIntervalSince1970: 0)))
            case 1, 2:
                if let story = stories.randomElement(using: &random) {
                    let like = Like(story: story.id, user: users.randomElement(using: &random)!)
                    if community.likes[LikeTable.key(of: like)] == nil {
                        community.add(like)
                    } else {
                        _ = community.remove(like)
                    }
                }
            case 3:
                if let story = stories.randomElement(using: &random) {
                    community.add(
                        Comment(
                            id: (community.take("comment") ?? 0), story: story.id, author: "a", text: "x",
                            createdAt: Date(timeIntervalSince1970: 0)))
                }
            case 4:
                if let story = stories.randomElement(using: &random) { community.remove(story: story) }
            default:
                _ = community.likeCount(stories.first?.id ?? 0)  // groups current, then undone
                if let story = stories.randomElement(using: &random) {
                    community.add(Like(story: story.id, user: "rolled back \(step)"))
                }
                store.rollback(to: savepoint)
            }
            for story in community.stories.rows {
                let likes = community.likes.rows.filter { $0.story == story.id }
                #expect(community.likeCount(story.id) == likes.count, "step \(step)")
                #expect(
                    community.commentsOf(story.id)
                        == community.comments.rows.filter { $0.story == story.id }.sorted { $0.id < $1.id })
            }
            for user in users {
                let liked = Set(community.likes.rows.filter { $0.user == user }.map(\.story))
                #expect(community.storiesLiked(by: user).map(\.id) == liked.sorted(by: >), "step \(step)")
                #expect(
                    community.stories(by: user).map(\.id)
                        == community.stories.rows.filter { $0.author == user }.map(\.id).sorted(by: >))
            }
        }
    }

    @Test func cursorsAreCheckedNotRead() {
        #expect(StoryCursor.read(StoryCursor.make(after: 12345)) == 12345)
        #expect(StoryCursor.read("c9ix.000000") == nil)
        #expect(StoryCursor.read("") == nil && StoryCursor.read("c.") == nil && StoryCursor.read("12") == nil)
    }
}

/// `.dump` round-trips the community byte for byte: stories with pictures, comments,
/// likes and donations, with their ids, authors and times.
@Suite struct CommunityDumpTests {
    @Test func theCommunityRoundTrips() throws {
        let original = Harness(format: .table)
        original.host.binaryFiles["kong.png"] = SampleImages.png(width: 3, height: 2)
        for line in [
            ".user 민지", "add story title=\"우리 콩이\" content=\"1년\" image=kong.png dog=448548202400100",
            "add story title=둘 content=\"두 번째\"", ".user 준호", "like story 1", "add comment story=1 text=\"축하해요!\"",
            "donate amount=5000 message=\"힘내\"", ".user 민지", "like story 2", "remove story 2",
        ] {
            #expect(original.run(line), "\(line): \(original.host.standardError)")
        }
        let dump = original.output(".dump --images pictures")
        #expect(dump.contains("add story id=1 author=\"민지\"") && dump.contains("like story 1 user=\"준호\""))
        let restored = Harness(format: .table)
        for (path, bytes) in original.host.binaryFiles { restored.host.binaryFiles[path] = bytes }
        for line in dump.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(restored.run(String(line)), "\(line): \(restored.host.standardError)")
        }
        #expect(restored.output(".dump --images pictures") == dump)
    }

    /// An empty message is none: a dump and an export leave it out, so what they make again
    /// says null, and so must the donation itself (it said "" until a random round trip found it).
    @Test func anEmptyMessageIsNone() throws {
        let harness = Harness(format: .json)
        #expect(harness.run(".user 민지"))
        let said = harness.output("donate amount=5000 message=\"\"")
        #expect(said.contains(#""message":null"#), "\(said)")
    }
}

/// A donation's amount and receipt are declared once (`CommunityRecords.amountRule`,
/// `receiptRule`) and checked by the binder: `donate` and `import donations` refuse the same
/// amounts with the same words, and a receipt is taken as the app writes it (`R-000012`).
@Suite struct DonationRuleTests {
    @Test func theStatementAndTheImportRefuseTheSameAmounts() throws {
        for amount in [0, 999, 1500, 1_001_000, 2_000_000] {
            let typed = Harness(format: .table)
            #expect(typed.run(".user 민지"))
            #expect(!typed.run("donate amount=\(amount)"))
            let reason = "\(amount) is not a donation: whole won from 1,000 to 1,000,000, in thousands"
            #expect(typed.host.standardError.contains(reason), "\(typed.host.standardError)")

            let imported = Harness(format: .table)
            imported.host.binaryFiles["d.csv"] = Array("amount,message\n5000,ok\n\(amount),bad\n".utf8)
            #expect(!imported.run("import donations from=d.csv"))
            #expect(
                imported.host.standardError.contains("d.csv:3: amount: \(reason)"), "\(imported.host.standardError)")
            #expect(imported.run(".mode json"))
            #expect(imported.output("count donations") == #"{"count":0}"# + "\n")
        }
        for amount in [1000, 9000, 1_000_000] {
            let harness = Harness(format: .table)
            #expect(harness.run("donate amount=\(amount)"), "\(harness.host.standardError)")
        }
    }

    @Test func aReceiptIsTakenAsTheAppWritesIt() throws {
        let harness = Harness(format: .json)
        #expect(harness.run("donate amount=1000 receipt=R-000007"), "\(harness.host.standardError)")
        #expect(harness.run("donate amount=2000 receipt=8"), "\(harness.host.standardError)")
        #expect(!harness.run("donate amount=3000 receipt=R-7"))
        #expect(harness.host.standardError.contains("a donation with receipt R-000007 already exists"))
        #expect(!harness.run("donate amount=3000 receipt=X-9"))
        #expect(harness.host.standardError.contains("'receipt' takes a whole number"))

        // What export writes is read back: receipts restored, rows without one drawn after them.
        harness.host.binaryFiles["d.json"] = Array(
            #"[{"receipt":"R-000012","amount":3000,"user":"준호"},{"amount":4000},{"receipt":"13","amount":5000}]"#.utf8)
        #expect(harness.run("import donations from=d.json"), "\(harness.host.standardError)")
        #expect(harness.run(".user 준호"))
        #expect(harness.output("list donations").contains(#""receipt":"R-000012""#))
        #expect(harness.run(".user tester"))
        let list = harness.output("list donations")
        for receipt in ["R-000007", "R-000008", "R-000013", "R-000014"] {
            #expect(list.contains(#""receipt":"\#(receipt)""#), "\(receipt): \(list)")
        }
    }
}
