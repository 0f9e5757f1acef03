import ClosetCore

/// A pack's stored table: rows that remember insertion order, with O(1) insert, replace,
/// remove and undo. Every change is logged with the transaction set that owns the table, so
/// a failed statement rolls back across tables exactly. Removal leaves a hole that
/// `compactIfSparse()` closes; undo puts a row back into its own slot, so order survives any
/// mix of statements and rollbacks.
///
/// The key index is built on first use: opening a store appends every row of the snapshot
/// without hashing 100,000 keys, and a query that never looks one up never pays for it.
public final class Table<Codec: TableCodec>: StoredTable {
    public typealias Row = Codec.Row
    public typealias Key = Codec.Key

    /// One change since the last commit, with what undoes it.
    @usableFromInline struct Change {
        @usableFromInline var key: Key
        @usableFromInline var slot: Int
        /// Where the row before the change is in `replacedRows` (-1: there was none). Kept
        /// apart: an optional row in every change made a seed script's log of inserts (none
        /// of which replaces a row) as big as its rows.
        @usableFromInline var replaced: Int
        /// The transaction log position, to order changes across tables.
        @usableFromInline var position: Int

        @inlinable init(key: Key, slot: Int, replaced: Int, position: Int) {
            self.key = key
            self.slot = slot
            self.replaced = replaced
            self.position = position
        }
    }

    // The hot paths (lookups, upserts) are inlinable so a pack's calls are specialized for
    // its row type; unspecialized generic code spends its time looking up type metadata.
    public let name: String
    @usableFromInline var slots: [(key: Key, row: Row)?] = []
    @usableFromInline var builtIndex: [Key: Int]?
    @usableFromInline var liveCount = 0
    @usableFromInline var changes: [Change] = []
    /// The rows changes replaced or removed, in the order of their changes.
    @usableFromInline var replacedRows: [Row] = []
    /// While the table, empty when the transaction began, has had only new rows: each one's
    /// transaction log position, by slot (its key is its slot's). A seed script's 100,000
    /// inserts were as many `Change`s; undoing one is dropping the last slot. The first
    /// other change turns these into `Change`s (`logInsertsAsChanges`).
    @usableFromInline var insertsIntoEmpty: [Int]?
    /// Changes whenever a row changes (rollbacks included): views can skip fetching what
    /// they already have.
    public var revision: Int { changeCount }
    @usableFromInline var changeCount = 0
    /// The transaction log this table's changes go to, and this table's number in it (set
    /// when the table is registered with its transaction set).
    @usableFromInline var log = TransactionLog()
    @usableFromInline var logNumber = 0

    // The whole-table passes (framing a commit, writing and loading snapshots, replaying a
    // journal) are reached through `StoredTable`, which only sees unspecialized generic code.
    // The initializer is inlinable, so a table made where its codec is known (a pack's
    // schema) captures specialized versions of them here.
    @usableFromInline let framePending: (Table) -> FramedOperations
    @usableFromInline let writeRows: (Table, Bool, inout ByteWriter) -> Int
    @usableFromInline let writeSection: (Table, Bool, inout ByteWriter) -> Void
    @usableFromInline let loadRows: (Table, Int, inout ByteReader) throws(ByteReader.Malformed) -> Void
    @usableFromInline let applyRows: (Table, [UInt8], [RowLocation]) throws(ByteReader.Malformed) -> Void
    @usableFromInline let materializeRows: (Table) -> Void
    @usableFromInline let checkRows: (Table) -> String?

    /// The secondary index the snapshot keeps for this table, if its schema declares one.
    public let index: TableIndex<Codec>?
    /// The groups the snapshot lists beside the rows (`TableGrouping`), and each one's
    /// section while the rows are read in place and it was written with them.
    public let groupings: [TableGrouping<Codec>]
    @usableFromInline var groupSections: [SnapshotRows?]
    /// Each grouping's groups, collected while the last snapshot section was written (its
    /// rows' ordinals by group key), for the grouping sections written after it.
    @usableFromInline var writtenGroups: [[[UInt8]: [UInt32]]] = []
    /// While the rows are still in a mapped snapshot: they are decoded only when asked for,
    /// with the journal's changes kept beside them. Anything that needs every row (or a write)
    /// decodes them all first (`materialize`), and the table works as before from then on.
    @usableFromInline var lazy: LazyRows<Codec>?
    /// Decoded rows' slots by bucket of `index`, each by order key descending (ties: later
    /// slot first), for the revision they were sorted at: built when first asked for after
    /// a change, so paging through decoded rows sorts once, not once per page.
    @usableFromInline var sortedBuckets: (revision: Int, lists: [[Int]])?

