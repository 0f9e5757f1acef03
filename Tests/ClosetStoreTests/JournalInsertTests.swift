import ClosetCore
import ClosetTables
import Foundation
import Testing

@testable import ClosetStore
@testable import WardrobePack

/// A put of a key that had no row before its commit is journaled as an insert
/// (`RowFrame.insert`), which opening places without looking for its key in the snapshot or the
/// delta; every other change is journaled as before, and a format-4 journal gets no inserts.
@Suite struct JournalInsertTests {
    let many = (0..<5_000).map {
        Clothes(category: .top, weatherType: $0 % 2 == 0 ? .fall : .winter, descriptions: "row \($0)")
    }

    /// A compacted store of `many` (past `CompactionPolicy.deltaFloor`, so a compaction of a few
    /// changes writes a delta), opened again with its rows read in place.
    func store(_ path: String) throws -> DurableWardrobe { try storeReadInPlace(at: path, holding: many) }

    /// The kind of each operation of each record of the store's journal, and its magic.
    func journal(_ path: String) throws -> (magic: String, kinds: [[UInt8]]) {
        let bytes = try #require(try POSIXFile.readAll(path + "/journal"))
        let header = try #require(StoreFormat.readJournalHeader(bytes))
        var kinds: [[UInt8]] = []
        let records = try StoreFormat.readRecords(bytes, from: header.recordsStart, sequence: 1) {
            count, reader throws(ByteReader.Malformed) in
            var record: [UInt8] = []
            for _ in 0..<count {
                _ = try reader.raw(Int(try reader.u8()))
                let kind = try reader.u8()
                _ = try reader.raw(Int(try reader.u16()))
                if kind != 2 { _ = try reader.raw(Int(try reader.u32())) }
                record.append(kind)
            }
            kinds.append(record)
        }
        #expect(records.end == .clean)
        return (String(decoding: bytes.prefix(8), as: UTF8.self), kinds)
    }

    /// Opened anew, the clothes are `expected`, in that order, and counted so before they are
    /// read (the count settles the journal's changes over the rows read in place); and the
    /// same again with the journal's inserts written as puts (format 4), which opening looks
    /// up as it did before inserts.
    func expectRows(_ path: String, _ expected: [Clothes], _ context: String) throws {
        for asPuts in [false, true] {
            let copy = temporaryStore()
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            if asPuts { try rewriteInsertsAsPuts(copy) }
            let (reopened, notices) = try open(copy)
            #expect(notices.isEmpty, "\(context): \(notices)")
            let table = try reopened.base.tables.table(ClothesTable.schema)
            #expect(table.count == expected.count, "\(context), as puts: \(asPuts)")
            #expect(table.contains(expected[expected.count - 1].id), "\(context), as puts: \(asPuts)")
            let found = table.rows.map { "\($0.id) \($0.descriptions)" }
            let wanted = expected.map { "\($0.id) \($0.descriptions)" }
            let differs = zip(found, wanted).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(
                found.count == wanted.count && differs == nil,
                "\(context), as puts: \(asPuts): \(found.count) rows, first difference at \(differs ?? -1)")
        }
    }

    @Test func aNewKeysPutIsJournaledAsAnInsertAndEveryOtherChangeAsBefore() throws {
        let path = temporaryStore()
        let store = try store(path)
        // Another process's view, its rows counted (the journal's changes placed) before
        // the commits below, and caught up with them after.
        let (watcher, _) = try open(path)
        #expect(try watcher.base.tables.table(ClothesTable.schema).count == many.count)
        var expected = many
        let new = Clothes(category: .shoes, weatherType: .summer, descriptions: "new")
        try store.save(clothes: new)
        try store.commit()
        expected.append(new)
        var replaced = many[10]
        replaced.descriptions = "replaced"
        try store.save(clothes: replaced)
        try store.commit()
        expected[10] = replaced
        // Removed, then back in a later commit: that commit's put finds no row before it.
        try store.remove(clothes: many[20])
        try store.commit()
        try store.save(clothes: many[20])
        try store.commit()
        expected.removeAll { $0.id == many[20].id }
        expected.append(many[20])
        // Added and removed in one commit: nothing before, nothing after.
        let passing = Clothes(category: .top, weatherType: .fall, descriptions: "passing")
        try store.save(clothes: passing)
        try store.remove(clothes: passing)
        try store.commit()
        // Removed and added again in one commit: the key had a row before it.
        var again = new
        again.descriptions = "new again"
        try store.remove(clothes: new)
        try store.save(clothes: again)
        try store.commit()
        // Opened again, it stands where it was: the journal holds the commit's net change.
        expected[expected.firstIndex { $0.id == new.id } ?? 0] = again
        let (magic, kinds) = try journal(path)
        #expect(magic == "CLOSETJ6")
        #expect(kinds == [[3], [1], [2], [3], [2], [1]])
        try expectRows(path, expected, "reopened")
        try watcher.base.refresh()
        let watched = try watcher.base.tables.table(ClothesTable.schema)
        #expect(watched.count == expected.count)
        #expect(watched.rows.map(\.id) == expected.map(\.id))
    }

