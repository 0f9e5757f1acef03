import ClosetCore
import ClosetTables
import Foundation
import Testing

/// A scratch file in memory, which can be told to refuse writes (a full disk).
final class MemoryScratchFile: ScratchFile {
    var bytes: [UInt8] = []
    var refusesWrites = false
    var writes = 0

    func write(_ written: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        guard !refusesWrites else { return false }
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

    func section(_ table: Table<NumberTable>) -> [UInt8] {
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
        #expect(section(spilling) == section(reference))
        #expect(spilling.rowsInMemory.spilledRows == 9)
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

    @Test func aScratchFileThatRefusesWritesLeavesTheRowsInMemory() throws {
        let tables = Tables()
        let refusing = MemoryScratchFile()
        refusing.refusesWrites = true
        tables.scratch.rowsKeptInMemory = 2
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
