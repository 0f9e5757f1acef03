import ClosetCore
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetStore
@testable import WardrobePack

#if canImport(Glibc)
    import Glibc
#endif

/// Damage is reported, never silently repaired away: each way a store's files were found
/// damaged (issue 12) makes the store refuse to open, naming the file, and changes no byte.
@Suite struct StoreDamageTests {
    let mocks = MockWardrobe()

    func store() throws -> (String, [Int]) { try snapshotAndThreeRecords(mocks) }

    var everything: [Clothes] { [mocks.top1, mocks.top2, mocks.bottom1, mocks.shoes1] }

    func files(_ path: String) throws -> [String: [UInt8]] {
        var contents: [String: [UInt8]] = [:]
        for name in ["snapshot", "journal", "closet-store"] {
            contents[name] = try POSIXFile.readAll(path + "/" + name)
        }
        return contents
    }

    /// Opening fails with a message holding `expected` (any refusal when nil), and no file changed.
    func expectRefused(_ path: String, _ expected: String?, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let before = try files(path)
        do {
            let (store, _) = try open(path)
            Issue.record("opened with \(store.clothesCount) clothes", sourceLocation: sourceLocation)
        } catch let error as DurableStore.OpenError {
            if let expected {
                #expect(error.description.contains(expected), "\(error.description)", sourceLocation: sourceLocation)
                #expect(error.description.contains("closet recover"), sourceLocation: sourceLocation)
            }
        }
        #expect(try files(path) == before, sourceLocation: sourceLocation)
    }