    @Test func aKeyTheDeltaHidesComesBackAsAnInsertAtTheEnd() throws {
        let path = temporaryStore()
        var store = try store(path)
        var expected = many
        // Removed, and the removal compacted into the delta, which hides the snapshot's row.
        try store.remove(clothes: many[7])
        try store.commit()
        try store.base.compact(level: true)
        #expect(FileManager.default.fileExists(atPath: path + "/" + DeltaFile.name))
        expected.removeAll { $0.id == many[7].id }
        store = try open(path).0
        try store.save(clothes: many[7])
        let added = Clothes(category: .outer, weatherType: .winter, descriptions: "after")
        try store.save(clothes: added)
        try store.commit()
        expected += [many[7], added]
        let (magic, kinds) = try journal(path)
        #expect(magic == "CLOSETJ7")
        #expect(kinds == [[3, 3]])
        try expectRows(path, expected, "over the delta")
        // And once the journal is compacted into the delta too.
        try open(path).0.base.compact(level: true)
        try expectRows(path, expected, "compacted")
    }

    @Test func aFormatFourJournalTakesPutsUntilTheNextCompactionStartsAFormatFiveOne() throws {
        let path = temporaryStore()
        do {
            // The journal an earlier build starts after this snapshot: format 4, no records.
            let store = try store(path)
            let bytes = try #require(try POSIXFile.readAll(path + "/journal"))
            let header = try #require(StoreFormat.readJournalHeader(bytes))
            #expect(header.format == 5)
            var older = header
            older.format = 4
            try Data(StoreFormat.journalHeader(older)).write(to: URL(fileURLWithPath: path + "/journal"))
            _ = store
        }
        var expected = many
        let (store, notices) = try open(path)
        #expect(notices.isEmpty)
        let new = Clothes(category: .shoes, weatherType: .summer, descriptions: "new")
        try store.save(clothes: new)
        try store.commit()
        expected.append(new)
        var (magic, kinds) = try journal(path)
        #expect(magic == "CLOSETJ4")
        #expect(kinds == [[1]])
        // What an earlier build reads: every record, with no kind it does not know.
        let bytes = try #require(try POSIXFile.readAll(path + "/journal"))
        let tables = Tables(Wardrobe.pack.tables)
        var applier = JournalApplier(tables, inserts: .refused)
        let read = try StoreFormat.readRecords(bytes, from: StoreFormat.recordsStart, sequence: 1) {
            count, reader throws(ByteReader.Malformed) in try applier.apply(count, from: &reader)
        }
        #expect(read.transactions == 1 && read.end == .clean)
        try expectRows(path, expected, "format 4")
        try store.base.compact(level: true)
        let later = Clothes(category: .top, weatherType: .spring, descriptions: "later")
        try store.save(clothes: later)
        try store.commit()
        expected.append(later)
        (magic, kinds) = try journal(path)
        #expect(magic == "CLOSETJ7")
        #expect(kinds == [[3]])
        try expectRows(path, expected, "format 5")
    }

    @Test func anInsertIsReadInAFormatFiveJournalAndIsDamageInAFormatFourOne() throws {
        let path = temporaryStore()
        let bytes: [UInt8]
        do {
            _ = try store(path)
            bytes = try #require(try POSIXFile.readAll(path + "/journal"))
        }
        let header = try #require(StoreFormat.readJournalHeader(bytes))
        let new = Clothes(category: .shoes, weatherType: .summer, descriptions: "new")
        var payload = JournalFormat.payload([put(new)]).bytes
        // The kind, after the operation count and the table's name.
        let kindAt = 4 + 1 + "clothes".utf8.count
        #expect(payload[kindAt] == 1)
        payload[kindAt] = RowFrame.insert
        let record = StoreFormat.seal(payload, sequence: 1)
        for format in [4, 5] {
            var written = header
            written.format = format
            let journal = try withCommitPoint(
                StoreFormat.journalHeader(written) + record, transactions: 1,
                end: StoreFormat.recordsStart + record.count)
            try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
            if format == 5 {
                try expectRows(path, many + [new], "an insert read")
            } else {
                #expect {
                    try open(path)
                } throws: { error in
                    "\(error)".contains("of its journal starts a committed transaction this build cannot read")
                }
            }
        }
    }
}

/// The store's journal as an earlier build writes it: format 4, every insert a put.
func rewriteInsertsAsPuts(_ path: String) throws {
    let bytes = try #require(try POSIXFile.readAll(path + "/journal"))
    var header = try #require(StoreFormat.readJournalHeader(bytes))
    header.format = 4
    var records: [UInt8] = []
    var count = 0
    _ = try StoreFormat.readRecords(bytes, from: header.recordsStart, sequence: 1) {
        operations, reader throws(ByteReader.Malformed) in
        // The payload: the operation count just read, then the operations.
        let start = reader.position - 4
        var payload = Array(reader.bytes[start..<reader.end])
        for _ in 0..<operations {
            _ = try reader.raw(Int(try reader.u8()))
            let kindAt = reader.position - start
            let kind = try reader.u8()
            if kind == RowFrame.insert { payload[kindAt] = 1 }
            _ = try reader.raw(Int(try reader.u16()))
            if kind != 2 { _ = try reader.raw(Int(try reader.u32())) }
        }
        count += 1
        records += StoreFormat.seal(payload, sequence: UInt32(count))
    }
    let journal = try withCommitPoint(
        StoreFormat.journalHeader(header) + records, transactions: count, end: StoreFormat.recordsStart + records.count)
    try Data(journal).write(to: URL(fileURLWithPath: path + "/journal"))
}
