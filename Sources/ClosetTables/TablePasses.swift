import ClosetCore

/// A typed table's whole-table passes: framing a commit's changes, writing a snapshot section,
/// loading and replaying rows, decoding rows still in a snapshot, checking them.
///
/// The transaction set reaches them through `StoredTable`, which sees only unspecialized
/// generic code. `Table.init` is inlinable, so a table made where its codec is known (a pack's
/// schema) captures specialized versions of them here.
@usableFromInline struct TablePasses<Codec: TableCodec> {
    @usableFromInline typealias Key = Codec.Key
    @usableFromInline typealias Row = Codec.Row

    @usableFromInline let framePending: (Table<Codec>) -> FramedOperations
    @usableFromInline let writeRows: (Table<Codec>, Bool, inout ByteWriter) -> Int
    @usableFromInline let writeSection: (Table<Codec>, Bool, inout ByteWriter) -> Void
    @usableFromInline let loadRows: (Table<Codec>, Int, inout ByteReader) throws(ByteReader.Malformed) -> Void
    @usableFromInline let applyRows: (Table<Codec>, [UInt8], [RowLocation]) throws(ByteReader.Malformed) -> Void
    @usableFromInline let materialize: (Table<Codec>) -> Void
    @usableFromInline let check: (Table<Codec>) -> String?
    /// One replayed change, into the decoded rows (a replay through this door decodes them).
    @usableFromInline let applyUnlogged: (Table<Codec>, Key, Row?) -> Void

    @inlinable init() {
        framePending = { Self.framePending($0) }
        writeRows = { table, committed, writer in Self.writeRows(table, committed: committed, into: &writer) }
        writeSection = { table, committed, writer in Self.writeSection(table, committed: committed, into: &writer) }
        loadRows = { table, count, reader throws(ByteReader.Malformed) in try Self.loadRows(table, count, &reader) }
        applyRows = { table, bytes, operations throws(ByteReader.Malformed) in
            try Self.applyRows(table, bytes, operations: operations)
        }
        materialize = { Self.materialize($0) }
        check = { Self.check($0) }
        applyUnlogged = { table, key, row in
            Self.materialize(table)
            table.changeCount &+= 1
            if let row { table.decoded.place(row, key: key) } else { table.decoded.remove(key) }
        }
    }

    /// Each changed key's row now (or its removal), in the order of its first change.
    @inlinable static func framePending(_ table: Table<Codec>) -> FramedOperations {
        unspill(table)
        table.pending.logInsertsAsChanges(table.decoded)
        let changes = table.pending.changes
        var framed = FramedOperations()
        var seen = Set<Key>()
        seen.reserveCapacity(changes.count)
        framed.operations.reserveCapacity(changes.count)
        for change in changes where seen.insert(change.key).inserted {
            let start = framed.bytes.bytes.count
            let row = table[change.key]
            // A key's first change says what it held before the commit.
            let isNew = table.pending.previous(of: change) == nil
            framed.bytes.u8(row == nil ? RowFrame.delete : isNew ? RowFrame.insert : RowFrame.put)
            RowFrame.part16(&framed.bytes) { Codec.encode(key: change.key, into: &$0) }
            if let row { RowFrame.part32(&framed.bytes) { Codec.encode(row, into: &$0) } }
            framed.operations.append((change.position, start..<framed.bytes.bytes.count))
        }
        return framed
    }