    @inlinable init(name: String, index: TableIndex<Codec>? = nil, groupings: [TableGrouping<Codec>] = []) {
        self.name = name
        self.index = index
        self.groupings = groupings
        groupSections = groupings.map { _ in nil }
        framePending = { $0.framePendingSpecialized() }
        writeRows = { table, committed, writer in table.writeSnapshotSpecialized(committed: committed, into: &writer) }
        writeSection = { table, committed, writer in table.writeSectionSpecialized(committed: committed, into: &writer)
        }
        materializeRows = { $0.materializeSpecialized() }
        checkRows = { $0.checkSnapshotRowsSpecialized() }
        loadRows = { table, count, reader throws(ByteReader.Malformed) in
            try table.loadSnapshotRowsSpecialized(count, &reader)
        }
        applyRows = { table, bytes, operations throws(ByteReader.Malformed) in
            try table.applySpecialized(bytes, operations: operations)
        }
    }

    @inlinable public var count: Int { settled?.liveCount ?? liveCount }

    /// The rows still in the snapshot, with every journal change read at open placed: asked
    /// for by everything that reads `latest`, `liveCount` or `appended`.
    @inlinable var settled: LazyRows<Codec>? {
        guard let lazy else { return nil }
        if lazy.placed < lazy.operations.count { settle(lazy) }
        return lazy
    }

    /// Looks up, in one pass over the snapshot's sorted keys, every key the journal changed
    /// that is not known yet, then places the changes in order.
    @inlinable func settle(_ lazy: LazyRows<Codec>) {
        let changes = lazy.placed..<lazy.operations.count
        var known: [Key: Int?] = [:]
        var unknown: [Key] = []
        for position in changes {
            let key = lazy.operations[position].key
            guard lazy.latest[key] == nil, known.updateValue(nil, forKey: key) == nil else { continue }
            unknown.append(key)
        }
        for (key, ordinal) in zip(unknown, lazy.base.ordinals(ofKeys: unknown.map(Self.keyBytes))) {
            known[key] = .some(ordinal)
        }
        for position in changes {
            let change = lazy.operations[position]
            place(change.key, change.row, lazy, baseOrdinal: known[change.key])
        }
        lazy.placed = lazy.operations.count
    }

    /// Every row in insertion order.
    @inlinable public var rows: [Row] {
        materialize()
        return slots.compactMap { $0?.row }
    }

    /// Visits every row in insertion order without building an array.
    @inlinable public func forEachRow(_ body: (Row) throws -> Void) rethrows {
        materialize()
        for case let entry? in slots { try body(entry.row) }
    }

    @inlinable public subscript(key: Key) -> Row? {
        if let lazy = settled { return lazyRow(key, lazy) }
        guard let slot = slot(of: key) else { return nil }
        return slots[slot]?.row
    }

    @inlinable public func contains(_ key: Key) -> Bool {
        if let lazy = settled {
            if let entry = lazy.latest[key] { return entry.row != nil }
            if let last = lazy.lastBaseRow, last.key == key { return last.found != nil }
            return lazy.base.ordinal(ofKey: Self.keyBytes(key)) != nil
        }
        return slot(of: key) != nil
    }