    func write(_ bytes: [UInt8], _ path: String) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: path))
    }

    /// Flips each bit in `bits` of one of the store's files in turn, then `check`s the store.
    func flipEach(_ bits: Range<Int>, of file: String, in path: String, check: (Int) throws -> Void) throws {
        let original = try POSIXFile.readAll(path + "/" + file)!
        for bit in bits {
            var bytes = original
            bytes[bit / 8] ^= UInt8(1 << (bit % 8))
            try write(bytes, path + "/" + file)
            try check(bit)
        }
    }

    @Test func everyBitOfTheJournalHeaderIsChecked() throws {
        let (path, _) = try store()
        try flipEach(0..<(StoreFormat.journalHeaderSize * 8), of: "journal", in: path) { bit in
            // A bit of the magic can make it name another format (damaged, or "a newer
            // closet"): refused all the same, never read as an older journal.
            try expectRefused(path, bit < 64 ? nil : "the header of its journal")
        }
    }

    @Test func everyBitOfTheSnapshotHeaderIsChecked() throws {
        let (path, _) = try store()
        try flipEach(64..<(StoreFormat.snapshotHeaderSize * 8), of: "snapshot", in: path) { _ in
            try expectRefused(path, "its snapshot")
        }
    }

    @Test func aJournalCutToLessThanItsHeaderIsFound() throws {
        let (path, _) = try store()
        let original = try POSIXFile.readAll(path + "/journal")!
        for length in [0, 5, 12, 35] {
            try write(Array(original[0..<length]), path + "/journal")
            try expectRefused(path, "its journal")
        }
    }

    @Test func aDeletedSnapshotIsFound() throws {
        let (path, _) = try store()
        try FileManager.default.removeItem(atPath: path + "/snapshot")
        try expectRefused(path, "its snapshot is missing")
    }

    @Test func anOlderSnapshotPutBackIsFound() throws {
        let (path, _) = try store()
        let older = try POSIXFile.readAll(path + "/snapshot")!
        let (store, _) = try open(path)
        try store.compact()  // snapshot generation 3, journal 4 follows it
        try store.save(clothes: mocks.bottom2)
        try store.commit()
        try write(older, path + "/snapshot")
        try expectRefused(path, "follows snapshot generation 3")
    }

    @Test func aDamagedRecordWithIntactOnesAfterItIsDamageNotATornTail() throws {
        let (path, starts) = try store()
        for (index, start) in starts.dropLast().enumerated() {
            let (clean, _) = try self.store()
            var bytes = try POSIXFile.readAll(clean + "/journal")!
            bytes[start + StoreFormat.recordHeaderSize + 3] ^= 0x10  // inside its payload
            try write(bytes, clean + "/journal")
            try expectRefused(
                clean, "at byte \(starts[index]) of its journal: a transaction whose checksum does not match")
        }
        // The last record was committed too (the commit point reaches past it): damage.
        var bytes = try POSIXFile.readAll(path + "/journal")!
        bytes[starts[2] + StoreFormat.recordHeaderSize + 3] ^= 0x10
        try write(bytes, path + "/journal")
        try expectRefused(
            path,
            "at byte \(starts[2]) of its journal: a transaction whose checksum does not match, in a transaction that was committed"
        )
    }

    /// Bytes after the commit point are a commit that never finished: readers read the whole
    /// records before them and change nothing; a writer says what it drops, then cuts it.
    @Test func aTornTailIsCutByAWriterOnlyAfterSayingSo() throws {
        let (path, _) = try store()
        let journal = try POSIXFile.readAll(path + "/journal")!
        // A fourth record, half written.
        let torn = journal + StoreFormat.record([put(mocks.bottom2)], sequence: 4).prefix(20)
        try write(torn, path + "/journal")
        final class Notices: @unchecked Sendable { var lines: [String] = [] }
        let notices = Notices()
        let store = DurableWardrobe(
            try DurableStore(path: path, tables: Wardrobe.pack.tables) { notices.lines.append($0) })
        #expect(store.fetchAllClothes() == everything)
        #expect(notices.lines.isEmpty)
        #expect(try POSIXFile.readAll(path + "/journal")! == torn)
        try store.save(clothes: mocks.bottom2)  // a writer now: it cuts, saying so first
        try store.commit()
        #expect(notices.lines.count == 1)
        #expect(
            notices.lines.first?.contains(
                "dropped 20 bytes at the end of the journal from byte \(journal.count) (an incomplete transaction at byte \(journal.count); 1 record begun in them): a transaction that never finished committing (it was never reported as saved)"
            ) == true, "\(notices.lines)")
        let written = try POSIXFile.readAll(path + "/journal")!
        #expect(Array(written[StoreFormat.recordsStart..<journal.count]) == Array(journal[StoreFormat.recordsStart...]))
        #expect(try open(path).0.fetchAllClothes() == everything + [mocks.bottom2])
    }

    @Test func aGenerationNearTheLimitIsRefusedWithoutTrapping() throws {
        let (path, _) = try store()
        let original = try POSIXFile.readAll(path + "/journal")!
        let header = try #require(StoreFormat.readJournalHeader(original))
        for generation in [UInt64.max, UInt64.max - 1, 1 << 63] {
            let forged = StoreFormat.journalHeader(
                StoreFormat.JournalHeader(generation: generation, follows: header.follows))
            try write(forged + original[StoreFormat.recordsStart...], path + "/journal")
            try expectRefused(path, "out of range")
        }
    }

    /// A store at the last generation (2^62) still opens and takes commits, but is never
    /// compacted past the limit (it used to write generation 2^62 + 1, then refuse to open).
    @Test func theLastGenerationIsNeverPassed() throws {
        let (path, _) = try store()
        let original = try POSIXFile.readAll(path + "/journal")!
        let header = try #require(StoreFormat.readJournalHeader(original))
        let last = StoreFormat.journalHeader(
            StoreFormat.JournalHeader(generation: StoreFormat.maximumGeneration, follows: header.follows))
        try write(last + original[StoreFormat.recordsStart...], path + "/journal")
        let (store, _) = try open(path)
        #expect(store.fetchAllClothes() == everything)
        #expect {
            try store.compact()
        } throws: { error in
            "\(error)".contains("has used its last generation (\(StoreFormat.maximumGeneration))")
        }
        try store.save(clothes: mocks.bottom2)
        try store.commit()
        #expect(try open(path).0.fetchAllClothes() == everything + [mocks.bottom2])
    }

    @Test func deletingTheLockFileLetsNoSecondWriterIn() throws {
        let path = temporaryStore()
        let (first, _) = try open(path)
        let second = DurableWardrobe(
            try DurableStore(path: path, tables: Wardrobe.pack.tables, busyTimeout: 0.1) { _ in })
        try first.save(clothes: mocks.top1)
        try FileManager.default.removeItem(atPath: path + "/lock")
        try second.save(clothes: mocks.top2)
        guard case .failed(let message) = second.takeWriteProblem() else {
            Issue.record("a second writer got in after the lock file was deleted")
            return
        }
        #expect(message.contains("is in use by process"))
        second.rollback(to: Savepoint(position: 0))
        try first.commit()
        let (third, _) = try open(path)
        #expect(third.fetchAllClothes() == [mocks.top1])
    }

    /// Issue 22's random-damage test: flipped bits, cuts anywhere and at record boundaries,
    /// deleted and emptied files, in stores with a snapshot and in journal-only stores (every
    /// commit small). The store opens holding exactly what was committed, or refuses with no
    /// byte changed: no damage ever loses a commit silently, and none crashes.
    @Test func randomDamageNeverLosesACommitSilently() throws {
        var generator = SeededRandom(seed: 22)
        let (withSnapshot, starts) = try store()
        let journalOnly = temporaryStore()
        let (small, _) = try open(journalOnly)
        var journalOnlyStarts: [Int] = []
        for clothes in everything {
            journalOnlyStarts.append(POSIXFile.size(journalOnly + "/journal")!)
            try small.save(clothes: clothes)
            try small.commit()
        }
        let templates = [(try files(withSnapshot), starts), (try files(journalOnly), journalOnlyStarts)]
        var outcomes: [String: Int] = [:]
        for round in 0..<1_000 {
            let (committed, recordStarts) = templates[round % 2]
            let path = temporaryStore()
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
            for (name, bytes) in committed { try write(bytes, path + "/" + name) }
            let journal = committed["journal"]!
            let kind = Int(generator.next() % 8)
            func random(_ bound: Int) -> Int { Int(generator.next() % UInt64(max(bound, 1))) }
            switch kind {
            case 0:
                var bytes = journal
                bytes[random(bytes.count)] ^= UInt8(1 << random(8))
                try write(bytes, path + "/journal")
            case 1:
                var bytes = committed["snapshot"]!
                bytes[random(bytes.count)] ^= UInt8(1 << random(8))
                try write(bytes, path + "/snapshot")
            case 2: try write(Array(journal.prefix(random(journal.count))), path + "/journal")
            case 3:
                let boundaries = [0, 8, StoreFormat.journalHeaderSize, StoreFormat.recordsStart] + recordStarts
                try write(Array(journal.prefix(boundaries[random(boundaries.count)])), path + "/journal")
            case 4: try FileManager.default.removeItem(atPath: path + "/journal")
            case 5: try write([], path + "/journal")
            case 6: try FileManager.default.removeItem(atPath: path + "/snapshot")
            default:
                try FileManager.default.removeItem(atPath: path + "/snapshot")
                try FileManager.default.removeItem(atPath: path + "/journal")
            }
            let before = try files(path)
            do {
                let (store, _) = try open(path)
                #expect(store.fetchAllClothes() == everything, "round \(round), damage \(kind)")
                outcomes["opened", default: 0] += 1
            } catch is DurableStore.OpenError {
                outcomes["refused", default: 0] += 1
            }
            #expect(try files(path) == before, "round \(round), damage \(kind): a file changed")
        }
        #expect(outcomes["refused", default: 0] > 800, "\(outcomes)")
    }
}