    @inlinable static func writeSection(_ table: Table<Codec>, committed: Bool, into writer: inout ByteWriter) {
        if writeSectionCopying(table, committed: committed, into: &writer) { return }
        if !committed, table.groups.groupings.isEmpty, let spilled = table.spilled {
            // Written from the scratch file: the decoded rest go there too, and the key filter
            // is let go, so the rows take no memory while the index is made.
            table.spillRemainingRows()
            spilled.keys.releaseFilter()
        }
        reserveSection(table, in: &writer)
        // The index's two functions taken out once: unwrapping the index for each row copied
        // (and retained) all of it.
        let bucket = table.index?.bucket
        let order = table.index?.order
        let groupings = table.groups.groupings
        var groups = groupings.map { _ in [[UInt8]: [UInt32]]() }
        // The first row's key length stands for every key's (most tables' keys are one size).
        let keyBytes = table.decoded.slots.lazy.compactMap { $0 }.first.map { LazyRows<Codec>.keyBytes($0.key).count }
        let rowCount = table.count
        // Rows moved to a scratch file came with what the index keeps of them: their frames are
        // copied as they are (groupings still read every row), and the index is made outside
        // memory too (`ScratchIndex`).
        let spilled = committed || !groupings.isEmpty ? nil : table.spilled
        table.groups.writtenFilter = SnapshotSection.write(
            into: &writer, scratch: spilled.map { _ in table.scratch }, indexed: bucket != nil
        ) { writer, columns in
            if let bucketCount = table.index?.bucketCount { columns.bucketCount = bucketCount }
            if spilled == nil { columns.reserve(rows: rowCount, keyBytes: keyBytes ?? 16, indexed: bucket != nil) }
            if let spilled { columns.blobNames.formUnion(spilled.blobNames) }
            var ordinal: UInt32 = 0
            return writeRows(
                table, committed: committed, into: &writer, decodingMovedRows: spilled == nil,
                frameWritten: { number, start, writer in
                    if let spilled, bucket != nil {
                        let entry = spilled.indexEntry(number)
                        columns.rowWritten(from: start, in: &writer, bucket: entry.bucket, order: entry.order)
                    } else {
                        columns.rowWritten(from: start, in: &writer)
                    }
                }
            ) { row, start, writer in
                // The row goes to the file now, its offset and key kept for the index.
                if let bucket, let order {
                    columns.rowWritten(
                        from: start, in: &writer, bucket: UInt8(truncatingIfNeeded: bucket(row)), order: order(row))
                } else {
                    columns.rowWritten(from: start, in: &writer)
                }
                for blob in Codec.blobs(of: row) { columns.blobNames.insert(blob) }
                for number in groupings.indices {
                    groups[number][groupings[number].key(row), default: []].append(ordinal)
                }
                ordinal &+= 1
            }
        }
        table.groups.written = groups
    }

    /// Room for the section, from its first rows' size: a section grown as it was written
    /// was copied at each doubling, and again for its index (a new store's first snapshot
    /// touched twice its size).
    @inlinable static func reserveSection(_ table: Table<Codec>, in writer: inout ByteWriter) {
        // Rows moved to a scratch file stay there: they are copied from it (`writeRows`).
        if table.spilled == nil { Self.materialize(table) }
        var sample = ByteWriter()
        var sampled = 0
        for case let entry? in table.decoded.slots.prefix(64) {
            RowFrame.part16(&sample) { Codec.encode(key: entry.key, into: &$0) }
            RowFrame.part32(&sample) { Codec.encode(entry.row, into: &$0) }
            sampled += 1
        }
        var rowBytes = sampled > 0 ? sample.bytes.count / sampled : 0
        if let spilled = table.spilled, spilled.count > 0 { rowBytes = spilled.length / spilled.count }
        guard rowBytes > 0 else { return }
        // Rows a little longer than the sample's, and the index's ~49 bytes a row; no more
        // than a piece or two when the rows go to a file as they are written.
        let whole = table.count * (rowBytes + rowBytes / 8 + 49) + 4096
        writer.reserve(writer.sink.map { min(whole, 2 * $0.pieceSize) } ?? whole)
    }

