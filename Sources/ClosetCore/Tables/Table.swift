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
        /// The row before the change (nil: there was none).
        @usableFromInline var previous: Row?
        /// The transaction log position, to order changes across tables.
        @usableFromInline var position: Int

        @inlinable init(key: Key, slot: Int, previous: Row?, position: Int) {
            self.key = key
            self.slot = slot
            self.previous = previous
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
    @usableFromInline let loadRows: (Table, Int, inout ByteReader) throws(ByteReader.Malformed) -> Void
    @usableFromInline let applyRows: (Table, [UInt8], [RowLocation]) throws(ByteReader.Malformed) -> Void

    @inlinable init(name: String) {
        self.name = name
        framePending = { $0.framePendingSpecialized() }
        writeRows = { table, committed, writer in table.writeSnapshotSpecialized(committed: committed, into: &writer) }
        loadRows = { table, count, reader throws(ByteReader.Malformed) in
            try table.loadSnapshotRowsSpecialized(count, &reader)
        }
        applyRows = { table, bytes, operations throws(ByteReader.Malformed) in
            try table.applySpecialized(bytes, operations: operations)
        }
    }

    @inlinable public var count: Int { liveCount }

    /// Every row in insertion order.
    @inlinable public var rows: [Row] { slots.compactMap { $0?.row } }

    /// Visits every row in insertion order without building an array.
    @inlinable public func forEachRow(_ body: (Row) throws -> Void) rethrows {
        for case let entry? in slots { try body(entry.row) }
    }

    @inlinable public subscript(key: Key) -> Row? {
        guard let slot = slot(of: key) else { return nil }
        return slots[slot]?.row
    }

    @inlinable public func contains(_ key: Key) -> Bool { slot(of: key) != nil }

    /// Inserts or replaces (keyed on the row's key); returns the row replaced.
    @inlinable @discardableResult
    public func upsert(_ row: Row) -> Row? {
        let key = Codec.key(of: row)
        let (slot, previous) = place(row, key: key)
        changes.append(Change(key: key, slot: slot, previous: previous, position: log.record(logNumber)))
        return previous
    }

    /// Removes the row with this key; returns it, or nil if there was none.
    @inlinable @discardableResult
    public func remove(_ key: Key) -> Row? {
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: key), let entry = slots[slot] else { return nil }
        slots[slot] = nil
        liveCount -= 1
        changeCount &+= 1
        changes.append(Change(key: key, slot: slot, previous: entry.row, position: log.record(logNumber)))
        return entry.row
    }

    // MARK: the transaction set's side

    public func undoLast() {
        guard let change = changes.popLast() else { return }
        if let previous = change.previous {
            restore(previous, key: change.key, slot: change.slot)
        } else {
            clear(slot: change.slot)
        }
    }

    public func pendingOperations() -> [(position: Int, operation: EncodedOperation)] {
        var seen = Set<Key>()
        var operations: [(Int, EncodedOperation)] = []
        for change in changes where seen.insert(change.key).inserted {
            operations.append((change.position, encode(key: change.key, row: self[change.key])))
        }
        return operations
    }

    public func framePendingOperations() -> FramedOperations { framePending(self) }

    @inlinable func framePendingSpecialized() -> FramedOperations {
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

    @inlinable func writeSnapshotSpecialized(committed: Bool, into writer: inout ByteWriter) -> Int {
        var count = 0
        func write(_ key: Key, _ row: Row, _ writer: inout ByteWriter) {
            RowFrame.part16(&writer) { Codec.encode(key: key, into: &$0) }
            RowFrame.part32(&writer) { Codec.encode(row, into: &$0) }
            count += 1
        }
        guard committed, !changes.isEmpty else {
            for case let entry? in slots { write(entry.key, entry.row, &writer) }
            return count
        }
        var original: [Int: Row?] = [:]
        for change in changes where original[change.slot] == nil { original[change.slot] = .some(change.previous) }
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
        var released: [String] = []
        for change in changes {
            guard let previous = change.previous else { continue }
            let now = self[change.key].map(Codec.blobs) ?? []
            released += Codec.blobs(of: previous).filter { !now.contains($0) }
        }
        return released
    }

    public func forgetChanges() {
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
        compactIfSparse()
    }

    public func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
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
        let end = reader.end
        for _ in 0..<count {
            _ = try reader.take(Int(try reader.u16()))  // the key: the row holds it too
            let length = Int(try reader.u32())
            let start = try reader.take(length)
            reader.reposition(to: start..<(start + length))
            let decoded = try Codec.decodeRow(from: &reader)
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
            reader.reposition(to: reader.position..<end)
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
                place(decoded, key: Codec.key(of: decoded))
            } else {
                reader.reposition(to: location.key)
                let key = try Codec.decodeKey(from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
                removeUnlogged(key)
            }
        }
    }

    public var referencedBlobs: Set<String> {
        var names = Set<String>()
        for case let entry? in slots { names.formUnion(Codec.blobs(of: entry.row)) }
        return names
    }

    public func reserveCapacity(_ capacity: Int) { slots.reserveCapacity(capacity) }

    public func removeAllRows() {
        slots.removeAll()
        builtIndex = nil
        liveCount = 0
        changes.removeAll()
        changeCount &+= 1
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
        if let slot = slot(of: key) {
            let previous = slots[slot]?.row
            slots[slot] = (key, row)
            return (slot, previous)
        }
        slots.append((key, row))
        builtIndex?[key] = slots.count - 1
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
        guard changes.isEmpty, slots.count > 1024, liveCount < slots.count / 2 else { return }
        slots = slots.filter { $0 != nil }
        builtIndex = nil
    }
}
