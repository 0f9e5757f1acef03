import ClosetCore

/// Rows of an older layout of a table (`TableCodec.version`), met in a store an older build
/// wrote: each is read with that layout's decoder and goes straight into the table of the
/// current layout, in file order, so a change made later (in the new layout) still wins. It
/// holds nothing itself and is never written: the next snapshot writes those rows under the
/// table's current name.
final class OlderRows<Codec: TableCodec>: StoredTable {
    let name: String
    let version: Int
    unowned let table: Table<Codec>

    init(name: String, version: Int, table: Table<Codec>) {
        self.name = name
        self.version = version
        self.table = table
    }

    private func decodeWhole(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> Codec.Row {
        let row = try Codec.decodeRow(version: version, from: &reader)
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return row
    }

    private func put(_ row: Codec.Row) { table.passes.applyUnlogged(table, Codec.key(of: row), row) }

    private func delete(keyFrom reader: inout ByteReader) throws(ByteReader.Malformed) {
        let key = try Codec.decodeKey(from: &reader)
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        table.passes.applyUnlogged(table, key, nil)
    }

    func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
        if let bytes = operation.row {
            var reader = ByteReader(bytes)
            put(try decodeWhole(&reader))
        } else {
            var reader = ByteReader(operation.key)
            try delete(keyFrom: &reader)
        }
    }

    func loadSnapshotRows(count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        try RowFrame.forEachSnapshotRow(count, in: &reader) { reader throws(ByteReader.Malformed) in
            put(try Codec.decodeRow(version: version, from: &reader))
        }
    }

    func apply(_ bytes: [UInt8], operations: [RowLocation]) throws(ByteReader.Malformed) {
        var reader = ByteReader(bytes)
        for location in operations {
            if let row = location.row {
                reader.reposition(to: row)
                put(try decodeWhole(&reader))
            } else {
                reader.reposition(to: location.key)
                try delete(keyFrom: &reader)
            }
        }
    }

    func applyFormatOne(put isPut: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        if isPut {
            put(try Codec.decodeRow(version: version, from: &reader))
        } else {
            table.passes.applyUnlogged(table, try Codec.decodeKey(from: &reader), nil)
        }
    }

    // Nothing is kept here, so nothing is pending, undone or written.
    var count: Int { 0 }
    func undoLast() {}
    func releasedBlobs() -> [String] { [] }
    func forgetChanges() {}
    func writeSnapshot(committed: Bool, into writer: inout ByteWriter) -> Int { 0 }
    func framePendingOperations() -> FramedOperations { FramedOperations() }
    var referencedBlobs: Set<String> { [] }
    func removeAllRows() {}
}

extension TableSchema {
    /// A reader for each older layout's rows, feeding `table` (see `OlderRows`).
    @usableFromInline static func olderRowReaders(
        _ older: [(name: String, version: Int)], feeding table: StoredTable
    ) -> [StoredTable] {
        // Most tables have one layout: no cast (it instantiates the table's type) at start-up.
        guard Codec.version > 1, let table = table as? Table<Codec> else { return [] }
        return older.map { OlderRows<Codec>(name: $0.name, version: $0.version, table: table) }
    }
}
