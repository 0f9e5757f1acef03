import ClosetCore
import ClosetTables
import Foundation
import Testing

/// A scratch file in memory, which can be told to refuse writes (a full disk).
final class MemoryScratchFile: ScratchFile {
    var bytes: [UInt8] = []
    var refusesWrites = false
    /// Refuses every write after this many (a disk that fills up part way).
    var refusesAfter = Int.max
    var writes = 0

    func write(_ written: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard !refusesWrites, writes < refusesAfter else { return false }
        writes += 1
        if bytes.count < offset + written.count {
            bytes += [UInt8](repeating: 0, count: offset + written.count - bytes.count)
        }
        bytes.replaceSubrange(offset..<(offset + written.count), with: written)
        return true
    }

    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool {
        guard offset + buffer.count <= bytes.count else { return false }
        bytes.withUnsafeBytes {
            buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<(offset + buffer.count)]))
        }
        return true
    }
}

/// Numbers in three buckets, ordered by a key many rows share (ties go by ordinal).
enum BucketedTable: NumberRows {
    static let schema = TableSchema<BucketedTable>(
        name: "bucketed",
        index: TableIndex(bucketCount: 3, bucket: { Int($0.number % 3) }, order: { Int64($0.number / 4) - 20 }))
}

/// Rows as long as their number says (that many filler bytes after it): frames longer than a
/// checkpoint's run of bytes, or than a span read at once.
enum PaddedTable: NumberRows {
    static let schema = TableSchema<PaddedTable>(name: "padded")
    static func encode(_ row: NumberTable.Row, into writer: inout ByteWriter) {
        NumberTable.encode(row, into: &writer)
        writer.bytes += repeatElement(7, count: Int(row.number))
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> NumberTable.Row {
        let row = try NumberTable.decodeRow(from: &reader)
        _ = try reader.take(Int(row.number))
        return row
    }
}

/// Rows moved to a scratch file while a transaction adds many to an empty table (`SpilledRows`)
/// behave as rows kept in memory do: each test runs the same statements against a table that
/// moves its rows after three and one that never does, and compares all they show.
@Suite struct SpilledRowsTests {
    typealias Row = NumberTable.Row

    /// A table that moves its rows out past `kept`, its scratch files, and one that keeps them.
    func pair(kept: Int = 3) throws -> (
        spilling: Table<NumberTable>, tables: Tables, files: () -> [MemoryScratchFile],
        reference: Table<NumberTable>, referenceTables: Tables
    ) {
        let tables = Tables()
        var made: [MemoryScratchFile] = []
        tables.scratch.rowsKeptInMemory = kept
        tables.scratch.rowsHeldWhole = 0
        // The index of a section written from them is sorted in many small runs (`ScratchSort`).
        tables.scratch.sortChunkBytes = 64
        tables.scratch.makeFile = {
            let file = MemoryScratchFile()
            made.append(file)
            return file
        }
        let referenceTables = Tables()
        return (
            try tables.table(NumberTable.schema), tables, { made }, try referenceTables.table(NumberTable.schema),
            referenceTables
        )
    }

    func section<Codec: TableCodec>(_ table: Table<Codec>) -> [UInt8] {
        var writer = ByteWriter()
        table.writeSnapshotSection(committed: false, into: &writer)
        return writer.bytes
    }