/// A snapshot (of top1) and a journal of three transactions after it (top2, bottom1,
/// shoes1), the store closed; returns the path and where each journal record starts. The
/// caller's mocks: each `MockWardrobe` has ids of its own.
func snapshotAndThreeRecords(_ mocks: MockWardrobe) throws -> (String, [Int]) {
    let path = temporaryStore()
    let store = try compactedStore(at: path, holding: [mocks.top1])
    var starts: [Int] = []
    for clothes in [mocks.top2, mocks.bottom1, mocks.shoes1] {
        starts.append(POSIXFile.size(path + "/journal")!)
        try store.save(clothes: clothes)
        try store.commit()
    }
    return (path, starts)
}

@Suite struct StoreRecoveryTests {
    let mocks = MockWardrobe()

    @Test func recoverKeepsEveryIntactTransactionAndLeavesTheDamagedStoreAlone() throws {
        let (path, starts) = try snapshotAndThreeRecords(mocks)
        var bytes = try POSIXFile.readAll(path + "/journal")!
        bytes[starts[1] + StoreFormat.recordHeaderSize + 2] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/journal"))
        let before = try ["snapshot", "journal"].map { try POSIXFile.readAll(path + "/" + $0) }
        let target = temporaryStore()
        let report = try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        #expect(
            report.lines.contains("journal: 2 transactions kept, damaged bytes \(starts[1])-\(starts[2] - 1) skipped"),
            "\(report.lines)")
        #expect(try ["snapshot", "journal"].map { try POSIXFile.readAll(path + "/" + $0) } == before)
        let (recovered, _) = try open(target)
        #expect(recovered.fetchAllClothes() == [mocks.top1, mocks.top2, mocks.shoes1])
        // It is a whole store: it takes writes and reopens.
        try recovered.save(clothes: mocks.bottom2)
        try recovered.commit()
        #expect(try open(target).0.clothesCount == 4)
        // A folder that holds something is never written into.
        #expect(throws: StoreRecovery.Failure.self) {
            try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        }
    }

    @Test func aDamagedSnapshotIsSaidAndTheJournalIsStillSalvaged() throws {
        let path = temporaryStore()
        do {
            let store = try compactedStore(at: path, holding: [mocks.top1])
            try store.save(clothes: mocks.top2)
            try store.commit()
        }
        let clean = try POSIXFile.readAll(path + "/snapshot")!
        var bytes = clean
        let header = try #require(bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        bytes[header.bodyEnd - 10] ^= 0x01  // in the one block, which holds the one row
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/snapshot"))
        let target = temporaryStore()
        let report = try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        #expect(
            report.lines.first == "snapshot: damaged in bytes 32-\(header.bodyEnd - 1); 0 rows kept, 1 lost",
            "\(report.lines)")
        #expect(try open(target).0.fetchAllClothes() == [mocks.top2])
        #expect(report.warnings == ["1 row of the snapshot could not be read"])
        // Damage in the trailer alone (the directory's length) loses no row.
        var trailer = clean
        trailer[clean.count - 3] ^= 0x01
        try Data(trailer).write(to: URL(fileURLWithPath: path + "/snapshot"))
        let again = temporaryStore()
        let kept = try StoreRecovery.recover(from: path, to: again, tables: Wardrobe.pack.tables)
        #expect(kept.lines.first == "snapshot: its trailer is damaged; 1 row kept, 0 lost", "\(kept.lines)")
        #expect(try open(again).0.fetchAllClothes() == [mocks.top1, mocks.top2])
    }
}

