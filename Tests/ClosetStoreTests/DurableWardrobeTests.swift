import ClosetCore
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetStore
@testable import WardrobePack

/// A fresh directory per test.
func temporaryStore() -> String {
    NSTemporaryDirectory() + "closet-store-\(UUID().uuidString)"
}

/// A directory marked as an (empty) closet store, for tests that then write its files by hand.
func markedStore(at path: String) throws {
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    try Data(StoreFolder.markerContents).write(to: URL(fileURLWithPath: path + "/closet-store"))
}

/// A copy of a store's marker and snapshot, with `journal` as its journal.
func copyOfStore(_ source: String, to path: String, journal: [UInt8]) throws {
    try markedStore(at: path)
    try FileManager.default.copyItem(atPath: source + "/snapshot", toPath: path + "/snapshot")
    try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
}

/// A format-4 journal with both commit points set back to its first `transactions` records
/// (ending at `end`): the state a crash leaves when the next record was being written.
func withCommitPoint(_ journal: [UInt8], transactions: Int, end: Int) throws -> [UInt8] {
    let header = try #require(StoreFormat.readJournalHeader(journal))
    let point = StoreFormat.commitPoint(
        StoreFormat.CommitPoint(transactions: transactions, end: end), generation: header.generation)
    var bytes = journal
    bytes.replaceSubrange(StoreFormat.journalHeaderSize..<StoreFormat.recordsStart, with: point + point)
    return bytes
}

/// Clothes (the app's mocks unless given) committed and compacted into a snapshot.
func compactedStore(at path: String, holding clothes: [Clothes] = MockWardrobe().allClothes) throws
    -> DurableWardrobe
{
    let (store, _) = try open(path)
    for clothes in clothes { try store.save(clothes: clothes) }
    try store.commit()
    try store.compact()
    return store
}

/// `clothes` committed and compacted, then opened again as a new process would: its rows read
/// in place.
func storeReadInPlace(at path: String, holding clothes: [Clothes]) throws -> DurableWardrobe {
    let store = DurableWardrobe(try DurableStore(path: path, tables: Wardrobe.pack.tables) { _ in })
    for clothes in clothes { try store.save(clothes: clothes) }
    try store.commit()
    try store.base.compact()
    return try open(path).0
}

/// The durable store with the wardrobe's repositories over it.
typealias DurableWardrobe = StoreWardrobe<DurableStore>

extension StoreWardrobe where Base == DurableStore {
    func compact() throws { try base.compact() }
}

func open(_ path: String) throws -> (DurableWardrobe, [String]) {
    var notices: [String] = []
    // Other tests run in parallel and start child processes; between fork and exec a child
    // briefly shares every open file description, this store's lock included. A reopen of a
    // store just closed can see that moment as "in use": wait it out, a few times.
    var attempt = 0
    while true {
        attempt += 1
        let store: DurableStore
        do {
            store = try DurableStore(path: path, tables: Wardrobe.pack.tables) { notices.append($0) }
        } catch {
            guard error.description.contains("is in use by process"), attempt < 20 else { throw error }
            usleep(50_000)
            continue
        }
        return (DurableWardrobe(store), notices)
    }
}

/// How many records a store's journal holds (the next one is numbered one more).
func recordCount(_ path: String) throws -> UInt32 {
    let bytes = try POSIXFile.readAll(path + "/journal")!
    let records = try StoreFormat.readRecords(bytes, from: StoreFormat.recordsStart, sequence: 1) { _, reader in
        reader.position = reader.end
    }
    return UInt32(records.transactions)
}

/// An operation on one of the wardrobe's tables.
func put(_ clothes: Clothes) -> EncodedOperation {
    var key = ByteWriter()
    ClothesTable.encode(key: clothes.id, into: &key)
    var row = ByteWriter()
    ClothesTable.encode(clothes, into: &row)
    return EncodedOperation(table: "clothes", key: key.bytes, row: row.bytes)
}

@Suite struct DurableWardrobeTests {
    let mocks = MockWardrobe()