    @Test func manyNewRowsMoveOutAndAreStillFoundCountedAndWrittenInOrder() throws {
        let (spilling, _, files, reference, _) = try pair()
        for number in 0..<10 {
            for table in [spilling, reference] { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
        }
        // Nine moved out (three at a time), one still decoded: the rows in one file, their keys in another.
        #expect(files().count == 2)
        #expect((files().first?.writes ?? 0) == 3)
        #expect(spilling.rowsInMemory == RowsInMemory(decodedRows: 1, spilledRows: 9))
        #expect(spilling.count == 10)
        #expect(spilling["row 4"] == Row(name: "row 4", number: 4))
        #expect(spilling["row 9"] == Row(name: "row 9", number: 9))
        #expect(spilling.contains("row 0") && !spilling.contains("row 10"))
        // A snapshot section copies the moved rows' frames: the bytes of one that never moved them.
        // The decoded rest move first, and the key filter is let go while it is written; it is
        // made again when a key is asked after (a commit that failed).
        #expect(section(spilling) == section(reference))
        #expect(spilling.rowsInMemory == RowsInMemory(spilledRows: 10))
        #expect(spilling["row 9"] == Row(name: "row 9", number: 9) && !spilling.contains("row 10"))
        #expect(section(spilling) == section(reference))
        #expect(spilling.rows == reference.rows)
        #expect(spilling.rowsInMemory == RowsInMemory(decodedRows: 10))
    }

    @Test func undoingInsertsTakesBackMovedRowsLastFirst() throws {
        let (spilling, tables, _, reference, referenceTables) = try pair()
        let marks = (tables.savepoint(), referenceTables.savepoint())
        for number in 0..<4 {
            for table in [spilling, reference] { table.upsert(Row(name: "kept \(number)", number: 1)) }
        }
        let later = (tables.savepoint(), referenceTables.savepoint())
        for number in 0..<8 {
            for table in [spilling, reference] { table.upsert(Row(name: "undone \(number)", number: 2)) }
        }
        tables.rollback(to: later.0)
        referenceTables.rollback(to: later.1)
        #expect(spilling.count == 4)
        #expect(!spilling.contains("undone 0") && spilling.contains("kept 3"))
        // Added again after the undo: written over the undone rows' bytes.
        for table in [spilling, reference] { table.upsert(Row(name: "again", number: 3)) }
        #expect(section(spilling) == section(reference))
        #expect(tables.pendingOperations() == referenceTables.pendingOperations())
        tables.rollback(to: marks.0)
        referenceTables.rollback(to: marks.1)
        #expect(spilling.count == 0 && spilling.rows.isEmpty)
    }

    @Test func replacingOrRemovingAMovedRowReadsTheRowsBackFirst() throws {
        let (spilling, tables, _, reference, referenceTables) = try pair()
        for number in 0..<7 {
            for table in [spilling, reference] { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
        }
        let marks = (tables.savepoint(), referenceTables.savepoint())
        for table in [spilling, reference] {
            #expect(table.upsert(Row(name: "row 1", number: 100)) == Row(name: "row 1", number: 1))
            #expect(table.remove("row 5") == Row(name: "row 5", number: 5))
            #expect(table.remove("no such row") == nil)
        }
        #expect(spilling.rowsInMemory.spilledRows == 0)
        #expect(spilling.rows == reference.rows)
        tables.rollback(to: marks.0)
        referenceTables.rollback(to: marks.1)
        #expect(spilling.rows == reference.rows)
        #expect(tables.pendingOperations() == referenceTables.pendingOperations())
    }

    @Test func rowsMovedOutStayAfterACommitAndLaterChangesUndoAsBefore() throws {
        let (spilling, tables, _, reference, referenceTables) = try pair()
        for number in 0..<8 {
            for table in [spilling, reference] { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
        }
        tables.forgetPendingChanges()
        referenceTables.forgetPendingChanges()
        #expect(spilling.rowsInMemory.spilledRows == 6)
        let marks = (tables.savepoint(), referenceTables.savepoint())
        for table in [spilling, reference] {
            table.upsert(Row(name: "row 7", number: 70))  // a decoded row replaced
            table.upsert(Row(name: "new", number: 1))
        }
        #expect(spilling.rowsInMemory.spilledRows == 6)
        tables.rollback(to: marks.0)
        referenceTables.rollback(to: marks.1)
        #expect(spilling["row 7"] == Row(name: "row 7", number: 7) && !spilling.contains("new"))
        for table in [spilling, reference] {
            table.upsert(Row(name: "new", number: 2))
            table.upsert(Row(name: "row 7", number: 71))
            table.remove("row 2")  // a moved row: all read back, the slots above shifted
        }
        #expect(tables.pendingOperations() == referenceTables.pendingOperations())
        tables.rollback(to: marks.0)
        referenceTables.rollback(to: marks.1)
        #expect(spilling.rows == reference.rows)
    }

    /// A section of moved rows has its index made outside memory (`ScratchIndex`): its bytes are
    /// those of the index made in memory, buckets, order keys, ties and key filter included.
    @Test(arguments: [64, 1 << 20]) func anIndexMadeOutsideMemoryIsTheIndexMadeInIt(chunkBytes: Int) throws {
        let tables = Tables()
        tables.scratch.rowsKeptInMemory = 50
        tables.scratch.rowsHeldWhole = 0
        tables.scratch.sortChunkBytes = chunkBytes
        tables.scratch.makeFile = { MemoryScratchFile() }
        let referenceTables = Tables()
        let spilling = try tables.table(BucketedTable.schema)
        let reference = try referenceTables.table(BucketedTable.schema)
        var random = SplitMix64(seed: 11)
        for number in 0..<1_000 {
            let row = Row(
                name: "number \(number * 7_919 % 100_003)", number: UInt32(truncatingIfNeeded: random.next() % 200))
            for table in [spilling, reference] { table.upsert(row) }
        }
        #expect(spilling.rowsInMemory.spilledRows > 900)
        var written = ByteWriter()
        var expected = ByteWriter()
        spilling.writeSnapshotSection(committed: false, into: &written)
        spilling.writeDerivedSection(0, generation: 5, into: &written)
        reference.writeSnapshotSection(committed: false, into: &expected)
        reference.writeDerivedSection(0, generation: 5, into: &expected)
        #expect(written.bytes == expected.bytes)
        #expect(spilling.rows == reference.rows)
    }

    /// Hundreds of moved rows, some longer than a checkpoint's run (64 KB) or a span (1 MB):
    /// each is found from the checkpoint before it, undone across runs, and written in order.
    @Test func rowsAreFoundAndUndoneAcrossCheckpointsAndLongFrames() throws {
        let tables = Tables()
        tables.scratch.rowsKeptInMemory = 5
        tables.scratch.rowsHeldWhole = 0
        tables.scratch.makeFile = { MemoryScratchFile() }
        let referenceTables = Tables()
        let spilling = try tables.table(PaddedTable.schema)
        let reference = try referenceTables.table(PaddedTable.schema)
        func row(_ number: Int) -> Row {
            Row(name: "row \(number)", number: [9, 137].contains(number) ? 1_300_000 : number % 8 == 1 ? 70_000 : 3)
        }
        var marks: [(Savepoint, Savepoint)] = []
        for number in 0..<400 {
            if number == 100 || number == 230 { marks.append((tables.savepoint(), referenceTables.savepoint())) }
            for table in [spilling, reference] { table.upsert(row(number)) }
        }
        #expect(spilling.rowsInMemory.spilledRows == 400)
        for number in [0, 1, 63, 64, 65, 129, 130, 199, 255, 256, 398, 399] {
            #expect(spilling["row \(number)"] == row(number))
        }
        #expect(spilling["row 400"] == nil)
        tables.rollback(to: marks[1].0)
        referenceTables.rollback(to: marks[1].1)
        #expect(spilling.count == 230 && spilling["row 229"] == row(229) && spilling["row 230"] == nil)
        for number in 400..<450 {
            for table in [spilling, reference] { table.upsert(row(number)) }
        }
        tables.rollback(to: marks[0].0)
        referenceTables.rollback(to: marks[0].1)
        for number in 500..<520 {
            for table in [spilling, reference] { table.upsert(row(number)) }
        }
        #expect(spilling.count == 120 && spilling["row 99"] == row(99) && spilling["row 519"] == row(519))
        #expect(section(spilling) == section(reference))
        #expect(spilling.rows == reference.rows)
    }

    /// A transaction not expected to outgrow `rowsHeldWhole` keeps its rows decoded until it
    /// does; one that says it brings more (an import) moves them from `rowsKeptInMemory` on.
    @Test func rowsMoveOnlyWhenTheTransactionIsExpectedToBeBig() throws {
        for expectsMany in [false, true] {
            let tables = Tables()
            tables.scratch.rowsKeptInMemory = 3
            tables.scratch.rowsHeldWhole = 10
            tables.scratch.makeFile = { MemoryScratchFile() }
            let table = try tables.table(NumberTable.schema)
            table.upsert(Row(name: "row 0", number: 0))
            if expectsMany { tables.expectMoreRows(20) }
            for number in 1..<9 { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
            #expect(table.rowsInMemory.spilledRows == (expectsMany ? 9 : 0))
            for number in 9..<12 { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
            // At ten: moved, then three at a time.
            #expect(table.rowsInMemory.spilledRows == (expectsMany ? 12 : 10))
            #expect(table.rows.map(\.number) == Array(0..<12))
        }
    }

    @Test func aScratchFileThatRefusesWritesLeavesTheRowsInMemory() throws {
        let tables = Tables()
        let refusing = MemoryScratchFile()
        refusing.refusesWrites = true
        tables.scratch.rowsKeptInMemory = 2
        tables.scratch.rowsHeldWhole = 0
        tables.scratch.makeFile = { refusing }
        let table = try tables.table(NumberTable.schema)
        for number in 0..<9 { table.upsert(Row(name: "row \(number)", number: UInt32(number))) }
        #expect(table.rowsInMemory == RowsInMemory(decodedRows: 9))
        #expect(table.rows.map(\.number) == Array(0..<9))
    }

    /// Random inserts, replacements, removals, savepoints, rollbacks and commits: every lookup
    /// answers as the reference's does, and at the end the rows, the pending operations and the
    /// snapshot section are the same.
    @Test(arguments: 0..<6) func randomStatementsShowTheSameAsRowsKeptInMemory(seed: UInt64) throws {
        let (spilling, tables, files, reference, referenceTables) = try pair(kept: 2 + Int(seed % 3))
        var random = SplitMix64(seed: seed)
        var marks: [(Savepoint, Savepoint)] = []
        var names = Set<String>()
        for step in 0..<400 {
            // A first transaction of inserts, so rows move out before anything else happens.
            let choice = step < 12 ? 0 : random.next() % 100
            let name = names.isEmpty || choice < 60 ? "row \(step)" : names.randomElement(using: &random) ?? ""
            switch choice {
            case 0..<70:
                #expect(
                    spilling.upsert(Row(name: name, number: UInt32(step)))
                        == reference.upsert(Row(name: name, number: UInt32(step))))
                names.insert(name)
            case 70..<80:
                #expect(spilling.remove(name) == reference.remove(name))
            case 80..<88:
                marks.append((tables.savepoint(), referenceTables.savepoint()))
            case 88..<95:
                guard let (mark, referenceMark) = marks.popLast() else { continue }
                tables.rollback(to: mark)
                referenceTables.rollback(to: referenceMark)
            default:
                #expect(tables.pendingOperations() == referenceTables.pendingOperations())
                tables.forgetPendingChanges()
                referenceTables.forgetPendingChanges()
                marks.removeAll()
            }
            #expect(spilling.count == reference.count)
            #expect(spilling[name] == reference[name])
        }
        #expect(!files().isEmpty)
        #expect(section(spilling) == section(reference))
        #expect(tables.pendingOperations() == referenceTables.pendingOperations())
        #expect(spilling.rows == reference.rows)
    }
}

extension SplitMix64: RandomNumberGenerator {}