/// Pictures travel with a recovery: inline ones (rows of the store's own table) with the
/// rows, files copied after their checksum is checked; one whose file is gone or damaged is
/// a warning, its row kept without it, and listed in the new store for `closet check`.
@Suite struct PictureRecoveryTests {
    func picture(_ size: Int, _ seed: Int) -> ([UInt8], ImageInfo) {
        let bytes = (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ seed) }
        return (bytes, ImageInfo(format: .png, width: 1, height: 1, bytes: size, checksum: Checksum.crc32(bytes)))
    }

    @Test func inlinePicturesAndFilesAreRecovered() throws {
        let path = temporaryStore()
        var saved: [(UUID, ImageInfo, [UInt8])] = []
        do {
            let (store, _) = try open(path)
            // Small and big, before and after a compaction, and one whose file then goes.
            for (index, size) in [90, 5000, 300, 6000, 7000].enumerated() {
                let (bytes, info) = picture(size, index)
                let id = UUID()
                try store.storeImage(bytes, info, for: id)
                try store.save(clothes: Clothes(id: id, image: info, category: .top, weatherType: .fall))
                try store.commit()
                if index == 1 { try store.base.compact() }
                saved.append((id, info, bytes))
            }
        }
        let gone = saved[4].1.blobName(owner: saved[4].0)
        try FileManager.default.removeItem(atPath: path + "/images/" + gone)
        // Issue 44: a damaged file is not copied as good either.
        let damaged = saved[3].1.blobName(owner: saved[3].0)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path + "/images/" + damaged)))
        bytes[100] ^= 0x40
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/images/" + damaged))
        let target = temporaryStore()
        let report = try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        #expect(
            report.lines.contains("pictures: 3 copied, 2 missing or damaged (their rows are kept without them)"),
            "\(report.lines)")
        // Each is a warning (`closet recover` exits 1), named.
        #expect(report.warnings.contains { $0.contains(gone) && $0.contains("is missing in the damaged store") })
        #expect(report.warnings.contains { $0.contains(damaged) && $0.contains("is damaged in the damaged store") })
        let (recovered, _) = try open(target)
        #expect(recovered.clothesCount == 5)
        for (id, info, bytes) in saved.prefix(3) { #expect(recovered.loadImage(info, for: id) == bytes) }
        #expect(recovered.loadImage(saved[3].1, for: saved[3].0) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: target + "/images").count == 1)
        #expect(recovered.base.inlineBlobs?.count == 2)
        // The recovered store passes its check: the two losses are the ones recover told,
        // listed in the store, not damage of its own.
        let check = recovered.base.check()
        #expect(check.problems == [], "\(check.problems)")
        #expect(check.checked.contains { $0.0 == "lost" && $0.1.hasPrefix("2 pictures lost before 'closet recover'") })
        let list = try String(contentsOfFile: target + "/lost-pictures", encoding: .utf8)
        #expect(list.contains(gone + " missing") && list.contains(damaged + " damaged"), "\(list)")
    }
}