    @Test func committedRowsSurviveReopeningInOrder() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            for clothes in mocks.allClothes { try store.save(clothes: clothes) }
            for style in mocks.styles { try store.save(style: style) }
            try store.commit()
            try store.remove(clothes: mocks.top2)
            try store.commit()
        }
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes() == mocks.allClothes.filter { $0.id != mocks.top2.id })
        #expect(try reopened.fetchStyles().map(\.name) == mocks.styles.map(\.name))
        #expect(try reopened.fetchStyles()[1].clothes[.top] == nil)  // top2's slot emptied
    }

    /// Reopening replays a journal whose records name the tables in turn, one commit each and
    /// several in one (`JournalApplier` keeps the last table named across records): every
    /// change lands in its own table, in order.
    @Test func aJournalNamingTablesInTurnIsReplayedIntoEach() throws {
        let path = temporaryStore()
        let committed: (clothes: [Clothes], styles: [Style])
        do {
            let (store, _) = try open(path)
            for clothes in mocks.allClothes {
                try store.save(clothes: clothes)
                try store.commit()
            }
            for style in mocks.styles {
                try store.save(style: style)
                try store.commit()
            }
            // One record naming clothes, styles, then clothes again.
            try store.save(
                clothes: Clothes(
                    createdAt: Date(timeIntervalSince1970: 1_700_000_000), category: .top, weatherType: .fall,
                    descriptions: "between"))
            try store.save(style: mocks.styles[0])
            try store.remove(clothes: mocks.top2)
            try store.commit()
            try store.save(clothes: mocks.top2)
            try store.commit()
            committed = (store.fetchAllClothes(), try store.fetchStyles())
        }
        #expect(committed.clothes.count == mocks.allClothes.count + 1)
        #expect(committed.clothes.last?.id == mocks.top2.id)  // removed, then back at the end
        #expect(!committed.styles.isEmpty)
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes() == committed.clothes)
        // Styles made now keep their time to the store's precision: compared by what they hold.
        let replayed = try reopened.fetchStyles()
        #expect(replayed.map(\.id) == committed.styles.map(\.id))
        #expect(replayed.map(\.name) == committed.styles.map(\.name))
        #expect(replayed.map(\.clothes) == committed.styles.map(\.clothes))
    }

    /// A compaction killed before its rename leaves `snapshot.tmp` (megabytes): the next writer
    /// removes it, and what it names was never the store's.
    @Test func theNextWriterRemovesWhatACrashLeftBeforeItsRename() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            try store.save(clothes: mocks.top1)
            try store.commit()
        }
        for name in ["snapshot.tmp", "journal.tmp", "closet-store.tmp"] {
            FileManager.default.createFile(atPath: path + "/" + name, contents: Data(repeating: 7, count: 4096))
        }
        do {
            let (store, _) = try open(path)
            // `closet check` names each with its size; they are no damage.
            let check = store.check()
            #expect(check.problems.isEmpty)
            let named = check.checked.filter { $0.0 == "leftover" }.map(\.1)
            #expect(named.count == 3 && named.allSatisfy { $0.contains(", 4096 bytes, ") }, "\(named)")
            #expect(store.fetchAllClothes() == [mocks.top1])
            try store.save(clothes: mocks.top2)
            try store.commit()
            #expect(!store.check().checked.contains { $0.0 == "leftover" })
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".tmp") }
        #expect(left.isEmpty, "\(left)")
        #expect(try open(path).0.fetchAllClothes() == [mocks.top1, mocks.top2])
    }

    @Test func uncommittedAndRolledBackChangesAreNotKept() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            try store.save(clothes: mocks.top1)
            try store.commit()
            let mark = store.savepoint()
            try store.save(clothes: mocks.top2)
            store.rollback(to: mark)
            try store.commit()
            try store.save(clothes: mocks.top3)  // never committed
        }
        #expect(try open(path).0.fetchAllClothes() == [mocks.top1])
    }

    @Test func compactionKeepsEverythingAndEmptiesTheJournal() throws {
        let path = temporaryStore()
        do {
            let store = try compactedStore(at: path)
            try store.save(clothes: Clothes(category: .shoes, weatherType: .winter, descriptions: "after"))
            try store.commit()
        }
        let (reopened, _) = try open(path)
        #expect(reopened.clothesCount == 11)
        #expect(reopened.fetchAllClothes().last?.descriptions == "after")
    }

    @Test func aSecondWriterWaitsOutTheBusyTimeoutThenIsRefusedNamingTheHolder() throws {
        let path = temporaryStore()
        let (first, _) = try open(path)
        let second = DurableWardrobe(
            try DurableStore(path: path, tables: Wardrobe.pack.tables, busyTimeout: 0.2) { _ in })
        #expect(second.clothesCount == 0)  // a reader opens while nobody writes, and while someone does
        try first.save(clothes: mocks.top1)  // the first change takes the write lock
        let started = Date()
        try second.save(clothes: mocks.top2)
        #expect(
            second.base.takeWriteProblem()
                == .failed(
                    "store '\(path)' is in use by process \(ProcessInfo.processInfo.processIdentifier) (gave up waiting for its write lock after 0.2 s; see --busy-timeout)"
                ))
        #expect(Date().timeIntervalSince(started) >= 0.2)
        #expect(throws: StoreError.self) { try second.commit() }
        second.base.rollback(to: Savepoint(position: 0))
        try first.commit()  // lets go
        // The second sees the first's commit before its next transaction, then writes.
        try second.base.refresh()
        #expect(second.fetchAllClothes() == [mocks.top1])
        try second.save(clothes: mocks.top2)
        #expect(second.base.takeWriteProblem() == nil)
        try second.commit()
        try first.base.refresh()
        #expect(first.fetchAllClothes() == [mocks.top1, mocks.top2])
    }

    @Test func aBigFirstCommitIsWrittenAsTheSnapshotAndSmallOnesAreJournaled() throws {
        let path = temporaryStore()
        let (store, _) = try open(path)
        let many = (0..<1_500).map { Clothes(category: .top, weatherType: .fall, descriptions: "row \($0)") }
        for clothes in many { try store.save(clothes: clothes) }
        try store.commit()
        // Straight into the snapshot: the journal is an empty one following it.
        #expect(POSIXFile.size(path + "/journal") == StoreFormat.recordsStart)
        #expect((POSIXFile.size(path + "/snapshot") ?? 0) > 1_500 * 20)
        try store.save(clothes: mocks.top1)
        try store.commit()
        #expect(POSIXFile.size(path + "/journal")! > StoreFormat.recordsStart)
        let (reopened, _) = try open(path)
        // (Instants are stored to the millisecond: compare what identifies each row.)
        #expect(reopened.fetchAllClothes().map(\.id) == (many + [mocks.top1]).map(\.id))
    }

    /// A commit after which the store would compact (more journal changes than the rule allows)
    /// is that compaction: its rows go into the new snapshot once, never into the journal; one
    /// below the rule is journaled. Reopened, the store holds every commit.
    @Test func aCommitThatWouldMakeTheStoreCompactIsWrittenAsTheSnapshot() throws {
        let path = temporaryStore()
        let many = (0..<2_000).map { Clothes(category: .top, weatherType: .fall, descriptions: "row \($0)") }
        let store = try compactedStore(at: path, holding: many)
        func generation() throws -> UInt64? {
            try POSIXFile.readAll(path + "/snapshot")?.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) }?
                .generation
        }
        let before = try #require(try generation())
        for clothes in many.prefix(100) { try store.remove(clothes: clothes) }
        try store.commit()
        #expect(POSIXFile.size(path + "/journal")! > StoreFormat.recordsStart)
        let journaled = POSIXFile.size(path + "/journal")!
        // 100 journaled and 200 more: past the 256 changes a store of 2,000 rows keeps in its journal.
        for clothes in many[100..<300] { try store.remove(clothes: clothes) }
        try store.save(clothes: mocks.top1)
        try store.commit()
        #expect(POSIXFile.size(path + "/journal") == StoreFormat.recordsStart)
        #expect(journaled > StoreFormat.recordsStart)
        #expect(try generation() == before + 1)
        // The journal the snapshot replaced held the first commit only: the second never went to it.
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(try snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        #expect(CompactedJournal(snapshot: snapshot, header: header)?.transactions == 1)
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes().map(\.id) == (many.dropFirst(300) + [mocks.top1]).map(\.id))
        // The process that wrote it goes on writing after it.
        try store.save(clothes: mocks.top2)
        try store.commit()
        #expect(
            try open(path).0.fetchAllClothes().map(\.id) == (many.dropFirst(300) + [mocks.top1, mocks.top2]).map(\.id))
    }

    @Test func aWriterThatReadAStaleStoreIsToldToRunAgain() throws {
        let path = temporaryStore()
        let (first, _) = try open(path)
        let (second, _) = try open(path)
        try first.save(clothes: mocks.top1)
        try first.commit()
        // The second has not refreshed: its first write finds the journal moved on.
        try second.save(clothes: mocks.top2)
        #expect(second.base.takeWriteProblem() == .conflict)
        second.base.rollback(to: Savepoint(position: 0))
        try second.base.refresh()
        try second.save(clothes: mocks.top2)
        #expect(second.base.takeWriteProblem() == nil)
        try second.commit()
        let (third, _) = try open(path)
        #expect(third.fetchAllClothes() == [mocks.top1, mocks.top2])
    }

    @Test func aReaderFollowsAnotherProcesssCompaction() throws {
        let path = temporaryStore()
        let (writer, _) = try open(path)
        let (reader, _) = try open(path)
        for clothes in mocks.allClothes { try writer.save(clothes: clothes) }
        try writer.commit()
        try reader.base.refresh()
        #expect(reader.clothesCount == 10)
        try writer.compact()
        try writer.remove(clothes: mocks.top1)
        try writer.commit()
        try reader.base.refresh()
        #expect(reader.clothesCount == 9)
        #expect(reader.fetchAllClothes() == writer.fetchAllClothes())
    }

    @Test func aDirectoryThatIsNotAStoreIsLeftAlone() throws {
        let path = temporaryStore()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try "mine".write(toFile: path + "/notes.txt", atomically: true, encoding: .utf8)
        #expect(throws: DurableStore.OpenError.self) { try open(path) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: path) == ["notes.txt"])
    }

    @Test func newStoresArePrivate() throws {
        let path = temporaryStore() + "/nested/store"
        let (store, _) = try open(path)
        try store.save(clothes: mocks.top1)
        try store.commit()
        func mode(_ file: String) throws -> Int? {
            try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        }
        for directory in [path, path + "/images"] { #expect(try mode(directory) == 0o700, "\(directory)") }
        for file in ["journal", "lock", "closet-store"] { #expect(try mode(path + "/" + file) == 0o600, "\(file)") }
    }
}

/// The journal's failure modes, byte by byte.
@Suite struct JournalTests {
    let mocks = MockWardrobe()

    /// A store with two committed transactions; returns its path and the journal length after the first.
    func twoTransactions() throws -> (String, Int) {
        let path = temporaryStore()
        let (store, _) = try open(path)
        try store.save(clothes: mocks.top1)
        try store.commit()
        let firstLength = POSIXFile.size(path + "/journal")!
        try store.save(clothes: mocks.top2)
        try store.save(clothes: mocks.bottom1)
        try store.commit()
        return (path, firstLength)
    }

    /// A crash while the second commit was being written: its record torn at any byte, the
    /// commit point still at the first. Readers see the first commit; the next commit lands
    /// on a clean end.
    @Test func aTornLastRecordIsDroppedAtEveryByteOffset() throws {
        let (path, firstLength) = try twoTransactions()
        let full = try withCommitPoint(
            try POSIXFile.readAll(path + "/journal")!, transactions: 1, end: firstLength)
        for cut in firstLength..<full.count {
            let copy = temporaryStore()
            try copyOfStore(path, to: copy, journal: Array(full[0..<cut]))
            let (store, _) = try open(copy)
            #expect(store.fetchAllClothes() == [mocks.top1], "cut at \(cut)")
            try store.save(clothes: mocks.shoes1)
            try store.commit()
            #expect(try open(copy).0.fetchAllClothes() == [mocks.top1, mocks.shoes1], "cut at \(cut)")
        }
    }

    /// The same cuts with the commit point at the second commit: a journal cut short, which
    /// loses a commit that was reported as saved. Refused, nothing changed.
    @Test func aJournalCutBelowItsCommitPointIsRefusedAtEveryByteOffset() throws {
        let (path, _) = try twoTransactions()
        let full = try POSIXFile.readAll(path + "/journal")!
        for cut in 0..<full.count {
            let copy = temporaryStore()
            try copyOfStore(path, to: copy, journal: Array(full[0..<cut]))
            #expect(throws: DurableStore.OpenError.self, "cut at \(cut)") { try open(copy) }
            #expect(try POSIXFile.readAll(copy + "/journal")! == Array(full[0..<cut]))
        }
    }

    /// A flipped bit in a record the commit point covers is damage, even in the last one.
    @Test func aFlippedBitInACommittedRecordIsDamage() throws {
        let (path, firstLength) = try twoTransactions()
        var bytes = try POSIXFile.readAll(path + "/journal")!
        bytes[firstLength + 4] ^= 0x01
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/journal"))
        #expect {
            try open(path)
        } throws: { error in
            "\(error)".contains("at byte \(firstLength) of its journal: a record header whose checksum does not match")
        }
    }

    /// Appends a complete record with a valid checksum whose payload this build cannot decode.
    func appendUndecodableRecord(to path: String) throws -> Int {
        var bytes = try POSIXFile.readAll(path + "/journal")!
        let offset = bytes.count
        var payload = ByteWriter()
        payload.u32(1)
        JournalFormat.encode(put(mocks.shoes1), into: &payload)
        payload.bytes[payload.bytes.count - 1] ^= 0xFF  // the row's last byte: no valid picture tag
        bytes += StoreFormat.seal(payload.bytes, sequence: try recordCount(path) + 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/journal"))
        return offset
    }

    @Test func aCommittedRecordThatCannotBeDecodedRefusesToOpenAndChangesNothing() throws {
        let (path, _) = try twoTransactions()
        let offset = try appendUndecodableRecord(to: path)
        // A later committed transaction must not be lost either.
        var bytes = try POSIXFile.readAll(path + "/journal")!
        bytes += StoreFormat.record([put(mocks.shoes1)], sequence: try recordCount(path) + 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/journal"))
        do {
            _ = try open(path)
            Issue.record("a store with an unreadable committed record opened")
        } catch let error as DurableStore.OpenError {
            #expect(error.description.contains("byte \(offset) of its journal"), "\(error.description)")
        }
        #expect(try POSIXFile.readAll(path + "/journal")! == bytes)
    }

    @Test func aStoreMadeByANewerClosetIsRefusedByName() throws {
        let (path, _) = try twoTransactions()
        try Data("closet store, format 99\n".utf8).write(to: URL(fileURLWithPath: path + "/closet-store"))
        let journal = try POSIXFile.readAll(path + "/journal")!
        do {
            _ = try open(path)
            Issue.record("a newer store opened")
        } catch let error as DurableStore.OpenError {
            #expect(error.description.contains("made by a newer closet (store format 99"), "\(error.description)")
        }
        #expect(try POSIXFile.readAll(path + "/journal")! == journal)
        #expect(try POSIXFile.readAll(path + "/closet-store")! == Array("closet store, format 99\n".utf8))
    }

    @Test func aMarkerThatIsNotOursIsDamage() throws {
        let (path, _) = try twoTransactions()
        try Data("closet store, format x\n".utf8).write(to: URL(fileURLWithPath: path + "/closet-store"))
        #expect(throws: DurableStore.OpenError.self) { try open(path) }
    }

    /// A format-3 store never written to has only its marker, and may have an empty journal.
    @Test func anOlderStoreWithAnEmptyJournalFileOpensEmpty() throws {
        let path = temporaryStore()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("closet store, format 3\n".utf8).write(to: URL(fileURLWithPath: path + "/closet-store"))
        _ = FileManager.default.createFile(atPath: path + "/journal", contents: Data())
        let (store, notices) = try open(path)
        #expect(store.clothesCount == 0)
        #expect(notices.isEmpty)
    }

    /// Issue 22: a store made by this build has committed from its first open on (an empty
    /// snapshot, a journal following it), so a journal deleted, emptied or cut to a record
    /// boundary is damage, not an empty store; so are both files deleted.
    @Test func aJournalOnlyStoreLosesNothingSilently() throws {
        let path = temporaryStore()
        let (store, _) = try open(path)
        for clothes in [mocks.top1, mocks.top2, mocks.bottom1] {
            try store.save(clothes: clothes)
            try store.commit()
        }
        let journal = try POSIXFile.readAll(path + "/journal")!
        let damages: [(String, (String) throws -> Void)] = [
            ("its journal is missing", { try FileManager.default.removeItem(atPath: $0 + "/journal") }),
            ("its journal is cut short (0 bytes)", { try Data().write(to: URL(fileURLWithPath: $0 + "/journal")) }),
            (
                "its journal is cut short (7 bytes)",
                { try Data(journal.prefix(7)).write(to: URL(fileURLWithPath: $0 + "/journal")) }
            ),
            (
                "3 committed transactions end at byte \(journal.count), but its whole records end at byte \(StoreFormat.recordsStart)",
                {
                    try Data(journal.prefix(StoreFormat.recordsStart)).write(to: URL(fileURLWithPath: $0 + "/journal"))
                }
            ),
            (
                "its snapshot and its journal are missing",
                {
                    try FileManager.default.removeItem(atPath: $0 + "/journal")
                    try FileManager.default.removeItem(atPath: $0 + "/snapshot")
                }
            ),
        ]
        for (expected, damage) in damages {
            let copy = temporaryStore()
            try copyOfStore(path, to: copy, journal: journal)
            try damage(copy)
            #expect {
                try open(copy)
            } throws: { error in
                "\(error)".contains(expected) && "\(error)".contains("closet recover")
            }
        }
    }

    @Test func aSnapshotWhoseJournalWasDeletedIsRefused() throws {
        let path = temporaryStore()
        _ = try compactedStore(at: path)
        try FileManager.default.removeItem(atPath: path + "/journal")
        let snapshot = try POSIXFile.readAll(path + "/snapshot")!
        do {
            _ = try open(path)
            Issue.record("a store whose journal was deleted opened")
        } catch let error as DurableStore.OpenError {
            #expect(error.description.contains("its journal is missing"), "\(error.description)")
            #expect(error.description.contains("closet recover"), "\(error.description)")
        }
        #expect(try POSIXFile.readAll(path + "/snapshot")! == snapshot)
        #expect(!FileManager.default.fileExists(atPath: path + "/journal"))
    }

    @Test func aJournalAlreadyInsideTheSnapshotIsSkipped() throws {
        // The crash between writing a snapshot and starting the next journal.
        let path = temporaryStore()
        let journal: [UInt8]
        do {
            let (store, _) = try open(path)
            try store.save(clothes: mocks.top1)
            try store.commit()
            try store.remove(clothes: mocks.top1)
            try store.save(clothes: mocks.top2)
            try store.commit()
            // What the compaction reads, and a crash between its renames leaves.
            journal = try POSIXFile.readAll(path + "/journal")!
            try store.compact()
        }
        // Put the old generation's journal back: replaying it would resurrect top1.
        try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
        #expect(try open(path).0.fetchAllClothes() == [mocks.top2])
    }

    @Test func aDamagedSnapshotRefusesToOpen() throws {
        let path = temporaryStore()
        _ = try compactedStore(at: path, holding: [mocks.top1])
        var bytes = try POSIXFile.readAll(path + "/snapshot")!
        bytes[30] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/snapshot"))
        #expect(throws: DurableStore.OpenError.self) { try open(path) }
    }

    @Test func tablesRoundTripThroughASnapshot() throws {
        let image = ImageInfo(format: .jpeg, width: 640, height: 480, bytes: 99, checksum: 0xDEAD_BEEF)
        let clothes = Clothes(
            createdAt: Date(timeIntervalSince1970: 1.5), image: image, category: .shoes, weatherType: .winter,
            descriptions: "첼시 부츠 \"x\"")
        let record = StyleRecord(
            id: UUID(), createdAt: Date(timeIntervalSince1970: 2), name: nil, weather: .spring,
            clothesIDs: [.shoes: clothes.id])
        let source = Tables(Wardrobe.pack.tables)
        try source.table(ClothesTable.schema).upsert(clothes)
        try source.table(StyleTable.schema).upsert(record)
        let bytes = JournalFormat.snapshot(source.all, generation: 3, committed: false)
        let target = Tables(Wardrobe.pack.tables)
        #expect(try JournalFormat.readSnapshot(bytes, tables: target, formatOne: []) == 3)
        #expect(try target.table(ClothesTable.schema).rows == [clothes])
        #expect(try target.table(StyleTable.schema).rows == [record])
    }
}

/// Rows of a table this build does not know (a newer build's, or an uninstalled pack's) are
/// carried, never dropped.
@Suite struct UnknownTableTests {
    let mocks = MockWardrobe()

    func appendRecord(_ operations: [EncodedOperation], to path: String) throws {
        var bytes = try POSIXFile.readAll(path + "/journal")!
        bytes += StoreFormat.record(operations, sequence: try recordCount(path) + 1)
        try Data(bytes).write(to: URL(fileURLWithPath: path + "/journal"))
    }

    func rawRows(_ store: DurableWardrobe, _ table: String) -> [EncodedOperation] {
        store.base.tables.all.first { $0.name == table }?.snapshot(committed: false) ?? []
    }

    @Test func aRecordOfAnUnknownTableOpensAndSurvivesCompaction() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            try store.save(clothes: mocks.top1)
            try store.commit()
        }
        let future = EncodedOperation(table: "future", key: [1, 2, 3], row: [9, 8, 7])
        let gone = EncodedOperation(table: "future", key: [4], row: [5])
        try appendRecord([future, gone, EncodedOperation(table: "future", key: [4], row: nil)], to: path)
        do {
            let (store, notices) = try open(path)
            #expect(notices.isEmpty)
            #expect(store.fetchAllClothes() == [mocks.top1])
            #expect(rawRows(store, "future") == [future])
            try store.save(clothes: mocks.top2)
            try store.commit()
            try store.compact()
        }
        let (reopened, _) = try open(path)
        #expect(reopened.fetchAllClothes() == [mocks.top1, mocks.top2])
        #expect(rawRows(reopened, "future") == [future])
    }
}

