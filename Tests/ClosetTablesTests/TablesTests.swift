import ClosetCore
import ClosetTables
import Foundation
import TestSupport
import Testing

/// A tiny codec for the engine's own tests: a row is a name with a number, keyed by name.
enum NumberTable: TableCodec {
    struct Row: Hashable, Sendable {
        var name: String
        var number: UInt32
    }

    static let schema = TableSchema<NumberTable>(name: "numbers")

    static func key(of row: Row) -> String { row.name }
    static func encode(_ row: Row, into writer: inout ByteWriter) {
        writer.string(row.name)
        writer.u32(row.number)
    }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row {
        Row(name: try reader.string(), number: try reader.u32())
    }
    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }
    /// A blob name in the one shape stores accept: an id (from the row's name) and a checksum.
    static func blobs(of row: Row) -> [String] { [blobName(row.name, row.number)] }
    static func blobName(_ name: String, _ number: UInt32) -> String {
        let id = name == "a" ? "00000000-0000-4000-8000-00000000000A" : "00000000-0000-4000-8000-00000000000B"
        return id + "-" + String(format: "%08X", number) + ".bin"
    }
}

/// `NumberTable`'s rows, coded as it codes them, for test tables that differ only in their schema.
protocol NumberRows: TableCodec where Row == NumberTable.Row, Key == String {}

extension NumberRows {
    static func key(of row: NumberTable.Row) -> String { row.name }
    static func encode(_ row: NumberTable.Row, into writer: inout ByteWriter) { NumberTable.encode(row, into: &writer) }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> NumberTable.Row {
        try NumberTable.decodeRow(from: &reader)
    }
    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }
}

/// The same rows under another table name, so two tables can be told apart.
enum OtherTable: NumberRows {
    static let schema = TableSchema<OtherTable>(name: "others")
}

@Suite struct TablesTests {
    typealias Row = NumberTable.Row

    func names(_ operations: [EncodedOperation]) -> [String] {
        operations.map { operation in
            var reader = ByteReader(operation.key)
            return operation.table + ":" + ((try? reader.string()) ?? "?") + (operation.row == nil ? "-" : "+")
        }
    }

    @Test func aRollbackUndoesEveryTableInOrderAndKeepsRowOrder() throws {
        let tables = Tables()
        let numbers = try tables.table(NumberTable.schema)
        let others = try tables.table(OtherTable.schema)
        numbers.upsert(Row(name: "a", number: 1))
        numbers.upsert(Row(name: "b", number: 2))
        tables.forgetPendingChanges()
        let mark = tables.savepoint()
        numbers.remove("a")
        others.upsert(Row(name: "x", number: 9))
        numbers.upsert(Row(name: "b", number: 20))
        numbers.upsert(Row(name: "a", number: 10))
        #expect(numbers.rows.map(\.name) == ["b", "a"])
        tables.rollback(to: mark)
        #expect(numbers.rows == [Row(name: "a", number: 1), Row(name: "b", number: 2)])
        #expect(others.count == 0)
        #expect(tables.pendingOperations().isEmpty)
    }

    @Test func pendingOperationsAreTheNetChangeInFirstTouchedOrderAcrossTables() throws {
        let tables = Tables()
        let numbers = try tables.table(NumberTable.schema)
        let others = try tables.table(OtherTable.schema)
        numbers.upsert(Row(name: "gone", number: 1))
        tables.forgetPendingChanges()
        others.upsert(Row(name: "x", number: 1))
        numbers.upsert(Row(name: "new", number: 1))
        numbers.remove("gone")
        others.upsert(Row(name: "x", number: 2))  // the same key again: one operation
        numbers.upsert(Row(name: "brief", number: 1))
        numbers.remove("brief")  // added and removed: a delete that changes nothing on replay
        #expect(names(tables.pendingOperations()) == ["others:x+", "numbers:new+", "numbers:gone-", "numbers:brief-"])
    }

    @Test func theCommittedSnapshotLeavesOutWhatIsNotCommitted() throws {
        let tables = Tables()
        let numbers = try tables.table(NumberTable.schema)
        for (name, number) in [("a", 1), ("b", 2), ("c", 3)] { numbers.upsert(Row(name: name, number: UInt32(number))) }
        tables.forgetPendingChanges()
        numbers.remove("a")
        numbers.upsert(Row(name: "b", number: 20))
        numbers.upsert(Row(name: "d", number: 4))
        #expect(names(numbers.snapshot(committed: true)) == ["numbers:a+", "numbers:b+", "numbers:c+"])
        let committedB = numbers.snapshot(committed: true)[1]
        var reader = ByteReader(committedB.row ?? [])
        #expect(try NumberTable.decodeRow(from: &reader).number == 2)
        #expect(names(numbers.snapshot(committed: false)) == ["numbers:b+", "numbers:c+", "numbers:d+"])
    }