    /// Every row as a put, in table order; `committed` leaves out what is not committed yet.
    @inlinable static func writeRows(
        _ table: Table<Codec>, committed: Bool, into writer: inout ByteWriter,
        decodingMovedRows: Bool = true,
        frameWritten: (_ ordinal: Int, _ start: Int, _ writer: inout ByteWriter) -> Void = { _, _, _ in },
        visit: (_ row: Row, _ start: Int, _ writer: inout ByteWriter) -> Void = { _, _, _ in }
    ) -> Int {
        var count = 0
        func write(_ key: Key, _ row: Row, _ writer: inout ByteWriter) {
            let start = writer.position
            RowFrame.part16(&writer) { Codec.encode(key: key, into: &$0) }
            RowFrame.part32(&writer) { Codec.encode(row, into: &$0) }
            visit(row, start, &writer)
            count += 1
        }
        // Every row, what is not committed included: rows moved to a scratch file are copied
        // from it as they are framed there, then the decoded ones. A moved row is decoded for
        // `visit`, or only handed to `frameWritten` (the caller has what it needs of it).
        if !committed, let spilled = table.spilled {
            spilled.forEachFrame { ordinal, bytes, frame in
                let start = writer.position
                writer.bytes.append(contentsOf: bytes[frame])
                if decodingMovedRows {
                    visit(spilled.decode(bytes, frame), start, &writer)
                } else {
                    frameWritten(ordinal, start, &writer)
                }
                count += 1
            }
            for case let entry? in table.decoded.slots { write(entry.key, entry.row, &writer) }
            return count
        }
        Self.materialize(table)
        if committed { table.pending.logInsertsAsChanges(table.decoded) }
        guard committed, !table.pending.changes.isEmpty else {
            for case let entry? in table.decoded.slots { write(entry.key, entry.row, &writer) }
            return count
        }
        let original = table.pending.originalRows()
        for (slot, entry) in table.decoded.slots.enumerated() {
            if let before = original[slot] {
                if let row = before { write(Codec.key(of: row), row, &writer) }
            } else if let entry {
                write(entry.key, entry.row, &writer)
            }
        }
        return count
    }

    /// Appends rows known to be new (a snapshot's rows are distinct), without the index.
    /// One call per table section: the loop runs with its types resolved once.
    @inlinable static func loadRows(_ table: Table<Codec>, _ count: Int, _ reader: inout ByteReader)
        throws(ByteReader.Malformed)
    {
        table.decoded.slots.reserveCapacity(table.decoded.slots.count + min(count, 1 << 24))
        defer { table.changeCount &+= 1 }
        try RowFrame.forEachSnapshotRow(count, in: &reader) { reader throws(ByteReader.Malformed) in
            let decoded = try Codec.decodeRow(from: &reader)
            table.decoded.append(Codec.key(of: decoded), decoded)
        }
    }

    /// Reads rows moved to a scratch file back into memory, before the decoded ones: from here
    /// on the table holds every row decoded, as if they had never moved. The changes logged
    /// since they moved (after a commit: a transaction's later writes) name slots counted from
    /// after them, and move along.
    @inlinable static func unspill(_ table: Table<Codec>) {
        guard let spilled = table.spilled else { return }
        table.spilled = nil
        defer { table.changeCount &+= 1 }
        var rows = SlotRows<Codec>()
        rows.slots.reserveCapacity(spilled.count + table.decoded.slots.count)
        spilled.forEachRow { key, row in rows.append(key, row) }
        rows.slots.append(contentsOf: table.decoded.slots)
        rows.liveCount += table.decoded.liveCount
        for number in table.pending.changes.indices where table.pending.changes[number].slot >= 0 {
            table.pending.changes[number].slot += spilled.count
        }
        table.decoded = rows
        // Moved out again only once twice as many: a statement that reads every row after each
        // insert does not move them back and forth.
        table.nextSpill = rows.slots.count * 2
    }

