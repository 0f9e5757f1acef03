import ClosetCore
import ClosetTables

/// Applies format-2 journal records to tables, each run of operations on one table in one
/// call (the table decodes its rows where they lie, without copying). Kept across a journal's
/// records: a journal of one-statement commits names the same table record after record, and
/// making the name a string and looking it up, and a new run's array, each cost as much as
/// decoding the record's row.
struct JournalApplier {
    let tables: Tables
    let inserts: Inserts
    private var lastName: [UInt8] = []
    private var lastTable: StoredTable?
    private var run: [RowLocation] = []

    /// What an insert (operation kind 3, a put of a key that had no row before its commit) is
    /// taken for.
    enum Inserts {
        /// Not in this journal's format: damage.
        case refused
        /// A put: the records before it may not all have been read (recovery), so the key
        /// may have a row below after all.
        case readAsPuts
        /// A new key: placed without looking for it below (`RowLocation.isInsert`).
        case trusted
    }

    init(_ tables: Tables, inserts: Inserts) {
        self.tables = tables
        self.inserts = inserts
    }

    /// Reads `count` operations from `reader` and applies them.
    mutating func apply(_ count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        run.removeAll(keepingCapacity: true)
        var runTable: StoredTable?
        for _ in 0..<count {
            let nameLength = Int(try reader.u8())
            let nameStart = try reader.take(nameLength)
            let name = reader.bytes[nameStart..<(nameStart + nameLength)]
            if runTable == nil || !name.elementsEqual(lastName) {
                if let table = runTable, !run.isEmpty { try table.apply(reader.bytes, operations: run) }
                run.removeAll(keepingCapacity: true)
                runTable = table(named: name)
            }
            let kind = try reader.u8()
            let keyLength = Int(try reader.u16())
            let keyStart = try reader.take(keyLength)
            let key = keyStart..<(keyStart + keyLength)
            switch (kind, inserts) {
            case (1, _), (3, .readAsPuts), (3, .trusted):
                let rowLength = Int(try reader.u32())
                let rowStart = try reader.take(rowLength)
                run.append(
                    RowLocation(
                        key: key, row: rowStart..<(rowStart + rowLength), isInsert: kind == 3 && inserts == .trusted))
            case (2, _):
                run.append(RowLocation(key: key, row: nil))
            default:
                throw ByteReader.Malformed()
            }
        }
        if let table = runTable, !run.isEmpty { try table.apply(reader.bytes, operations: run) }
    }

    /// The table a record names: the last one again when the name is the same.
    private mutating func table(named name: ArraySlice<UInt8>) -> StoredTable {
        if let lastTable, name.elementsEqual(lastName) { return lastTable }
        let table = tables.table(named: String(decoding: name, as: UTF8.self))
        lastName = Array(name)
        lastTable = table
        return table
    }
}
