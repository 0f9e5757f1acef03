import ClosetCore
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetStore
@testable import WardrobePack

/// The level below the snapshot (`DeltaFile`): a compaction of a store that changed little
/// writes the changed rows beside the snapshot instead of rewriting it, the journal after it
/// follows it, reopening reads both, and once the level grows past its share the snapshot is
/// written whole and the level removed. A stop at any step leaves a store that opens whole.
@Suite struct DeltaFileTests {
    let many = (0..<10_000).map {
        Clothes(category: .top, weatherType: $0 % 2 == 0 ? .fall : .winter, descriptions: "row \($0)")
    }

    func header(_ path: String, _ file: String) throws -> StoreFormat.SnapshotHeader? {
        try POSIXFile.readAll(path + "/" + file)?.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) }
    }

    func journalMagic(_ path: String) throws -> String {
        String(decoding: try #require(try POSIXFile.readAll(path + "/journal")).prefix(8), as: UTF8.self)
    }

    /// A compacted store of 10,000 clothes (past `CompactionPolicy.deltaFloor`), opened again as
    /// a new process would: its rows read in place.
    func store(_ path: String) throws -> DurableWardrobe { try storeReadInPlace(at: path, holding: many) }

    /// 300 changes in one commit (past the 256 a 10,000-row store's journal holds): removals,
    /// replacements in place, new rows (400 rows of a delta, 1,250 its share); applied to
    /// `expected` too.
    func changeRound(_ store: DurableWardrobe, _ round: Int, _ expected: inout [Clothes]) throws {
        for step in 0..<300 {
            switch step % 3 {
            case 0:
                let victim = expected[(round * 37 + step * 11) % expected.count]
                try store.remove(clothes: victim)
                expected.removeAll { $0.id == victim.id }
            case 1:
                var replaced = expected[(round * 53 + step * 7) % expected.count]
                replaced.descriptions = "changed \(round) \(step)"
                try store.save(clothes: replaced)
                if let place = expected.firstIndex(where: { $0.id == replaced.id }) { expected[place] = replaced }
            default:
                let clothes = Clothes(category: .shoes, weatherType: .fall, descriptions: "new \(round) \(step)")
                try store.save(clothes: clothes)
                expected.append(clothes)
            }
        }
        try store.commit()
    }

    /// A new store of `many` whose first round of changes was written as a delta.
    func storeWithADelta() throws -> (path: String, store: DurableWardrobe, expected: [Clothes]) {
        let path = temporaryStore()
        let store = try store(path)
        var expected = many
        try changeRound(store, 0, &expected)
        return (path, store, expected)
    }

    /// `count` new clothes, a commit each (too few to compact).
    func addOneByOne(_ store: DurableWardrobe, _ count: Int, named name: String, _ expected: inout [Clothes]) throws {
        for step in 0..<count {
            let clothes = Clothes(category: .accessory, weatherType: .spring, descriptions: "\(name) \(step)")
            try store.save(clothes: clothes)
            expected.append(clothes)
            try store.commit()
        }
    }

    func expectSameRows(_ path: String, _ expected: [Clothes], _ context: String) throws {
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty, "\(context): \(notices)")
        // The app lists clothes in its own order: compared by id.
        let found = Dictionary(uniqueKeysWithValues: reopened.fetchAllClothes().map { ($0.id, $0) })
        let wanted = Dictionary(uniqueKeysWithValues: expected.map { ($0.id, $0) })
        let missing = wanted.keys.filter { found[$0] == nil }.map { wanted[$0]?.descriptions ?? "" }
        let extra = found.keys.filter { wanted[$0] == nil }.map { found[$0]?.descriptions ?? "" }
        // Dates are stored to the millisecond: the other fields are compared.
        func fields(_ clothes: Clothes?) -> String {
            clothes.map { "\($0.descriptions) \($0.category) \($0.weatherType)" } ?? ""
        }
        let changed = wanted.keys.filter { found[$0] != nil && fields(found[$0]) != fields(wanted[$0]) }
            .map { "\(wanted[$0]?.descriptions ?? "") → \(found[$0]?.descriptions ?? "")" }
        #expect(
            missing.isEmpty && extra.isEmpty && changed.isEmpty,
            "\(context): missing \(missing.prefix(5)), extra \(extra.prefix(5)), changed \(changed.prefix(5)) (\(missing.count), \(extra.count), \(changed.count))"
        )
        #expect(reopened.clothesCount == expected.count, "\(context): count")
        #expect(reopened.base.check().problems.isEmpty, "\(context): \(reopened.base.check().problems)")
    }

    @Test func aCompactionWritesTheChangedRowsBesideTheSnapshotUntilTheyPassTheirShare() throws {
        let path = temporaryStore()
        let store = try store(path)
        var expected = many
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        #expect(try header(path, DeltaFile.name) == nil)
        // Each round's commit is the compaction: a delta of the rows changed since the snapshot,
        // the snapshot's bytes untouched, the journal after it following it.
        try changeRound(store, 0, &expected)
        let first = try #require(try header(path, DeltaFile.name))
        #expect(try POSIXFile.readAll(path + "/snapshot") == snapshot)
        #expect(try journalMagic(path) == "CLOSETJ7")
        try expectSameRows(path, expected, "first delta")
        try changeRound(store, 1, &expected)
        let second = try #require(try header(path, DeltaFile.name))
        #expect(second.generation > first.generation && second.bodyLength > first.bodyLength)
        #expect(try POSIXFile.readAll(path + "/snapshot") == snapshot)
        try expectSameRows(path, expected, "second delta")
        // Past an eighth of the rows: the snapshot is written whole, the delta removed.
        var round = 2
        while try header(path, DeltaFile.name) != nil, round < 10 {
            try changeRound(store, round, &expected)
            round += 1
        }
        #expect(try header(path, DeltaFile.name) == nil)
        #expect(try POSIXFile.readAll(path + "/snapshot") != snapshot)
        #expect(try journalMagic(path) == "CLOSETJ6")
        try expectSameRows(path, expected, "merged")
        // An older closet refuses a journal that follows a delta, and one that may hold
        // inserts, as a newer one's.
        for magic in ["CLOSETJ5", "CLOSETJ6", "CLOSETJ7"] {
            #expect(
                JournalFormat.layout(Array(magic.utf8) + [UInt8](repeating: 0, count: 28), journal: true) == .newer)
        }
    }

    /// `closet recover` copies the snapshot, the delta over it and the journal after that; a
    /// damaged delta is said, and what it held is counted lost, not guessed.
    @Test func recoverCopiesTheDeltaAndTheJournalAfterIt() throws {
        var (path, store, expected) = try storeWithADelta()
        try addOneByOne(store, 20, named: "after", &expected)
        let target = temporaryStore() + "-recovered"
        let report = try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        #expect(report.lines.contains { $0.hasPrefix("delta: kept") }, "\(report.lines)")
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        try expectSameRows(target, expected, "recovered")
        // A delta with a flipped byte: not applied, and said.
        var delta = try #require(try POSIXFile.readAll(path + "/" + DeltaFile.name))
        delta[delta.count / 2] ^= 0x10
        try POSIXFile.replace(path + "/" + DeltaFile.name, with: delta, directory: path)
        let damaged = try StoreRecovery.recover(from: path, to: target + "2", tables: Wardrobe.pack.tables)
        #expect(damaged.lines.contains { $0.hasPrefix("delta: damaged") }, "\(damaged.lines)")
        #expect(!damaged.warnings.isEmpty)
    }

    /// One-row commits while the writer compacts in the background (`closet serve`): the thread
    /// writes deltas too, named by later commits, and nothing is lost.
    @Test func compactionsInTheBackgroundWriteDeltas() throws {
        let path = temporaryStore()
        let store = try store(path)
        store.base.compactInBackground()
        var expected = many
        var sawDelta = false
        for index in 0..<900 {
            if index % 4 == 0 {
                try store.remove(clothes: expected[index])
                expected.remove(at: index)
            } else {
                let clothes = Clothes(category: .shoes, weatherType: .winter, descriptions: "new \(index)")
                try store.save(clothes: clothes)
                expected.append(clothes)
            }
            try store.commit()
            if try header(path, DeltaFile.name) != nil { sawDelta = true }
            if index % 50 == 0 { usleep(20_000) }
        }
        store.base.finishBackgroundWork()
        #expect(sawDelta)
        try expectSameRows(path, expected, "background")
    }

    /// Stopped after the delta's rename and before the new journal's: the old journal is inside
    /// the delta (it records that journal), so it is skipped and nothing is read twice.
    @Test func aStopBetweenTheDeltasRenameAndTheJournalsLosesNothing() throws {
        var (path, store, expected) = try storeWithADelta()
        // The journal before the next delta, put back after it: the state a stop leaves.
        try addOneByOne(store, 100, named: "single", &expected)
        let journalBefore = try #require(try POSIXFile.readAll(path + "/journal"))
        let generation = try #require(try header(path, DeltaFile.name)).generation
        try changeRound(store, 1, &expected)
        #expect(try #require(try header(path, DeltaFile.name)).generation > generation)
        try expectSameRows(path, expected, "after the round")
        // The round's commit was the delta itself: the journal it replaced held the 100 singles.
        try POSIXFile.replace(path + "/journal", with: journalBefore, directory: path)
        try expectSameRows(path, expected, "old journal beside the new delta")
        // The next writer goes on from there.
        try addOneByOne(try open(path).0, 1, named: "after", &expected)
        try expectSameRows(path, expected, "written after")
    }

    /// Stopped after the merged snapshot's rename and before the delta's removal: the delta
    /// names the older snapshot, so it is never read; `check` says so and the next writer
    /// removes it. A delta naming a snapshot it does not sit on is damage, and nothing is changed.
    @Test func aDeltaLeftBesideANewerSnapshotIsNotRead() throws {
        var (path, store, expected) = try storeWithADelta()
        let delta = try #require(try POSIXFile.readAll(path + "/" + DeltaFile.name))
        try store.base.compact()
        #expect(try header(path, DeltaFile.name) == nil)
        try POSIXFile.replace(path + "/" + DeltaFile.name, with: delta, directory: path)
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes().count == expected.count)
        let check = reopened.base.check()
        #expect(check.problems.isEmpty)
        #expect(
            check.checked.contains { $0.0 == "delta" && $0.1.contains("already inside the snapshot") },
            "\(check.checked)")
        try reopened.save(clothes: many[1])
        try reopened.commit()
        #expect(try header(path, DeltaFile.name) == nil)
        // A delta over another store's snapshot in place of the one the journal follows:
        // damage, named, nothing changed.
        // (A table decoded whole, as `fetchAllClothes` leaves it, is written whole: a new process.)
        try changeRound(try open(path).0, 1, &expected)
        #expect(try journalMagic(path) == "CLOSETJ7")
        let other = temporaryStore()
        var otherExpected = many
        try changeRound(try self.store(other), 5, &otherExpected)
        let foreign = try #require(try POSIXFile.readAll(other + "/" + DeltaFile.name))
        let journal = try #require(try POSIXFile.readAll(path + "/journal"))
        try POSIXFile.replace(path + "/" + DeltaFile.name, with: foreign, directory: path)
        let refusal = #expect(throws: (any Error).self) {
            try DurableStore(path: path, tables: Wardrobe.pack.tables) { _ in }
        }
        #expect("\(refusal.map { $0 } as Any)".contains("is damaged"), "\(refusal as Any)")
        #expect(try POSIXFile.readAll(path + "/journal") == journal)
        #expect(try POSIXFile.readAll(path + "/" + DeltaFile.name) == foreign)
    }
}