@Suite struct StoreCreationCrashTests {
    @Test func aStoreWhoseCreationWasKilledBeforeItsMarkerOpens() throws {
        // Killed between mkdir and renaming the marker into place: only the marker's temporary file.
        let path = temporaryStore()
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("closet st".utf8).write(to: URL(fileURLWithPath: path + "/closet-store.tmp"))
        let (store, _) = try open(path)
        #expect(store.clothesCount == 0)
        #expect(FileManager.default.fileExists(atPath: path + "/closet-store"))
    }
}

/// The images folder may hold files that are not the store's: opening never deletes them, and
/// a folder that is a symbolic link is never followed.
@Suite struct ForeignFileTests {
    let mocks = MockWardrobe()

    @Test func filesTheStoreDidNotMakeSurviveOpening() throws {
        let path = temporaryStore()
        do {
            let (store, _) = try open(path)
            try store.save(clothes: mocks.top1)
            try store.commit()
        }
        let images = path + "/images/"
        let orphan = "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0000ABCD.png"
        for name in ["notes.txt", "holiday.png", orphan, orphan + ".tmp"] {
            try Data([1, 2, 3]).write(to: URL(fileURLWithPath: images + name))
        }
        let before = try FileManager.default.contentsOfDirectory(atPath: images).sorted()
        let (reader, _) = try open(path)
        // Only a writer cleans up (a reader cannot know a picture is not another writer's).
        #expect(try FileManager.default.contentsOfDirectory(atPath: images).sorted() == before)
        try reader.save(clothes: mocks.top2)
        try reader.commit()
        let left = try FileManager.default.contentsOfDirectory(atPath: images).sorted()
        // Its own kind of leftovers (an unreferenced picture, a cut write) go; the rest stays.
        #expect(left == ["holiday.png", "notes.txt"])
    }