    /// A run of replayed changes, unlogged: beside the snapshot's rows while they are read in
    /// place, else into the decoded rows.
    @inlinable static func applyRows(_ table: Table<Codec>, _ bytes: [UInt8], operations: [RowLocation])
        throws(ByteReader.Malformed)
    {
        defer { table.changeCount &+= 1 }
        var reader = ByteReader(bytes)
        for location in operations {
            if let row = location.row {
                reader.reposition(to: row)
                let decoded = try Codec.decodeRow(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                if let lazy = table.lazy {
                    lazy.record(Codec.key(of: decoded), decoded, isInsert: location.isInsert)
                } else {
                    table.decoded.place(decoded, key: Codec.key(of: decoded))
                }
            } else {
                reader.reposition(to: location.key)
                let key = try Codec.decodeKey(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                if let lazy = table.lazy { lazy.record(key, nil, isInsert: false) } else { table.decoded.remove(key) }
            }
        }
    }

    /// A replayed change's key and row (nil: a removal), decoded before anything is applied.
    @inlinable static func decodeOperation(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed)
        -> (key: Key, row: Row?)
    {
        guard put else { return (try Codec.decodeKey(from: &reader), nil) }
        let row = try Codec.decodeRow(from: &reader)
        return (Codec.key(of: row), row)
    }

    /// Changes over the snapshot's rows (`LazyRows.changesOverSnapshot`) applied to them, just
    /// decoded into the table's slots in snapshot order.
    @inlinable static func apply(_ changes: [LazyRows<Codec>.ChangeOverSnapshot], to table: Table<Codec>) {
        var moved: [(position: Int, row: Row)] = []
        for change in changes {
            if let ordinal = change.baseOrdinal {
                if let row = change.row, change.position == ordinal {
                    table.decoded.slots[ordinal] = (Codec.key(of: row), row)
                    continue
                }
                if table.decoded.slots[ordinal] != nil {
                    table.decoded.slots[ordinal] = nil
                    table.decoded.liveCount -= 1
                }
            }
            if let row = change.row { moved.append((change.position, row)) }
        }
        moved.sort { $0.position < $1.position }
        for entry in moved { table.decoded.append(Codec.key(of: entry.row), entry.row) }
    }

    /// Decodes every row still in the snapshot (once): from here on the table is an ordinary
    /// in-memory table.
    @inlinable static func materialize(_ table: Table<Codec>) {
        unspill(table)
        guard let lazy = table.lazy else { return }
        table.lazy = nil
        defer { table.changeCount &+= 1 }
        // Pending changes made while lazy refer to no slots: they are replayed as ordinary
        // logged changes below, so a rollback still undoes them exactly.
        let pending = table.pending.changes
        let committedOperations = lazy.operations.count - lazy.undo.count
        table.pending.changes.removeAll()
        let bytes = lazy.base.copyRows()
        var reader = ByteReader(bytes)
        do {
            try loadRows(table, lazy.base.count, &reader)
        } catch {
            UnreadableRow.found("table '\(table.name)': a snapshot row passes its checksum but cannot be read")
        }
        let inSnapshotOrder = table.decoded.slots.count == lazy.base.count
        if !inSnapshotOrder, lazy.delta != nil {
            UnreadableRow.found("table '\(table.name)': its snapshot rows do not add up with the level below")
        }
        if pending.isEmpty, inSnapshotOrder {
            // Only committed changes: each key's last state (`latest`, and the level below's
            // rows) says where it ends, so no key index is built (hashing every key was most of
            // a compaction after a few hundred removes). The same slots as replaying the
            // changes one by one.
            apply(lazy.changesOverSnapshot(), to: table)
            return
        }
        // The level below first, as committed; then the journal's changes replayed by key.
        if lazy.delta != nil { apply(lazy.changesOverSnapshot(journal: false), to: table) }
        for operation in lazy.operations[..<committedOperations] {
            if let row = operation.row {
                table.decoded.place(row, key: operation.key)
            } else {
                table.decoded.remove(operation.key)
            }
        }
        for (change, operation) in zip(pending, lazy.operations[committedOperations...]) {
            let slot: Int
            if let row = operation.row {
                slot = table.decoded.place(row, key: operation.key).slot
            } else {
                slot = table.decoded.remove(operation.key)?.slot ?? -1
            }
            table.pending.changes.append(
                TableChanges<Codec>.Change(
                    key: change.key, slot: slot, replaced: change.replaced, position: change.position))
        }
    }
}