/// Issue 22: `closet recover` salvages row by row and is honest about generations.
@Suite struct HonestRecoveryTests {
    let mocks = MockWardrobe()

    func recover(_ path: String) throws -> (StoreRecovery.Report, [Clothes]) {
        let target = temporaryStore()
        let report = try StoreRecovery.recover(from: path, to: target, tables: Wardrobe.pack.tables)
        return (report, try open(target).0.fetchAllClothes())
    }

    /// One flipped bit costs the rows of one 32 KiB block, not the whole snapshot (before:
    /// 11 of 2,011 rows kept in 121 of 121 trials).
    @Test func aFlippedBitInTheSnapshotLosesOnlyTheRowsOfItsBlock() throws {
        let many = (0..<2_000).map {
            Clothes(category: .top, weatherType: .fall, descriptions: "row \($0) " + String(repeating: "x", count: 40))
        }
        let path = temporaryStore()
        _ = try compactedStore(at: path, holding: many)
        let clean = try POSIXFile.readAll(path + "/snapshot")!
        let header = try #require(clean.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        #expect(header.blockCount >= 3)
        var generator = SeededRandom(seed: 5)
        let byID = Dictionary(uniqueKeysWithValues: many.map { ($0.id, $0) })
        for _ in 0..<12 {
            var bytes = clean
            let offset = StoreFormat.snapshotHeaderSize + Int(generator.next() % UInt64(header.bodyLength))
            bytes[offset] ^= UInt8(1 << (generator.next() % 8))
            try Data(bytes).write(to: URL(fileURLWithPath: path + "/snapshot"))
            let (report, rows) = try recover(path)
            // What is kept is exactly as it was; at most one block's rows (and the row that
            // straddles its edge) are lost.
            #expect(rows.allSatisfy { row in byID[row.id]?.descriptions == row.descriptions })
            let perBlock = StoreFormat.blockSize / 60 + 2
            #expect(rows.count >= many.count - perBlock, "\(rows.count) kept, offset \(offset): \(report.lines)")
            if rows.count < many.count { #expect(!report.warnings.isEmpty) }
        }
        try Data(clean).write(to: URL(fileURLWithPath: path + "/snapshot"))
    }

    /// A journal already inside the snapshot (an older one put back) is not replayed: a removed
    /// row does not come back.
    @Test func aStaleJournalIsNotReplayedOverANewerSnapshot() throws {
        let path = temporaryStore()
        let store = try open(path).0
        for clothes in [mocks.top1, mocks.top2] {
            try store.save(clothes: clothes)
            try store.commit()
        }
        let stale = try POSIXFile.readAll(path + "/journal")!
        try store.remove(clothes: mocks.top2)
        try store.commit()
        try store.compact()
        try Data(stale).write(to: URL(fileURLWithPath: path + "/journal"))
        let (report, rows) = try recover(path)
        #expect(rows == [mocks.top1], "\(report.lines)")
        #expect(report.lines.contains { $0.contains("already inside the snapshot") && $0.contains("not replayed") })
        // The snapshot says it was made from three commits of that journal: this copy holds two,
        // so the journal after the snapshot was replaced, and what it held is lost.
        #expect(
            report.warnings.contains {
                $0.contains("holds 2 transactions, but the snapshot was made from that journal at 3 transactions")
                    && $0.contains("older copy")
            }, "\(report.warnings)")
    }

