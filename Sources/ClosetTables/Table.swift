import ClosetCore

/// A pack's stored table: rows that remember insertion order, with O(1) insert, replace,
/// remove and undo. Its rows are decoded (`SlotRows`) or, after a store opens, still in the
/// mapped snapshot with the journal's changes beside them (`LazyRows`) until something needs
/// every row. Every change is logged (`TableChanges`) with the transaction set that owns the
/// table, so a failed statement rolls back across tables exactly.
public final class Table<Codec: TableCodec>: StoredTable {
    public typealias Row = Codec.Row
    public typealias Key = Codec.Key

    // The hot paths (lookups, upserts) are inlinable so a pack's calls are specialized for
    // its row type; unspecialized generic code spends its time looking up type metadata.
    public let name: String
    @usableFromInline var decoded = SlotRows<Codec>()
    @usableFromInline var pending = TableChanges<Codec>()
    /// While the rows are still in a mapped snapshot: they are decoded only when asked for,
    /// with the journal's changes kept beside them. Anything that needs every row (or a write)
    /// decodes them all first (`materialize`), and the table works as before from then on.
    @usableFromInline var lazy: LazyRows<Codec>?
    /// New rows moved out of memory while a transaction adds many to an empty table (an
    /// import): they come before `decoded`'s, whose slots then count from after them.
    @usableFromInline var spilled: SpilledRows<Codec>?
    /// Where scratch files come from (the transaction set's), and how many decoded rows wait
    /// before the next move (raised after a move failed, so a full disk is not tried every row).
    @usableFromInline var scratch = ScratchSpace()
    @usableFromInline var nextSpill = 0
    /// Changes whenever a row changes (rollbacks included): views can skip fetching what
    /// they already have.
    public var revision: Int { changeCount }
    @usableFromInline var changeCount = 0
    @usableFromInline let passes: TablePasses<Codec>

    /// The secondary index the snapshot keeps for this table, if its schema declares one.
    public let index: TableIndex<Codec>?
    /// The groups the snapshot lists beside the rows, and their sections.
    @usableFromInline var groups: TableGroups<Codec>

    @inlinable init(name: String, index: TableIndex<Codec>? = nil, groupings: [TableGrouping<Codec>] = []) {
        self.name = name
        self.index = index
        groups = TableGroups(groupings)
        passes = TablePasses()
    }

    @inlinable public var count: Int { lazy?.settled().liveCount ?? (decoded.liveCount + (spilled?.count ?? 0)) }

    /// Every row in insertion order.
    @inlinable public var rows: [Row] {
        passes.materialize(self)
        return decoded.slots.compactMap { $0?.row }
    }

    /// Visits every row in insertion order without building an array.
    @inlinable public func forEachRow(_ body: (Row) throws -> Void) rethrows {
        passes.materialize(self)
        for case let entry? in decoded.slots { try body(entry.row) }
    }

