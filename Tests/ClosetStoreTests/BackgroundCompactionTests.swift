import ClosetCore
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetStore
@testable import WardrobePack

/// Compactions made on a thread of their own while commits go on (`closet serve`'s writer):
/// every commit survives, the ones made meanwhile are carried into the new journal, and a stop
/// at any step leaves a store that opens whole.
@Suite struct BackgroundCompactionTests {
    let many = (0..<2_000).map { Clothes(category: .top, weatherType: .fall, descriptions: "row \($0)") }

    func snapshotGeneration(_ path: String) throws -> UInt64? {
        try POSIXFile.readAll(path + "/snapshot")?.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) }?
            .generation
    }

    func compactedJournal(_ path: String) throws -> CompactedJournal? {
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(try snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        return CompactedJournal(snapshot: snapshot, header: header)
    }

    /// What a store reported, as it came.
    final class Notices {
        var lines: [String] = []
    }

    /// A store of 2,000 clothes, compacted, whose writer compacts in the background from now on.
    func backgroundStore(_ path: String, notices: Notices = Notices()) throws -> DurableWardrobe {
        let store = DurableWardrobe(
            try DurableStore(path: path, tables: Wardrobe.pack.tables) { notices.lines.append($0) })
        for clothes in many { try store.save(clothes: clothes) }
        try store.commit()
        try store.base.compact()
        store.base.compactInBackground()
        return store
    }

    /// 700 one-row commits (the rule compacts a 2,000-row store past 256 journal changes): no
    /// commit writes a snapshot itself; each compaction is named by a later commit, which
    /// carries the commits since its point into the new journal.
    @Test func commitsGoOnWhileSnapshotsAreMadeAndNoneIsLost() throws {
        let path = temporaryStore()
        let store = try backgroundStore(path)
        let before = try #require(try snapshotGeneration(path))
        var expected = many.map(\.id)
        var carried = 0
        for index in 0..<700 {
            if index % 3 == 0 {
                try store.remove(clothes: many[index])
                expected.removeAll { $0 == many[index].id }
            } else {
                let clothes = Clothes(category: .shoes, weatherType: .winter, descriptions: "new \(index)")
                try store.save(clothes: clothes)
                expected.append(clothes.id)
            }
            let generation = try snapshotGeneration(path)
            try store.commit()
            if try snapshotGeneration(path) != generation {
                // Named by this commit: its own record and those before it since the point are
                // in the new journal, numbered from 1; the snapshot says how far it read.
                let records = try recordCount(path)
                #expect(records >= 1)
                carried += Int(records)
                let compacted = try #require(try compactedJournal(path))
                #expect(compacted.transactions >= 256 && compacted.transactions < 700)
            }
            // Give the thread time to finish now and then, as requests leave gaps.
            if index % 50 == 0 { usleep(20_000) }
        }
        store.base.finishBackgroundWork()
        let after = try #require(try snapshotGeneration(path))
        #expect(after >= before + 2, "two or more compactions in 700 commits")
        #expect(carried >= 2)
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty, "\(notices)")
        let found = reopened.fetchAllClothes().map(\.id)
        #expect(Set(found) == Set(expected) && found.count == expected.count, "\(found.count) of \(expected.count)")
        #expect(reopened.base.check().problems.isEmpty)
        // The process that compacted goes on writing after its own snapshots.
        try store.save(clothes: many[0])
        try store.commit()
        #expect(try open(path).0.clothesCount == expected.count + 1)
    }

    /// A process that stops serving names the compaction it started (no commit came after it):
    /// the new journal is empty, and the lock is let go.
    @Test func aCompactionRunningWhenTheProcessStopsIsNamed() throws {
        let path = temporaryStore()
        let store = try backgroundStore(path)
        let before = try #require(try snapshotGeneration(path))
        var removed = 0
        while store.base.background == nil, removed < 300 {
            try store.remove(clothes: many[removed])
            try store.commit()
            removed += 1
        }
        #expect(try snapshotGeneration(path) == before)
        store.base.finishBackgroundWork()
        #expect(store.base.background == nil && !store.base.lock.isHeld)
        #expect(try snapshotGeneration(path) == before + 1)
        #expect(try recordCount(path) == 0)
        #expect(try compactedJournal(path)?.transactions == removed)
        #expect(try open(path).0.clothesCount == many.count - removed)
    }

    /// One-row removals, a commit each, until the writer stops compacting in the background (a
    /// compaction that failed for good); returns how many.
    func removeUntilCompactingInTheForeground(_ store: DurableWardrobe) throws -> Int {
        var index = 0
        while store.base.compactsInBackground, index < 1_000 {
            try store.remove(clothes: many[index])
            try store.commit()
            index += 1
            if index > 300 { usleep(5_000) }
        }
        return index
    }

    /// Makes the store due in the background and commits until the compaction is named (or,
    /// `until`, until the process stops serving).
    func commitUntilNamed(_ store: DurableWardrobe, _ path: String, from start: Int) throws -> Int {
        let generation = try snapshotGeneration(path)
        var index = start
        while try snapshotGeneration(path) == generation, index < start + 2_000 {
            try store.remove(clothes: many[index])
            try store.commit()
            index += 1
            if index > start + 300 { usleep(5_000) }
        }
        return index
    }

    /// Stopped after the new snapshot's rename and before the new journal's (the journal's
    /// temporary name is taken by a folder): the store is the new snapshot and the old journal,
    /// whose commits after the snapshot's point are read after it. It opens whole, says so in
    /// `check`, takes more commits, compacts, and `recover` copies all of it.
    @Test func aStopBetweenTheRenamesReadsTheOldJournalsLastCommits() throws {
        let path = temporaryStore()
        let notices = Notices()
        let store = try backgroundStore(path, notices: notices)
        try FileManager.default.createDirectory(atPath: path + "/journal.tmp", withIntermediateDirectories: false)
        let removed = try commitUntilNamed(store, path, from: 0)
        try FileManager.default.removeItem(atPath: path + "/journal.tmp")
        #expect(
            notices.lines.contains { $0.contains("the journal could not be started after a snapshot") },
            "\(notices.lines)")
        let compacted = try #require(try compactedJournal(path))
        #expect(compacted.transactions < removed)
        let journal = try #require(try POSIXFile.readAll(path + "/journal"))
        #expect(StoreFormat.readCommitPoint(journal, generation: compacted.generation)?.transactions == removed)

        let (reopened, openNotices) = try open(path)
        #expect(openNotices.isEmpty)
        #expect(reopened.clothesCount == many.count - removed)
        let check = reopened.base.check()
        #expect(check.problems.isEmpty, "\(check.problems)")
        #expect(
            check.checked.contains { $0.1.contains("the first \(compacted.transactions) already inside the snapshot") })

        // Recovered from these files: every commit.
        let copy = temporaryStore()
        let report = try StoreRecovery.recover(from: path, to: copy, tables: Wardrobe.pack.tables)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
        #expect(try open(copy).0.clothesCount == many.count - removed)

        // A writer goes on after the old journal's last commit, and compacts past it.
        try reopened.remove(clothes: many[removed])
        try reopened.commit()
        #expect(try open(path).0.clothesCount == many.count - removed - 1)
        try reopened.base.compact()
        #expect(try open(path).0.clothesCount == many.count - removed - 1)
        #expect(try open(path).0.base.check().problems.isEmpty)
    }

    /// A compaction whose snapshot cannot be named (the temporary name is a folder) is reported
    /// once, loses nothing, and the writer compacts in the foreground from then on.
    @Test func aSnapshotThatCannotBeNamedLosesNothing() throws {
        let path = temporaryStore()
        let notices = Notices()
        let store = try backgroundStore(path, notices: notices)
        try FileManager.default.createDirectory(atPath: path + "/snapshot.tmp", withIntermediateDirectories: false)
        let index = try removeUntilCompactingInTheForeground(store)
        #expect(!store.base.compactsInBackground)
        #expect(
            notices.lines.count == 1 && notices.lines[0].contains("could not write a new snapshot"), "\(notices.lines)")
        try FileManager.default.removeItem(atPath: path + "/snapshot.tmp")
        #expect(try open(path).0.clothesCount == many.count - index)
    }

    /// Damage met on the compaction's thread (which cannot unwind from where it is met) fails
    /// that compaction instead of stopping the process: reported once, nothing lost, and the
    /// writer compacts in its own thread from then on, where damage is met as a statement's is.
    @Test func damageMetInTheBackgroundStopsTheCompactionNotTheProcess() throws {
        let path = temporaryStore()
        let notices = Notices()
        let store = try backgroundStore(path, notices: notices)
        // The thread's first step meets it, as a section made to look whole would be met mid-copy.
        store.base.backgroundThreadStarts = { UnreadableRow.found("a section made to look whole") }
        let index = try removeUntilCompactingInTheForeground(store)
        #expect(!store.base.compactsInBackground)
        #expect(
            notices.lines.count == 1
                && notices.lines[0].contains("found the store damaged (a section made to look whole)"),
            "\(notices.lines)")
        try store.remove(clothes: many[index])
        try store.commit()
        #expect(try open(path).0.clothesCount == many.count - index - 1)
        #expect(try open(path).0.base.check().problems.isEmpty)
    }

    /// Another process compacted while the snapshot was made: what was made describes files
    /// that are gone, and is dropped; both processes' commits are kept.
    @Test func aSnapshotMadeFromFilesAnotherProcessReplacedIsDropped() throws {
        let path = temporaryStore()
        let store = try backgroundStore(path)
        // Up to the rule: the last commit starts a compaction in the background.
        var removed = 0
        while store.base.background == nil, removed < 300 {
            try store.remove(clothes: many[removed])
            try store.commit()
            removed += 1
        }
        #expect(removed == 257)
        let other = try open(path).0
        try other.save(clothes: Clothes(category: .shoes, weatherType: .spring, descriptions: "other"))
        try other.commit()
        try other.base.compact()
        let generation = try snapshotGeneration(path)
        // This process's next write meets the other's files: told to run again, it does.
        try store.remove(clothes: many[removed])
        #expect(store.base.takeWriteProblem() == .conflict)
        store.base.rollback(to: Savepoint(position: 0))
        try store.base.refresh()
        try store.remove(clothes: many[removed])
        try store.commit()
        store.base.finishBackgroundWork()
        #expect(try snapshotGeneration(path) == generation)
        let (reopened, _) = try open(path)
        #expect(reopened.clothesCount == many.count - removed - 1 + 1)
        #expect(reopened.base.check().problems.isEmpty)
    }
}