    /// Inserts or replaces (keyed on the row's key); returns the row replaced.
    @inlinable @discardableResult
    public func upsert(_ row: Row) -> Row? {
        let key = Codec.key(of: row)
        if let lazy = settled {
            // Rows still in the snapshot: the change is kept beside them, so one insert into
            // a big store decodes nothing else.
            let previous = lazyRow(key, lazy)
            lazy.undo.append(lazy.savedState(of: key))
            lazyApply(key, row, lazy)
            logChange(key, slot: -1, previous: previous)
            return previous
        }
        let (slot, previous) = place(row, key: key)
        // A new row in a table that was empty when the transaction began: its position only.
        if previous == nil {
            if insertsIntoEmpty == nil, slot == 0, changes.isEmpty { insertsIntoEmpty = [] }
            if insertsIntoEmpty?.count == slot {
                insertsIntoEmpty?.append(log.record(logNumber))
                return nil
            }
        }
        logChange(key, slot: slot, previous: previous)
        return previous
    }

    /// Removes the row with this key; returns it, or nil if there was none.
    @inlinable @discardableResult
    public func remove(_ key: Key) -> Row? {
        if let lazy = settled {
            guard let previous = lazyRow(key, lazy) else { return nil }
            lazy.undo.append(lazy.savedState(of: key))
            lazyApply(key, nil, lazy)
            logChange(key, slot: -1, previous: previous)
            return previous
        }
        // Before the slot is emptied: the inserts' keys are read from their slots.
        logInsertsAsChanges()
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: key), let entry = slots[slot] else { return nil }
        slots[slot] = nil
        liveCount -= 1
        changeCount &+= 1
        logChange(key, slot: slot, previous: entry.row)
        return entry.row
    }

    /// The inserts into an empty table as ordinary changes (see `insertsIntoEmpty`).
    @inlinable func logInsertsAsChanges() {
        guard let positions = insertsIntoEmpty else { return }
        insertsIntoEmpty = nil
        changes.reserveCapacity(changes.count + positions.count)
        // Every slot is filled: nothing is removed while inserts into an empty table wait here.
        for (slot, position) in positions.enumerated() {
            if let entry = slots[slot] {
                changes.append(Change(key: entry.key, slot: slot, replaced: -1, position: position))
            }
        }
    }

    @inlinable func logChange(_ key: Key, slot: Int, previous: Row?) {
        // A replaced row keeps its key, so the inserts are read right after `place`.
        logInsertsAsChanges()
        var replaced = -1
        if let previous {
            replaced = replacedRows.count
            replacedRows.append(previous)
        }
        changes.append(Change(key: key, slot: slot, replaced: replaced, position: log.record(logNumber)))
    }

    /// The row before `change` (nil: there was none).
    @inlinable func previous(of change: Change) -> Row? {
        change.replaced >= 0 ? replacedRows[change.replaced] : nil
    }

    // MARK: the transaction set's side

    public func undoLast() {
        if let pending = insertsIntoEmpty {
            guard !pending.isEmpty else { return }
            insertsIntoEmpty?.removeLast()
            clear(slot: slots.count - 1)
            return
        }
        guard let change = changes.popLast() else { return }
        // Changes are undone last first, so a replaced row is the last one kept.
        let previous = change.replaced >= 0 ? replacedRows.removeLast() : nil
        if let lazy, let saved = lazy.undo.popLast() {
            lazy.restore(saved)
            changeCount &+= 1
            return
        }
        if let previous {
            restore(previous, key: change.key, slot: change.slot)
        } else {
            clear(slot: change.slot)
        }
    }

    public func pendingOperations() -> [(position: Int, operation: EncodedOperation)] {
        logInsertsAsChanges()
        var seen = Set<Key>()
        var operations: [(Int, EncodedOperation)] = []
        for change in changes where seen.insert(change.key).inserted {
            operations.append((change.position, encode(key: change.key, row: self[change.key])))
        }
        return operations
    }

    public func framePendingOperations() -> FramedOperations { framePending(self) }

    @inlinable func framePendingSpecialized() -> FramedOperations {
        logInsertsAsChanges()
        var framed = FramedOperations()
        var seen = Set<Key>()
        seen.reserveCapacity(changes.count)
        framed.operations.reserveCapacity(changes.count)
        for change in changes where seen.insert(change.key).inserted {
            let start = framed.bytes.bytes.count
            let row = self[change.key]
            framed.bytes.u8(row == nil ? RowFrame.delete : RowFrame.put)
            RowFrame.part16(&framed.bytes) { Codec.encode(key: change.key, into: &$0) }
            if let row { RowFrame.part32(&framed.bytes) { Codec.encode(row, into: &$0) } }
            framed.operations.append((change.position, start..<framed.bytes.bytes.count))
        }
        return framed
    }

    public func writeSnapshot(committed: Bool, into writer: inout ByteWriter) -> Int {
        writeRows(self, committed, &writer)
    }

    public func writeSnapshotSection(committed: Bool, into writer: inout ByteWriter) {
        writeSection(self, committed, &writer)
    }

    @inlinable func writeSectionSpecialized(committed: Bool, into writer: inout ByteWriter) {
        if writeSectionCopying(into: &writer) { return }
        reserveSection(in: &writer)
        let index = index
        let groupings = groupings
        var groups = groupings.map { _ in [[UInt8]: [UInt32]]() }
        SnapshotSection.write(into: &writer) { writer, columns in
            if let index { columns.bucketCount = index.bucketCount }
            var ordinal: UInt32 = 0
            return writeSnapshotSpecialized(committed: committed, into: &writer) { row in
                if let index {
                    columns.buckets.append(UInt8(truncatingIfNeeded: index.bucket(row)))
                    columns.orders.append(index.order(row))
                }
                for blob in Codec.blobs(of: row) { columns.blobNames.insert(blob) }
                for number in groupings.indices {
                    groups[number][groupings[number].key(row), default: []].append(ordinal)
                }
                ordinal &+= 1
            }
        }
        writtenGroups = groups
    }

    /// Room for the section, from its first rows' size: a section grown as it was written
    /// was copied at each doubling, and again for its index (a new store's first snapshot
    /// touched twice its size).
    @inlinable func reserveSection(in writer: inout ByteWriter) {
        materialize()
        var sample = ByteWriter()
        var sampled = 0
        for case let entry? in slots.prefix(64) {
            RowFrame.part16(&sample) { Codec.encode(key: entry.key, into: &$0) }
            RowFrame.part32(&sample) { Codec.encode(entry.row, into: &$0) }
            sampled += 1
        }
        guard sampled > 0 else { return }
        let rowBytes = sample.bytes.count / sampled
        // Rows a little longer than the sample's, and the index's ~49 bytes a row.
        writer.reserve(liveCount * (rowBytes + rowBytes / 8 + 49) + 4096)
    }

    @inlinable func writeSnapshotSpecialized(
        committed: Bool, into writer: inout ByteWriter, visit: (Row) -> Void = { _ in }
    ) -> Int {
        materialize()
        if committed { logInsertsAsChanges() }
        var count = 0
        func write(_ key: Key, _ row: Row, _ writer: inout ByteWriter) {
            RowFrame.part16(&writer) { Codec.encode(key: key, into: &$0) }
            RowFrame.part32(&writer) { Codec.encode(row, into: &$0) }
            visit(row)
            count += 1
        }
        guard committed, !changes.isEmpty else {
            for case let entry? in slots { write(entry.key, entry.row, &writer) }
            return count
        }
        var original: [Int: Row?] = [:]
        for change in changes where original[change.slot] == nil { original[change.slot] = .some(previous(of: change)) }
        for (slot, entry) in slots.enumerated() {
            if let before = original[slot] {
                if let row = before { write(Codec.key(of: row), row, &writer) }
            } else if let entry {
                write(entry.key, entry.row, &writer)
            }
        }
        return count
    }

    public func releasedBlobs() -> [String] {
        // Only a replaced or removed row releases anything: a log of inserts is not read.
        var released: [String] = []
        guard !replacedRows.isEmpty else { return released }
        for change in changes {
            guard let previous = previous(of: change) else { continue }
            let now = self[change.key].map(Codec.blobs) ?? []
            released += Codec.blobs(of: previous).filter { !now.contains($0) }
        }
        return released
    }

    public func forgetChanges() {
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
        if !replacedRows.isEmpty { replacedRows.removeAll(keepingCapacity: true) }
        insertsIntoEmpty = nil
        lazy?.undo.removeAll()
        compactIfSparse()
    }

    public func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
        materialize()
        if let bytes = operation.row {
            var reader = ByteReader(bytes)
            let row = try Codec.decodeRow(from: &reader)
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
            place(row, key: Codec.key(of: row))
        } else {
            var reader = ByteReader(operation.key)
            let key = try Codec.decodeKey(from: &reader)
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
            removeUnlogged(key)
        }
    }

    public func applyFormatOne(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        materialize()
        if put {
            let row = try Codec.decodeRow(from: &reader)
            place(row, key: Codec.key(of: row))
        } else {
            removeUnlogged(try Codec.decodeKey(from: &reader))
        }
    }

    /// Appends rows known to be new (a snapshot's rows are distinct), without the index.
    /// One call per table section: the loop runs with its types resolved once.
    public func loadSnapshotRows(count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) {
        try loadRows(self, count, &reader)
    }

    @inlinable func loadSnapshotRowsSpecialized(_ count: Int, _ reader: inout ByteReader) throws(ByteReader.Malformed) {
        slots.reserveCapacity(slots.count + min(count, 1 << 24))
        try RowFrame.forEachSnapshotRow(count, in: &reader) { reader throws(ByteReader.Malformed) in
            let decoded = try Codec.decodeRow(from: &reader)
            let key = Codec.key(of: decoded)
            slots.append((key, decoded))
            builtIndex?[key] = slots.count - 1
            liveCount += 1
        }
        changeCount &+= 1
    }

    public func apply(_ bytes: [UInt8], operations: [RowLocation]) throws(ByteReader.Malformed) {
        try applyRows(self, bytes, operations)
    }

    @inlinable func applySpecialized(_ bytes: [UInt8], operations: [RowLocation]) throws(ByteReader.Malformed) {
        var reader = ByteReader(bytes)
        for location in operations {
            if let row = location.row {
                reader.reposition(to: row)
                let decoded = try Codec.decodeRow(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                if let lazy {
                    lazyRecord(Codec.key(of: decoded), decoded, lazy)
                } else {
                    place(decoded, key: Codec.key(of: decoded))
                }
            } else {
                reader.reposition(to: location.key)
                let key = try Codec.decodeKey(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                if let lazy { lazyRecord(key, nil, lazy) } else { removeUnlogged(key) }
            }
        }
    }

    public var referencedBlobs: Set<String> {
        if let lazy = settled {
            // The snapshot lists its rows' blobs; the journal's changes adjust the list.
            var names = Set(lazy.base.blobNames)
            for entry in lazy.latest.values {
                if let ordinal = entry.baseOrdinal { names.subtract(Codec.blobs(of: decodeBase(ordinal, lazy.base))) }
            }
            for entry in lazy.latest.values { if let row = entry.row { names.formUnion(Codec.blobs(of: row)) } }
            return names
        }
        var names = Set<String>()
        for case let entry? in slots { names.formUnion(Codec.blobs(of: entry.row)) }
        return names
    }

    public func reserveCapacity(_ capacity: Int) { if lazy == nil { slots.reserveCapacity(capacity) } }

    public func attach(_ rows: SnapshotRows) -> Bool {
        guard slots.isEmpty, lazy == nil, changes.isEmpty, insertsIntoEmpty == nil else { return false }
        lazy = LazyRows(base: rows)
        changeCount &+= 1
        return true
    }

    public func removeAllRows() {
        lazy = nil
        groupSections = groupings.map { _ in nil }
        slots.removeAll()
        builtIndex = nil
        liveCount = 0
        changes.removeAll()
        replacedRows.removeAll()
        insertsIntoEmpty = nil
        changeCount &+= 1
    }

    // MARK: rows still in the snapshot

    /// Decodes every row (once): from here on the table is an ordinary in-memory table.
    @inlinable func materialize() { if lazy != nil { materializeRows(self) } }

    @inlinable func materializeSpecialized() {
        guard let lazy else { return }
        self.lazy = nil
        // Pending changes made while lazy refer to no slots: they are replayed as ordinary
        // logged changes below, so a rollback still undoes them exactly.
        let pending = changes
        let committedOperations = lazy.operations.count - lazy.undo.count
        changes.removeAll()
        let bytes = lazy.base.copyRows()
        var reader = ByteReader(bytes)
        do {
            try loadSnapshotRowsSpecialized(lazy.base.count, &reader)
        } catch {
            UnreadableRow.found("table '\(name)': a snapshot row passes its checksum but cannot be read")
        }
        if pending.isEmpty, slots.count == lazy.base.count {
            // Only committed changes: each key's last state (`latest`) says where it ends, so
            // no key index is built (hashing every key was most of a compaction after a few
            // hundred removes). The same slots as replaying the changes one by one.
            if lazy.placed < lazy.operations.count { settle(lazy) }
            var moved: [(position: Int, key: Key, row: Row)] = []
            for (key, entry) in lazy.latest {
                if let ordinal = entry.baseOrdinal {
                    if let row = entry.row, entry.position == ordinal {
                        slots[ordinal] = (key, row)
                        continue
                    }
                    if slots[ordinal] != nil {
                        slots[ordinal] = nil
                        liveCount -= 1
                    }
                }
                if let row = entry.row { moved.append((entry.position, key, row)) }
            }
            moved.sort { $0.position < $1.position }
            for entry in moved {
                slots.append((entry.key, entry.row))
                liveCount += 1
            }
            changeCount &+= 1
            return
        }
        for operation in lazy.operations[..<committedOperations] {
            if let row = operation.row { place(row, key: operation.key) } else { removeUnlogged(operation.key) }
        }
        for (change, operation) in zip(pending, lazy.operations[committedOperations...]) {
            let slot: Int
            if let row = operation.row {
                slot = place(row, key: operation.key).slot
            } else {
                ensureIndex()
                slot = builtIndex?[operation.key] ?? -1
                removeUnlogged(operation.key)
            }
            changes.append(Change(key: change.key, slot: slot, replaced: change.replaced, position: change.position))
        }
    }

    @inlinable static func keyBytes(_ key: Key) -> [UInt8] {
        var writer = ByteWriter()
        Codec.encode(key: key, into: &writer)
        return writer.bytes
    }

    /// `offset`: where the row's frame starts, when an index entry said so.
    @inlinable func decodeBase(_ ordinal: Int, _ base: SnapshotRows, offset: Int? = nil) -> Row {
        decode(baseRow: base.rowBytes(ordinal, offset: offset))
    }

    /// A snapshot row's bytes decoded; bytes that pass their checksum and still do not decode
    /// are damage all the same.
    @inlinable func decode(baseRow bytes: [UInt8]) -> Row {
        var reader = ByteReader(bytes)
        guard let row = try? Codec.decodeRow(from: &reader), reader.isAtEnd else {
            UnreadableRow.found("table '\(name)': a snapshot row passes its checksum but cannot be read")
        }
        return row
    }

    @inlinable func lazyRow(_ key: Key, _ lazy: LazyRows<Codec>) -> Row? {
        if let entry = lazy.latest[key] { return entry.row }
        return baseRow(key, lazy)?.row
    }

    /// A key's row in the snapshot (not the journal's changes), remembered for the next ask: a
    /// statement reads the row it changes several times (the command, the view model, the
    /// change itself), and the snapshot never changes under it.
    @inlinable func baseRow(_ key: Key, _ lazy: LazyRows<Codec>) -> (ordinal: Int, row: Row)? {
        if let last = lazy.lastBaseRow, last.key == key { return last.found }
        let found = lazy.base.ordinal(ofKey: Self.keyBytes(key)).map { ($0, decodeBase($0, lazy.base)) }
        lazy.lastBaseRow = (key, found)
        return found
    }

    /// A journal change over rows still in the snapshot: kept beside them, in order.
    @inlinable func lazyApply(_ key: Key, _ row: Row?, _ lazy: LazyRows<Codec>) {
        changeCount &+= 1
        lazy.operations.append((key, row))
        place(key, row, lazy, baseOrdinal: nil)
        lazy.placed = lazy.operations.count
    }

    /// A change read from the journal at open: recorded now, placed when first needed
    /// (`settle`), so its key is looked up in the snapshot with all the others at once.
    @inlinable func lazyRecord(_ key: Key, _ row: Row?, _ lazy: LazyRows<Codec>) {
        changeCount &+= 1
        lazy.operations.append((key, row))
    }

    /// Where a change leaves its key: `baseOrdinal` is the key's row in the snapshot when
    /// already looked up (`.some(nil)`: it has none), else it is looked up here.
    @inlinable func place(_ key: Key, _ row: Row?, _ lazy: LazyRows<Codec>, baseOrdinal: Int??) {
        var entry: LazyRows<Codec>.Entry
        let existed: Bool
        if let known = lazy.latest[key] {
            entry = known
            existed = known.row != nil
        } else {
            let ordinal = baseOrdinal ?? baseRow(key, lazy)?.ordinal
            entry = LazyRows<Codec>.Entry(row: nil, baseOrdinal: ordinal, position: ordinal ?? 0)
            existed = ordinal != nil
        }
        if let row {
            if !existed {
                // New, or back after a removal: it goes to the end, as an insert does.
                entry.position = lazy.base.count + lazy.appended
                lazy.appended += 1
                lazy.liveCount += 1
            }
            entry.row = row
        } else {
            if existed { lazy.liveCount -= 1 }
            entry.row = nil
        }
        lazy.latest[key] = entry
    }

    // MARK: slots

    private func encode(key: Key, row: Row?) -> EncodedOperation {
        var keyBytes = ByteWriter()
        Codec.encode(key: key, into: &keyBytes)
        guard let row else { return EncodedOperation(table: name, key: keyBytes.bytes, row: nil) }
        var rowBytes = ByteWriter()
        Codec.encode(row, into: &rowBytes)
        return EncodedOperation(table: name, key: keyBytes.bytes, row: rowBytes.bytes)
    }

    /// Builds the index if needed. Callers then read and write `builtIndex` in place (a
    /// computed wrapper would copy the whole dictionary on every write).
    @inlinable func ensureIndex() {
        guard builtIndex == nil else { return }
        var index: [Key: Int] = [:]
        index.reserveCapacity(liveCount)
        for (slot, entry) in slots.enumerated() { if let entry { index[entry.key] = slot } }
        builtIndex = index
    }

    @inlinable func slot(of key: Key) -> Int? {
        ensureIndex()
        return builtIndex?[key]
    }

    @inlinable @discardableResult
    func place(_ row: Row, key: Key) -> (slot: Int, previous: Row?) {
        changeCount &+= 1
        ensureIndex()
        // One hash for a new key (the common case: seeding); a replaced key puts its slot back.
        if let slot = builtIndex?.updateValue(slots.count, forKey: key) {
            builtIndex?[key] = slot
            let previous = slots[slot]?.row
            slots[slot] = (key, row)
            return (slot, previous)
        }
        slots.append((key, row))
        liveCount += 1
        return (slots.count - 1, nil)
    }

    @inlinable func removeUnlogged(_ key: Key) {
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: key), slots[slot] != nil else { return }
        slots[slot] = nil
        liveCount -= 1
        changeCount &+= 1
    }

    private func restore(_ row: Row, key: Key, slot: Int) {
        changeCount &+= 1
        if slots[slot] == nil { liveCount += 1 }
        slots[slot] = (key, row)
        ensureIndex()
        builtIndex?[key] = slot
    }

    private func clear(slot: Int) {
        changeCount &+= 1
        if let key = slots[slot]?.key {
            ensureIndex()
            builtIndex?.removeValue(forKey: key)
            liveCount -= 1
        }
        // Undo is last-in first-out, so an undone insert is the last slot: drop it rather
        // than leave a hole. Earlier holes stay: older undo entries may refill them.
        if slot == slots.count - 1 { slots.removeLast() } else { slots[slot] = nil }
    }

    /// Closes holes once they are worth it. Only safe when nothing refers to slots (no changes).
    private func compactIfSparse() {
        guard changes.isEmpty, insertsIntoEmpty == nil, slots.count > 1024, liveCount < slots.count / 2 else { return }
        slots = slots.filter { $0 != nil }
        builtIndex = nil
    }
}