    @Test func aSymlinkedImagesFolderIsNeverFollowed() throws {
        let path = temporaryStore()
        let elsewhere = temporaryStore() + "-photos"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let precious = elsewhere + "/E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0000ABCD.png"
        try Data([9]).write(to: URL(fileURLWithPath: precious))
        do { _ = try open(path) }
        try FileManager.default.removeItem(atPath: path + "/images")
        try FileManager.default.createSymbolicLink(atPath: path + "/images", withDestinationPath: elsewhere)
        let (store, _) = try open(path)
        #expect(FileManager.default.fileExists(atPath: precious))
        #expect(throws: StoreError.self) {
            try store.storeImage(
                [UInt8](repeating: 1, count: 4096),
                ImageInfo(format: .png, width: 1, height: 1, bytes: 4096, checksum: 7),
                for: UUID())
        }
    }
}

/// Many pictures in one commit are made durable by one sync of the file system (not one per
/// file); each is written under its own name, and all of them read back after reopening.
@Suite struct ManyPicturesTests {
    @Test func aCommitOfManyPicturesKeepsEveryOne() throws {
        let path = temporaryStore()
        var written: [(UUID, ImageInfo, [UInt8])] = []
        do {
            let (store, _) = try open(path)
            for index in 0..<(BlobFiles.syncWholeFileSystemFrom + 10) {
                // Files: a picture below a file-system block would be kept inline.
                let bytes = (0..<(4096 + index)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ index) }
                let info = ImageInfo(
                    format: .png, width: 1, height: 1, bytes: bytes.count, checksum: Checksum.crc32(bytes))
                let id = UUID()
                try store.storeImage(bytes, info, for: id)
                try store.save(
                    clothes: Clothes(id: id, image: info, category: .top, weatherType: .fall))
                written.append((id, info, bytes))
            }
            try store.commit()
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: path + "/images")
        #expect(files.count == written.count && !files.contains { $0.hasSuffix(".tmp") })
        let (reopened, _) = try open(path)
        for (id, info, bytes) in written { #expect(reopened.loadImage(info, for: id) == bytes) }
    }
}