    /// Issue 44, item 2: a copy of the journal a compaction read, taken before its last
    /// commits and put back beside the snapshot (the same generation: what the crash between the
    /// renames leaves, but shorter), is refused, as is another store's journal of that
    /// generation; the crash's own journal, exactly as the compaction read it, still opens. The
    /// snapshot records the journal's header checksum and commit point (`CompactedJournal`).
    @Test func aJournalOfTheSnapshotsGenerationFromBeforeItsLastCommitsIsRefused() throws {
        let path = temporaryStore()
        var early: [UInt8] = []
        var read: [UInt8] = []
        do {
            let store = try open(path).0
            try store.save(clothes: mocks.top1)
            try store.commit()
            early = try POSIXFile.readAll(path + "/journal")!
            try store.save(clothes: mocks.top2)
            try store.commit()
            read = try POSIXFile.readAll(path + "/journal")!
            try store.base.compact()
        }
        // Another store with the same history's shape: its journal has the same generation.
        let other = temporaryStore()
        do {
            let store = try open(other).0
            try store.save(clothes: mocks.bottom1)
            try store.commit()
            try store.save(clothes: mocks.top2)
            try store.commit()
        }
        let foreign = try POSIXFile.readAll(other + "/journal")!
        let generation = try #require(StoreFormat.readJournalHeader(read)).generation
        #expect(StoreFormat.readJournalHeader(foreign)?.generation == generation)

        // The crash between the renames: the journal the compaction read.
        try Data(read).write(to: URL(fileURLWithPath: path + "/journal"))
        do {
            let (store, _) = try open(path)
            #expect(Set(store.fetchAllClothes().map(\.id)) == [mocks.top1.id, mocks.top2.id])
            #expect(store.base.check().problems == [])
        }
        // The same journal from before its last commit: refused, nothing changed.
        try Data(early).write(to: URL(fileURLWithPath: path + "/journal"))
        let before = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect {
            _ = try open(path)
        } throws: { error in
            "\(error)".contains("holds 1 transaction, but the snapshot was made from that journal at 2 transactions")
                && "\(error)".contains("put back from an older copy")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == before)
        #expect(try POSIXFile.readAll(path + "/journal")! == early)
        let (report, rows) = try recover(path)
        #expect(Set(rows.map(\.id)) == [mocks.top1.id, mocks.top2.id])
        #expect(report.warnings.contains { $0.contains("holds 1 transaction") }, "\(report.warnings)")
        // Another store's journal of the same generation (the same length of history, other
        // rows), and one following another snapshot: refused.
        try Data(foreign).write(to: URL(fileURLWithPath: path + "/journal"))
        #expect {
            _ = try open(path)
        } throws: { error in
            "\(error)".contains(
                "(generation \(generation)) is not the one the snapshot was made from (it holds 2 transactions ending at byte \(foreign.count)"
            )
        }
        let elsewhere = StoreFormat.journalHeader(
            .init(generation: generation, follows: .init(generation: 1, checksum: 0xDEAD_BEEF)))
        try Data(elsewhere).write(to: URL(fileURLWithPath: path + "/journal"))
        #expect {
            _ = try open(path)
        } throws: { error in
            "\(error)".contains("its header differs")
        }
    }

    /// Issue 44: a journal older than its snapshot (one file put back from an older copy) is
    /// damage, not the crash between a compaction's renames (whose journal has the snapshot's
    /// own generation): opening refuses it with every file unchanged, `closet recover` warns
    /// that what was committed after the snapshot is lost, and the crash's own state still
    /// opens, `closet check` saying why its journal is not read.
    @Test func aJournalOlderThanItsSnapshotIsRefused() throws {
        let path = temporaryStore()
        var stale: [UInt8] = []
        var compacted: [UInt8] = []
        do {
            let store = try open(path).0
            try store.save(clothes: mocks.top1)
            try store.commit()
            stale = try POSIXFile.readAll(path + "/journal")!
            try store.base.compact()
            try store.save(clothes: mocks.top2)
            try store.commit()
            compacted = try POSIXFile.readAll(path + "/journal")!
            try store.base.compact()
            try store.remove(clothes: mocks.top1)
            try store.commit()
        }
        // The crash between renames: the journal the last compaction read, of its generation.
        let crash = temporaryStore()
        try FileManager.default.copyItem(atPath: path, toPath: crash)
        let snapshot = try POSIXFile.readAll(path + "/snapshot")!
        do {
            let store = try open(crash).0
            try store.base.compact()
        }
        try Data(compacted).write(to: URL(fileURLWithPath: crash + "/journal"))
        try Data(snapshot).write(to: URL(fileURLWithPath: crash + "/snapshot"))
        let (reopened, _) = try open(crash)
        #expect(reopened.fetchAllClothes() == [mocks.top1, mocks.top2])
        let check = reopened.base.check()
        #expect(check.problems == [])
        #expect(check.checked.contains { $0.0 == "journal" && $0.1.contains("already inside the snapshot") })
        // An older journal put back: refused, the files as they were.
        try Data(stale).write(to: URL(fileURLWithPath: path + "/journal"))
        let before = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        #expect {
            _ = try open(path)
        } throws: { error in
            "\(error)".contains("is older than its snapshot") && "\(error)".contains("put back from an older copy")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).sorted() == before)
        #expect(try POSIXFile.readAll(path + "/journal")! == stale)
        let (report, _) = try recover(path)
        #expect(report.warnings.contains { $0.contains("is older than the snapshot") }, "\(report.lines)")
    }

    /// Issue 44: `closet check` reports a commit point that fails its checksum (opening uses
    /// the other, a commit older, and said nothing), and the next writer writes it again. The
    /// point a crash cut (the next commit's slot, its record whole) is said as unfinished.
    @Test func aDamagedCommitPointIsReportedAndRewritten() throws {
        let path = temporaryStore()
        do {
            let store = try open(path).0
            for clothes in [mocks.top1, mocks.top2] {
                try store.save(clothes: clothes)
                try store.commit()
            }
        }
        // Two commits: point A holds 2 (the one used), point B 1. Damage B.
        var journal = try POSIXFile.readAll(path + "/journal")!
        journal[StoreFormat.journalHeaderSize + StoreFormat.commitPointSize + 3] ^= 0x10
        try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
        do {
            let (store, _) = try open(path)
            #expect(store.fetchAllClothes().count == 2)
            let check = store.base.check()
            #expect(
                check.problems.contains {
                    $0.contains("commit point B of its journal (bytes 60-83) fails its checksum")
                        && $0.contains("the other (2 transactions) is used")
                }, "\(check.problems)")
            // The next writer writes it again.
            try store.save(clothes: mocks.bottom1)
            try store.commit()
        }
        let (again, _) = try open(path)
        #expect(again.base.check().problems == [])
        #expect(StoreFormat.failingCommitPoints(try POSIXFile.readAll(path + "/journal")!, generation: 2) == [])
        // A cut point: the third commit's slot (B) damaged, its record whole.
        journal = try POSIXFile.readAll(path + "/journal")!
        journal[StoreFormat.journalHeaderSize + StoreFormat.commitPointSize + 3] ^= 0x10
        try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
        let (cut, _) = try open(path)
        #expect(cut.fetchAllClothes().count == 3)
        let check = cut.base.check()
        #expect(check.problems == [], "\(check.problems)")
        #expect(check.checked.contains { $0.0 == "unfinished" && $0.1.contains("the commit point of transaction 3") })
    }

    /// An older snapshot put back beside a newer journal: what was committed between them is
    /// lost, and the report says so (exit 1 from the command).
    @Test func anOldSnapshotBesideANewerJournalIsAWarning() throws {
        let path = temporaryStore()
        let store = try open(path).0
        try store.save(clothes: mocks.top1)
        try store.commit()
        try store.compact()
        let old = try POSIXFile.readAll(path + "/snapshot")!
        try store.save(clothes: mocks.top2)
        try store.commit()
        try store.compact()
        try store.save(clothes: mocks.bottom1)
        try store.commit()
        try Data(old).write(to: URL(fileURLWithPath: path + "/snapshot"))
        let (report, rows) = try recover(path)
        #expect(rows == [mocks.top1, mocks.bottom1], "\(report.lines)")
        #expect(report.warnings.count == 1 && report.warnings[0].contains("what was committed between them is lost"))
        #expect(report.lines.last?.contains("see the warning above") == true)
    }

    /// A journal cut short before its commit point, and a store whose marker was deleted.
    @Test func aCutJournalIsAWarningAndTheMarkerIsNotNeeded() throws {
        let path = temporaryStore()
        let store = try open(path).0
        for clothes in [mocks.top1, mocks.top2, mocks.bottom1] {
            try store.save(clothes: clothes)
            try store.commit()
        }
        let journal = try POSIXFile.readAll(path + "/journal")!
        try Data(journal.dropLast(10)).write(to: URL(fileURLWithPath: path + "/journal"))
        try FileManager.default.removeItem(atPath: path + "/" + StoreFolder.markerName)
        let (report, rows) = try recover(path)
        #expect(rows == [mocks.top1, mocks.top2], "\(report.lines)")
        #expect(report.lines.first == "marker: missing (read as a closet store all the same)")
        #expect(
            report.warnings.contains {
                $0.contains("the journal is cut short or damaged: 3 transactions were committed")
                    && $0.contains("1 could not be found")
            }, "\(report.warnings)")
    }
}

