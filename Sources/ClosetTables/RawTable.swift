import ClosetCore

/// A table no installed pack knows (written by a newer build, or by a pack not installed
/// here): its rows are carried as bytes, in order, and written back whole at every
/// compaction, so opening a store never loses data it cannot read.
final class RawTable: StoredTable {
    let name: String
    private var keys: [[UInt8]?] = []
    private var bodies: [[UInt8]] = []
    private var index: [[UInt8]: Int] = [:]
    private var liveCount = 0

    init(name: String) { self.name = name }

    var count: Int { liveCount }

    /// Its rows as replayable operations, for a pack that asks for the table later.
    var operations: [EncodedOperation] {
        keys.indices.compactMap { slot in keys[slot].map { EncodedOperation(table: name, key: $0, row: bodies[slot]) } }
    }

    // Nothing writes to a raw table, so it never has changes of its own.
    func undoLast() {}
    func releasedBlobs() -> [String] { [] }
    func forgetChanges() {}
    func framePendingOperations() -> FramedOperations { FramedOperations() }

    func writeSnapshot(committed: Bool, into writer: inout ByteWriter) -> Int {
        for operation in operations {
            writer.u16(UInt16(clamping: operation.key.count))
            writer.bytes += operation.key
            let row = operation.row ?? []
            writer.u32(UInt32(clamping: row.count))
            writer.bytes += row
        }
        return count
    }
    var referencedBlobs: Set<String> { [] }

    func removeAllRows() {
        keys.removeAll()
        bodies.removeAll()
        index.removeAll()
        liveCount = 0
    }

    func apply(_ operation: EncodedOperation) {
        if let row = operation.row {
            if let slot = index[operation.key] {
                bodies[slot] = row
            } else {
                index[operation.key] = keys.count
                keys.append(operation.key)
                bodies.append(row)
                liveCount += 1
            }
        } else if let slot = index.removeValue(forKey: operation.key) {
            keys[slot] = nil
            bodies[slot] = []
            liveCount -= 1
        }
    }

    func loadSnapshotRows(count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        for _ in 0..<count {
            let key = try reader.raw(Int(try reader.u16()))
            let row = try reader.raw(Int(try reader.u32()))
            apply(EncodedOperation(table: name, key: key, row: row))
        }
    }

    func apply(_ bytes: [UInt8], operations: [RowLocation]) {
        for location in operations {
            apply(
                EncodedOperation(
                    table: name, key: Array(bytes[location.key]), row: location.row.map { Array(bytes[$0]) }))
        }
    }

    func applyFormatOne(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        throw ByteReader.Malformed()  // format 1 had only known tables
    }
}