/// Small pictures are rows of the store's own table: one replaced, or whose clothes are removed,
/// in the same transaction that wrote it leaves nothing behind; the others survive reopening.
@Suite struct InlinePictureTests {
    func picture(_ seed: Int) -> ([UInt8], ImageInfo) {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ seed) }
        return (bytes, ImageInfo(format: .png, width: 1, height: 1, bytes: 100, checksum: Checksum.crc32(bytes)))
    }

    @Test func picturesReplacedOrRemovedWithinATransactionLeaveNoRow() throws {
        let path = temporaryStore()
        let kept = UUID()
        let (first, firstInfo) = picture(1)
        let (second, secondInfo) = picture(2)
        do {
            let (store, _) = try open(path)
            try store.storeImage(first, firstInfo, for: kept)
            try store.save(clothes: Clothes(id: kept, image: firstInfo, category: .top, weatherType: .fall))
            try store.storeImage(second, secondInfo, for: kept)
            try store.save(clothes: Clothes(id: kept, image: secondInfo, category: .top, weatherType: .fall))
            let gone = UUID()
            let (third, thirdInfo) = picture(3)
            try store.storeImage(third, thirdInfo, for: gone)
            let removed = Clothes(id: gone, image: thirdInfo, category: .top, weatherType: .fall)
            try store.save(clothes: removed)
            try store.remove(clothes: removed)
            try store.commit()
            #expect(store.base.inlineBlobs?.rows.map(\.name) == [secondInfo.blobName(owner: kept)])
        }
        let (reopened, _) = try open(path)
        #expect(reopened.loadImage(secondInfo, for: kept) == second)
        #expect(reopened.loadImage(firstInfo, for: kept) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: path + "/images").isEmpty)
    }
}