/// Issue 22, item 9: a snapshot row that passes every checksum but cannot be decoded is
/// damage: the real binary says so and exits 3, and no file changes (it used to trap).
@Suite struct UnreadableRowTests {
    static let binary = BuiltProducts.closet

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func anUndecodableSnapshotRowExitsThreeAndChangesNothing() throws {
        let path = temporaryStore()
        _ = try compactedStore(at: path, holding: [MockWardrobe().top1])
        var bytes = try POSIXFile.readAll(path + "/snapshot")!
        let header = try #require(bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        let directory = try #require(SnapshotDirectory(trailerOf: bytes, header: header))
        let clothes = try #require(directory.entries.first { $0.name == "clothes" && $0.count == 1 })
        bytes[clothes.rowsEnd - 1] ^= 0xFF  // the row's last byte: no valid picture tag
        try writeResealedSnapshot(bytes, in: path)
        let before = try ["snapshot", "journal", "closet-store"].map { try POSIXFile.readAll(path + "/" + $0) }
        for statement in ["list clothes", ".dump"] {
            // Exit status 3, not a trap (a signal would show as its number).
            let (status, _, message) = try ChildProcess.run(Self.binary, ["--store", path, "-c", statement])
            #expect(status == 3, "\(message)")
            #expect(
                message.contains(
                    "is damaged: table 'clothes': a snapshot row passes its checksum but cannot be read; nothing in it was changed; 'closet recover"
                ), "\(message)")
        }
        #expect(try ["snapshot", "journal", "closet-store"].map { try POSIXFile.readAll(path + "/" + $0) } == before)
    }
}