    /// Every row in `forEachRow`'s order (the order they were added), handed over one at a time
    /// without decoding the table whole: snapshot rows read a span at a time, a row the journal
    /// replaced in place where it was, removed ones left out, and the journal's moved and new
    /// rows after them by when they came, as materializing the table would place them. False,
    /// and nothing visited, when the rows are not in a mapped snapshot or changes are pending.
    @inlinable public func forEachRowInOrder(span: Int = 1 << 20, _ visit: (Row) throws -> Void) throws -> Bool {
        guard let lazy = lazy?.settled(), pending.changes.isEmpty else { return false }
        // What the journal did to the rows below it: replaced in place, removed (or moved to
        // the end), by snapshot ordinal and by the level below's.
        var inPlace: [Int: Row] = [:]
        var removed = Set<Int>()
        var deltaInPlace: [Int: Row] = [:]
        var deltaRemoved = Set<Int>()
        var moved: [(position: Int, row: Row)] = []
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?:
                if let row = entry.row, entry.position == ordinal {
                    inPlace[ordinal] = row
                    continue
                }
                removed.insert(ordinal)
            case .delta(let ordinal)?:
                if let row = entry.row, entry.position == lazy.position(.delta(ordinal)) {
                    deltaInPlace[ordinal] = row
                    continue
                }
                deltaRemoved.insert(ordinal)
            case nil:
                break
            }
            if let row = entry.row { moved.append((entry.position, row)) }
        }
        moved.sort { $0.position < $1.position }
        // The level below's rows stand among the snapshot's by position: each before the
        // snapshot row after it (in place of the hidden row at its own position), new ones last.
        let delta = lazy.delta
        let positions = delta?.positions ?? []
        var next = 0
        // The level below's rows read a span at a time as the walk reaches them.
        var window: (first: Int, rows: [[UInt8]]) = (0, [])
        func visitDelta(upTo limit: Int) throws {
            guard let delta else { return }
            while next < positions.count, positions[next] <= limit {
                defer { next += 1 }
                if deltaRemoved.contains(next) { continue }
                if let row = deltaInPlace[next] {
                    try visit(row)
                    continue
                }
                // `next` only grows: past the window's rows, the next span is read.
                if next - window.first >= window.rows.count {
                    window = (next, delta.rows.rowsBytes(from: next, span: span))
                }
                try visit(lazy.decode(baseRow: window.rows[next - window.first]))
            }
        }
        try lazy.base.forEachRowBytes(span: span) { ordinal, bytes in
            try visitDelta(upTo: ordinal)
            if removed.contains(ordinal) || (delta?.isHidden(ordinal) ?? false) { return }
            try visit(inPlace[ordinal] ?? lazy.decode(baseRow: bytes))
        }
        try visitDelta(upTo: .max)
        for entry in moved { try visit(entry.row) }
        return true
    }

    @inlinable public subscript(key: Key) -> Row? {
        if let lazy = lazy?.settled() { return lazy.row(key) }
        if let slot = decoded.slot(of: key) { return decoded.row(at: slot) }
        guard let spilled, let ordinal = spilled.place(of: key) else { return nil }
        return spilled.row(ordinal)
    }

    @inlinable public func contains(_ key: Key) -> Bool {
        if let lazy = lazy?.settled() { return lazy.contains(key) }
        return decoded.slot(of: key) != nil || spilled?.place(of: key) != nil
    }

    /// Inserts or replaces (keyed on the row's key); returns the row replaced.
    @inlinable @discardableResult
    public func upsert(_ row: Row) -> Row? {
        let key = Codec.key(of: row)
        changeCount &+= 1
        if let lazy = lazy?.settled() {
            // Rows still in the snapshot: the change is kept beside them, so one insert into
            // a big store decodes nothing else.
            let previous = lazy.row(key)
            lazy.change(key, row)
            pending.log(key, slot: -1, previous: previous, rows: decoded)
            return previous
        }
        // Rows moved out come back before one of them is replaced.
        if let spilled, spilled.place(of: key) != nil { TablePasses<Codec>.unspill(self) }
        var (slot, previous) = decoded.place(row, key: key)
        let moved = spilled?.count ?? 0
        // A new row in a table that was empty when the transaction began: its position only.
        if previous == nil, pending.logInsert(slot: slot + moved) {
            if decoded.slots.count >= nextSpill { spillIfDue() }
            return nil
        }
        // A decoded row replaced while inserts are logged by position alone: those positions
        // count the moved rows, which come back first (the row's slot moves up past them).
        if moved > 0, pending.insertsIntoEmpty != nil {
            TablePasses<Codec>.unspill(self)
            slot += moved
        }
        pending.log(key, slot: slot, previous: previous, rows: decoded)
        return previous
    }

    /// Moves the decoded rows to a scratch file when they are this transaction's new rows of a
    /// table that was empty when it began, and many (see `SpilledRows`).
    @inlinable func spillIfDue() {
        let rows = decoded.slots.count + (spilled?.count ?? 0)
        let expected = max(pending.insertsIntoEmpty?.capacity ?? 0, rows)
        let kept =
            spilled == nil && expected <= scratch.rowsHeldWhole
            ? max(scratch.rowsKeptInMemory, scratch.rowsHeldWhole) : scratch.rowsKeptInMemory
        guard decoded.slots.count >= kept else {
            nextSpill = kept
            return
        }
        // Only new rows are moved: every slot filled, each one an insert of this transaction.
        guard decoded.liveCount == decoded.slots.count,
            pending.insertsIntoEmpty?.count == decoded.slots.count + (spilled?.count ?? 0)
        else {
            nextSpill = decoded.slots.count * 2
            return
        }
        if spilled == nil {
            guard let file = scratch.makeFile?(), let keysFile = scratch.makeFile?() else {
                nextSpill = .max
                return
            }
            spilled = SpilledRows(
                file: file, keysFile: keysFile, columnsFile: index == nil ? nil : scratch.makeFile?(), tableName: name,
                expecting: pending.insertsIntoEmpty?.capacity ?? 0)
        }
        if spilled?.append(decoded.slots, index: index) == true {
            decoded.removeAllKeepingCapacity()
            nextSpill = scratch.rowsKeptInMemory
        } else {
            nextSpill = decoded.slots.count * 2
        }
    }

    /// Moves the decoded rows after those already moved (when they may move, as in
    /// `spillIfDue`) and lets their room go: a commit is about to write them all out.
    @inlinable func spillRemainingRows() {
        guard let spilled, !decoded.slots.isEmpty, decoded.liveCount == decoded.slots.count,
            pending.insertsIntoEmpty?.count == decoded.slots.count + spilled.count
        else { return }
        if spilled.append(decoded.slots, index: index) {
            decoded = SlotRows()
            changeCount &+= 1
        }
    }

    /// Removes the row with this key; returns it, or nil if there was none.
    @inlinable @discardableResult
    public func remove(_ key: Key) -> Row? {
        if let lazy = lazy?.settled() {
            guard let previous = lazy.row(key) else { return nil }
            changeCount &+= 1
            lazy.change(key, nil)
            pending.log(key, slot: -1, previous: previous, rows: decoded)
            return previous
        }
        // As for a replaced row (`upsert`); a key the table lacks changes nothing.
        if let spilled {
            let isDecoded = decoded.slot(of: key) != nil
            guard isDecoded || spilled.place(of: key) != nil else { return nil }
            if !isDecoded || pending.insertsIntoEmpty != nil { TablePasses<Codec>.unspill(self) }
        }
        // Before the slot is emptied: the inserts' keys are read from their slots.
        pending.logInsertsAsChanges(decoded)
        guard let (slot, row) = decoded.remove(key) else { return nil }
        changeCount &+= 1
        pending.log(key, slot: slot, previous: row, rows: decoded)
        return row
    }

    // MARK: the transaction set's side

    public func undoLast() {
        if let inserts = pending.insertsIntoEmpty {
            guard !inserts.isEmpty else { return }
            pending.insertsIntoEmpty?.removeLast()
            changeCount &+= 1
            // The last insert is the last decoded row, or the last moved out when none is left.
            if decoded.slots.isEmpty, spilled != nil {
                spilled?.removeLast()
            } else {
                decoded.clear(slot: decoded.slots.count - 1)
            }
            return
        }
        guard let (change, previous) = pending.popLast() else { return }
        changeCount &+= 1
        if let lazy, let saved = lazy.undo.popLast() {
            lazy.restore(saved)
        } else if let previous {
            decoded.restore(previous, key: change.key, slot: change.slot)
        } else {
            decoded.clear(slot: change.slot)
        }
    }

    public func framePendingOperations() -> FramedOperations { passes.framePending(self) }

    public func writeSnapshot(committed: Bool, into writer: inout ByteWriter) -> Int {
        passes.writeRows(self, committed, &writer)
    }

    public func writeSnapshotSection(committed: Bool, into writer: inout ByteWriter) {
        passes.writeSection(self, committed, &writer)
    }

    public func releasedBlobs() -> [String] {
        // Only a replaced or removed row releases anything: a log of inserts is not read.
        var released: [String] = []
        guard !pending.replacedRows.isEmpty else { return released }
        for change in pending.changes {
            // The row now is looked up only when the one before named a blob (a lookup a
            // row here, not specialized for the codec, was a twentieth of 1,000 removes).
            guard let previous = pending.previous(of: change), case let before = Codec.blobs(of: previous),
                !before.isEmpty
            else { continue }
            let now = self[change.key].map(Codec.blobs) ?? []
            released += before.filter { !now.contains($0) }
        }
        return released
    }

    public func forgetChanges() {
        pending.forget()
        lazy?.undo.removeAll()
        decoded.compactIfSparse()
    }

    public func applyFormatOne(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        let (key, row) = try TablePasses<Codec>.decodeOperation(put: put, from: &reader)
        passes.applyUnlogged(self, key, row)
    }

    public func loadSnapshotRows(count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        try passes.loadRows(self, count, &reader)
    }

    public func apply(_ bytes: [UInt8], operations: [RowLocation]) throws(ByteReader.Malformed) {
        try passes.applyRows(self, bytes, operations)
    }

    public func checkSnapshotRows() -> String? { passes.check(self) }

    public var referencedBlobs: Set<String> {
        if let lazy = lazy?.settled() {
            // The snapshot lists its rows' blobs, the level below its own; the rows it hides
            // and the journal's changes adjust the list.
            var names = Set(lazy.base.blobNames)
            if let delta = lazy.delta {
                for ordinal in delta.hidden { names.subtract(Codec.blobs(of: lazy.decodeBase(ordinal))) }
                names.formUnion(delta.rows.blobNames)
            }
            for entry in lazy.latest.values {
                if let lower = entry.lower { names.subtract(Codec.blobs(of: lazy.decode(lower))) }
            }
            for entry in lazy.latest.values { if let row = entry.row { names.formUnion(Codec.blobs(of: row)) } }
            return names
        }
        var names = Set<String>()
        spilled?.forEachRow { _, row in names.formUnion(Codec.blobs(of: row)) }
        for case let entry? in decoded.slots { names.formUnion(Codec.blobs(of: entry.row)) }
        return names
    }

    public func attach(_ rows: SnapshotRows) -> Bool {
        guard decoded.slots.isEmpty, lazy == nil, spilled == nil, pending.isEmpty else { return false }
        lazy = LazyRows(base: rows, tableName: name)
        changeCount &+= 1
        return true
    }

    public func reserveRows(_ count: Int) {
        if let lazy {
            lazy.operations.reserveCapacity(lazy.operations.count + count)
            lazy.latest.reserveCapacity(lazy.latest.count + count)
        } else {
            // No more than are kept decoded when the rest may move to a scratch file.
            let heldWhole = decoded.slots.count + count <= scratch.rowsHeldWhole
            decoded.reserve(scratch.makeFile == nil || heldWhole ? count : min(count, scratch.rowsKeptInMemory))
        }
        pending.reserve(count)
        // When to move rows is decided again with the rows expected now (`spillIfDue`).
        nextSpill = 0
    }

    public var rowsInMemory: RowsInMemory {
        if let lazy { return RowsInMemory(changesBesideSnapshot: lazy.operations.count) }
        return RowsInMemory(decodedRows: decoded.liveCount, spilledRows: spilled?.count ?? 0)
    }

    public func removeAllRows() {
        lazy = nil
        spilled = nil
        nextSpill = 0
        groups.forgetSections()
        decoded.removeAll()
        pending.forget()
        changeCount &+= 1
    }
}