/// Two processes making the same new store at once: one sets it up, the other is told who
/// holds it; neither sees the other's half-written marker.
@Suite struct FirstOpenTests {
    static let binary = BuiltProducts.closet

    @Test func concurrentFirstOpensNeverCollideOnTheMarker() throws {
        try #require(FileManager.default.isExecutableFile(atPath: Self.binary))
        for _ in 0..<20 {
            let path = temporaryStore()
            let runs = (0..<2).map { _ -> (Process, Pipe) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: Self.binary)
                process.arguments = ["--store", path, "-c", "count clothes"]
                let error = Pipe()
                process.standardError = error
                process.standardOutput = FileHandle.nullDevice
                return (process, error)
            }
            for (process, _) in runs { try process.run() }
            for (process, error) in runs {
                let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
                process.waitUntilExit()
                #expect(process.terminationStatus == 0 || message.contains("is in use by process"), "\(message)")
            }
            #expect(try String(contentsOfFile: path + "/closet-store", encoding: .utf8) == "closet store, format 5\n")
        }
    }

    @Test func anAdoptedEmptyFolderBecomesPrivate() throws {
        let path = temporaryStore()
        try FileManager.default.createDirectory(
            atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o777])
        _ = try open(path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o700)
    }
}

@Suite struct CompactionFailureTests {
    @Test func aFailedCompactionIsReportedOnceAndLosesNothing() throws {
        let path = temporaryStore()
        var notices: [String] = []
        let store = DurableWardrobe(try DurableStore(path: path, tables: Wardrobe.pack.tables) { notices.append($0) })
        // A directory where the new snapshot's temporary file must go: every compaction fails.
        try FileManager.default.createDirectory(atPath: path + "/snapshot.tmp", withIntermediateDirectories: false)
        let big = String(repeating: "x", count: 5 << 20)
        try store.save(clothes: Clothes(category: .top, weatherType: .fall, descriptions: big))
        try store.commit()
        try store.save(clothes: Clothes(category: .shoes, weatherType: .fall, descriptions: "small"))
        try store.commit()
        #expect(notices.count == 1)
        #expect(notices.first?.contains("could not write a new snapshot") == true)
        try FileManager.default.removeItem(atPath: path + "/snapshot.tmp")
        withExtendedLifetime(store) {}
    }