@Suite struct CRC32CTests {
    @Test func knownValues() {
        #expect(StoreChecksum.crc32c(Array("123456789".utf8)) == 0xE306_9283)
        #expect(StoreChecksum.softwareCRC32C(Array("123456789".utf8)) == 0xE306_9283)
        #expect(StoreChecksum.crc32c([UInt8]()) == 0)
        #expect(StoreChecksum.crc32c([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
    }

    /// The instruction is found where the processor has it (one CPUID of our own, not libgcc's model).
    @Test func theInstructionIsUsedWhereTheProcessorHasIt() {
        #if arch(x86_64)
            let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
            #expect(StoreChecksum.usesHardware == cpuinfo.contains(" sse4_2"))
        #endif
    }

    @Test func theInstructionAndTheTablesAgreeOnRandomBytesAndSplits() {
        var generator = SystemRandomNumberGenerator()
        for round in 0..<300 {
            // One in ten up to 100 KB: past three 2 KB stretches the instruction runs three streams.
            let most = round % 10 == 0 ? 100_000 : 9000
            let bytes = (0..<Int.random(in: 0..<most, using: &generator)).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
            let whole = StoreChecksum.softwareCRC32C(bytes)
            #expect(StoreChecksum.crc32c(bytes) == whole)
            let split = Int.random(in: 0...bytes.count, using: &generator)
            let first = StoreChecksum.crc32c(Array(bytes[..<split]))
            #expect(StoreChecksum.crc32c(Array(bytes[split...]), continuing: first) == whole)
            #expect(StoreChecksum.softwareCRC32C(Array(bytes[split...]), continuing: first) == whole)
        }
    }
}

/// The snapshot with every checksum made to hold again over its changed bytes.
func resealed(_ bytes: [UInt8]) throws -> [UInt8] {
    var bytes = bytes
    let header = try #require(
        bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0, checkingLength: false) })
    for index in 0..<header.blockCount {
        let crc = StoreChecksum.crc32c(bytes[header.block(index)])
        for shift in 0..<4 {
            bytes[header.bodyEnd + 4 * index + shift] = UInt8(truncatingIfNeeded: crc >> (8 * shift))
        }
    }
    let trailer = StoreChecksum.crc32c(bytes[header.bodyEnd...])
    for shift in 0..<4 { bytes[24 + shift] = UInt8(truncatingIfNeeded: trailer >> (8 * shift)) }
    let own = StoreChecksum.crc32c(bytes[0..<28])
    for shift in 0..<4 { bytes[28 + shift] = UInt8(truncatingIfNeeded: own >> (8 * shift)) }
    return bytes
}

/// Writes changed snapshot bytes resealed, and the store's (empty) journal again following it
/// by the new checksum: a file made to look valid.
func writeResealedSnapshot(_ bytes: [UInt8], in path: String) throws {
    let sealed = try resealed(bytes)
    try Data(sealed).write(to: URL(fileURLWithPath: path + "/snapshot"))
    let link = try #require(sealed.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) }).link
    let journal = try #require(StoreFormat.readJournalHeader(try POSIXFile.readAll(path + "/journal")!))
    try Data(StoreFormat.journalHeader(StoreFormat.JournalHeader(generation: journal.generation, follows: link)))
        .write(to: URL(fileURLWithPath: path + "/journal"))
}