    @Test func aTableMetRawIsDecodedWhenItsSchemaAsks() throws {
        let source = Tables()
        try source.table(NumberTable.schema).upsert(Row(name: "kept", number: 7))
        let target = Tables()  // knows no schema yet: the rows arrive as bytes
        for operation in source.pendingOperations() { try target.apply(operation) }
        #expect(target.all.map(\.name) == ["numbers"])
        #expect(try target.table(NumberTable.schema).rows == [Row(name: "kept", number: 7)])
    }

    @Test func releasedBlobsAreTheOnesNoLongerReferenced() throws {
        let store = MemoryStore([AnyTableSchema(NumberTable.schema)])
        let numbers = try store.tables.table(NumberTable.schema)
        try store.blobs.write([1], named: NumberTable.blobName("a", 1))
        numbers.upsert(Row(name: "a", number: 1))
        try store.commit()
        try store.blobs.write([2], named: NumberTable.blobName("a", 2))
        numbers.upsert(Row(name: "a", number: 2))
        #expect(store.tables.releasedBlobs() == [NumberTable.blobName("a", 1)])
        try store.commit()
        #expect(store.blobs.names.sorted() == [NumberTable.blobName("a", 2)])
    }

    /// A table that starts a transaction empty keeps its inserts as log positions alone
    /// (`insertsIntoEmpty`) until another change comes: on random runs of inserts, replaces,
    /// removes, savepoints, rollbacks and commits over two tables, the rows, their order, the
    /// pending operations and the committed snapshot are what a plain model of the table says.
    @Test func insertsIntoAnEmptyTableRollBackAndCommitAsAnyChange() throws {
        var random = SeededRandom(seed: 2_611)
        for _ in 0..<300 {
            let tables = Tables()
            let numbers = try tables.table(NumberTable.schema)
            let others = try tables.table(OtherTable.schema)
            // The model: rows in order, and the committed rows.
            var model: [Row] = []
            var committed: [Row] = []
            var touched: [String] = []
            var marks: [(Savepoint, [Row], [String])] = []
            for _ in 0..<Int.random(in: 1..<60, using: &random) {
                let name = "k\(Int.random(in: 0..<12, using: &random))"
                switch Int.random(in: 0..<20, using: &random) {
                case 0..<11:
                    let row = Row(name: name, number: UInt32.random(in: 0..<100, using: &random))
                    numbers.upsert(row)
                    if let at = model.firstIndex(where: { $0.name == name }) {
                        model[at] = row
                    } else {
                        model.append(row)
                    }
                    if !touched.contains(name) { touched.append(name) }
                case 11..<13:
                    // Removing a key that is not there changes nothing.
                    numbers.remove(name)
                    if model.contains(where: { $0.name == name }), !touched.contains(name) { touched.append(name) }
                    model.removeAll { $0.name == name }
                case 13:
                    others.upsert(Row(name: name, number: 1))
                case 14..<16:
                    marks.append((tables.savepoint(), model, touched))
                case 16..<18:
                    guard let (mark, rows, names) = marks.popLast() else { continue }
                    tables.rollback(to: mark)
                    (model, touched) = (rows, names)
                case 18:
                    #expect(names(numbers.snapshot(committed: true)) == committed.map { "numbers:\($0.name)+" })
                default:
                    tables.forgetPendingChanges()
                    committed = model
                    touched = []
                    marks = []
                }
                #expect(numbers.rows == model)
            }
            let pending = names(tables.pendingOperations()).filter { $0.hasPrefix("numbers:") }
            let expected = touched.map { name in "numbers:\(name)" + (model.contains { $0.name == name } ? "+" : "-") }
            #expect(pending == expected)
            #expect(names(numbers.snapshot(committed: true)) == committed.map { "numbers:\($0.name)+" })
        }
    }

    @Test func blobNamesHaveOneShapeThatCannotLeaveTheirFolder() {
        let good = "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0000ABCD.png"
        #expect(MemoryBlobs.isValidName(good))
        for bad in [
            "../x", "a/b", ".hidden", "", "a b", "notes.txt", good + ".tmp", "../" + good, good.lowercased(),
            "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0000ABC.png", "E220A839-7B1D-4DAF-AE78-9E6AA1B965F4-0000ABCD.",
        ] {
            #expect(!MemoryBlobs.isValidName(bad), "\(bad)")
        }
    }
}