    @Test func theStoreStillHoldsEverythingAfterAFailedCompaction() throws {
        let path = temporaryStore()
        do {
            let store = DurableWardrobe(try DurableStore(path: path, tables: Wardrobe.pack.tables) { _ in })
            try FileManager.default.createDirectory(atPath: path + "/snapshot.tmp", withIntermediateDirectories: false)
            try store.save(
                clothes: Clothes(
                    category: .top, weatherType: .fall, descriptions: String(repeating: "y", count: 5 << 20)))
            try store.commit()
        }
        try FileManager.default.removeItem(atPath: path + "/snapshot.tmp")
        #expect(try open(path).0.clothesCount == 1)
    }
}

/// A big transaction's new rows wait in a scratch file beside the store (`SpilledRows`) and
/// are committed, undone and read back exactly as rows kept in memory.
@Suite struct SpilledWardrobeTests {
    /// Spread over the index's buckets, created in a few instants (equal order keys).
    let many = (0..<1_000).map {
        Clothes(
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double($0 % 7)),
            category: ClothesCategory.allCases[$0 % 5], weatherType: WeatherType.allCases[$0 / 5 % 5],
            descriptions: "row \($0)")
    }

    /// A store whose tables move new rows out past `kept`, and sort their index in chunks of a
    /// few hundred bytes (`ScratchSort`: many runs merged).
    func spillingStore(_ path: String, kept: Int = 100) throws -> DurableWardrobe {
        let (store, _) = try open(path)
        store.tables.scratch.rowsKeptInMemory = kept
        store.tables.scratch.rowsHeldWhole = 0
        store.tables.scratch.sortChunkBytes = 300
        return store
    }

    @Test func aBigFirstCommitWrittenFromTheScratchFileIsTheSnapshotRowsKeptInMemoryWrite() throws {
        let spilledPath = temporaryStore()
        let keptPath = temporaryStore()
        let spilling = try spillingStore(spilledPath)
        let (keeping, _) = try open(keptPath)
        keeping.tables.scratch.makeFile = nil
        for clothes in many {
            try spilling.save(clothes: clothes)
            try keeping.save(clothes: clothes)
        }
        #expect(spilling.tables.rowsInMemory.spilledRows == 1_000)
        #expect(keeping.tables.rowsInMemory.spilledRows == 0)
        #expect(spilling.clothes(withID: many[3].id)?.descriptions == "row 3")
        #expect(spilling.clothesCount == 1_000)
        try spilling.commit()
        try keeping.commit()
        // Read again in place from the snapshot it wrote: the scratch file and its keys let go.
        #expect(spilling.tables.rowsInMemory.spilledRows == 0)
        #expect(try POSIXFile.readAll(spilledPath + "/snapshot") == POSIXFile.readAll(keptPath + "/snapshot"))
        let (reopened, notices) = try open(spilledPath)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes().map(\.id) == many.map(\.id))
        #expect(reopened.check().problems.isEmpty)
        // No scratch file is left in the store's folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: spilledPath).sorted() == [
                "closet-store", "images", "journal", "lock", "snapshot",
            ])
    }

    @Test func aBigTransactionRolledBackLeavesNothing() throws {
        let path = temporaryStore()
        let store = try spillingStore(path)
        try store.save(style: Style(clothes: [:], weather: .fall, name: "first"))
        try store.commit()
        let mark = store.savepoint()
        for clothes in many { try store.save(clothes: clothes) }
        #expect(store.tables.rowsInMemory.spilledRows == 1_000)
        store.rollback(to: mark)
        #expect(store.clothesCount == 0)
        #expect(!store.tables.hasPendingChanges)
        try store.save(clothes: many[5])
        try store.commit()
        #expect(try open(path).0.fetchAllClothes().map(\.id) == [many[5].id])
    }

    @Test func aBigCommitAfterOthersGoesThroughTheJournalOrACompactionWithEveryRow() throws {
        let path = temporaryStore()
        let store = try spillingStore(path, kept: 64)
        try store.save(style: Style(clothes: [:], weather: .fall, name: "first"))
        try store.commit()
        for clothes in many.prefix(300) { try store.save(clothes: clothes) }
        #expect(store.tables.rowsInMemory.spilledRows == 256)
        // A row moved out, replaced: every row read back first, in its place.
        var changed = many[10]
        changed.descriptions = "changed"
        try store.save(clothes: changed)
        #expect(store.tables.rowsInMemory.spilledRows == 0)
        try store.commit()
        let (reopened, notices) = try open(path)
        #expect(notices.isEmpty)
        #expect(reopened.fetchAllClothes().map(\.id) == many.prefix(300).map(\.id))
        #expect(reopened.clothes(withID: many[10].id)?.descriptions == "changed")
        #expect(try reopened.fetchStyles().map(\.name) == ["first"])
        // Without the replacement, the rows make the store due to compact: written as the new
        // snapshot straight from the scratch file (nothing framed for the journal).
        let otherPath = temporaryStore()
        let other = try spillingStore(otherPath, kept: 64)
        try other.save(style: Style(clothes: [:], weather: .fall, name: "first"))
        try other.commit()
        for clothes in many.prefix(300) { try other.save(clothes: clothes) }
        #expect(other.tables.rowsInMemory.spilledRows == 256)
        try other.commit()
        #expect(POSIXFile.size(otherPath + "/journal") == StoreFormat.recordsStart)
        #expect(other.tables.rowsInMemory.spilledRows == 0)
        #expect(try open(otherPath).0.fetchAllClothes().map(\.id) == many.prefix(300).map(\.id))
        // Fewer rows than make it due: framed for the journal, every row read back first.
        let smallPath = temporaryStore()
        let small = try spillingStore(smallPath, kept: 64)
        try small.save(style: Style(clothes: [:], weather: .fall, name: "first"))
        try small.commit()
        for clothes in many.prefix(200) { try small.save(clothes: clothes) }
        #expect(small.tables.rowsInMemory.spilledRows == 192)
        try small.commit()
        #expect(POSIXFile.size(smallPath + "/journal")! > StoreFormat.recordsStart)
        #expect(try open(smallPath).0.fetchAllClothes().map(\.id) == many.prefix(200).map(\.id))
    }
}
