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
    struct Change {
        var key: Key
        var slot: Int
        /// The row before the change (nil: there was none).
        var previous: Row?
        /// The transaction log position, to order changes across tables.
        var position: Int
    }

    public let name: String
    private(set) var slots: [(key: Key, row: Row)?] = []
    private var builtIndex: [Key: Int]?
    private var liveCount = 0
    private var changes: [Change] = []
    /// Changes whenever a row changes (rollbacks included): views can skip fetching what
    /// they already have.
    public private(set) var revision = 0
    /// The transaction set this table logs into (set when it is registered).
    weak var owner: Tables?

    init(name: String) { self.name = name }

    public var count: Int { liveCount }

    /// Every row in insertion order.
    public var rows: [Row] { slots.compactMap { $0?.row } }

    /// Visits every row in insertion order without building an array.
    public func forEach(_ body: (Row) throws -> Void) rethrows {
        for case let entry? in slots { try body(entry.row) }
    }

    public subscript(key: Key) -> Row? {
        guard let slot = slot(of: key) else { return nil }
        return slots[slot]?.row
    }

    public func contains(_ key: Key) -> Bool { slot(of: key) != nil }

    /// Inserts or replaces (keyed on the row's key); returns the row replaced.
    @discardableResult
    public func upsert(_ row: Row) -> Row? {
        let key = Codec.key(of: row)
        let (slot, previous) = place(row, key: key)
        log(Change(key: key, slot: slot, previous: previous, position: 0))
        return previous
    }

    /// Removes the row with this key; returns it, or nil if there was none.
    @discardableResult
    public func remove(_ key: Key) -> Row? {
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: key), let entry = slots[slot] else { return nil }
        slots[slot] = nil
        liveCount -= 1
        revision &+= 1
        log(Change(key: key, slot: slot, previous: entry.row, position: 0))
        return entry.row
    }

    private func log(_ change: Change) {
        var change = change
        change.position = owner?.logChange(of: self) ?? 0
        changes.append(change)
    }

    // MARK: the transaction set's side

    public func undoLast() {
        guard let change = changes.popLast() else { return }
        if let previous = change.previous { restore(previous, key: change.key, slot: change.slot) } else { clear(slot: change.slot) }
    }

    public func pendingOperations() -> [(position: Int, operation: EncodedOperation)] {
        var seen = Set<Key>()
        var operations: [(Int, EncodedOperation)] = []
        for change in changes where seen.insert(change.key).inserted {
            operations.append((change.position, encode(key: change.key, row: self[change.key])))
        }
        return operations
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

    public func snapshot(committed: Bool) -> [EncodedOperation] {
        guard committed, !changes.isEmpty else {
            return slots.compactMap { entry in entry.map { encode(key: $0.key, row: $0.row) } }
        }
        // The committed state: each touched slot as it was before its first change.
        var original: [Int: Row?] = [:]
        for change in changes where original[change.slot] == nil { original[change.slot] = .some(change.previous) }
        var operations: [EncodedOperation] = []
        for (slot, entry) in slots.enumerated() {
            if let before = original[slot] {
                if let row = before { operations.append(encode(key: Codec.key(of: row), row: row)) }
            } else if let entry {
                operations.append(encode(key: entry.key, row: entry.row))
            }
        }
        return operations
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

    /// Appends a row known to be new (a snapshot's rows are distinct), without the index.
    public func loadSnapshotRow(_ bytes: [UInt8], key: Range<Int>, row: Range<Int>) throws(ByteReader.Malformed) {
        var reader = ByteReader(bytes, from: row.lowerBound, to: row.upperBound)
        let decoded = try Codec.decodeRow(from: &reader)
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        let key = Codec.key(of: decoded)
        slots.append((key, decoded))
        builtIndex?[key] = slots.count - 1
        liveCount += 1
        revision &+= 1
    }

    public var referencedBlobs: Set<String> {
        var names = Set<String>()
        for case let entry? in slots { names.formUnion(Codec.blobs(of: entry.row)) }
        return names
    }

    public func reserveCapacity(_ capacity: Int) { slots.reserveCapacity(capacity) }

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
    private func ensureIndex() {
        guard builtIndex == nil else { return }
        var index: [Key: Int] = [:]
        index.reserveCapacity(liveCount)
        for (slot, entry) in slots.enumerated() { if let entry { index[entry.key] = slot } }
        builtIndex = index
    }

    private func slot(of key: Key) -> Int? {
        ensureIndex()
        return builtIndex?[key]
    }

    @discardableResult
    private func place(_ row: Row, key: Key) -> (slot: Int, previous: Row?) {
        revision &+= 1
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

    private func removeUnlogged(_ key: Key) {
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: key), slots[slot] != nil else { return }
        slots[slot] = nil
        liveCount -= 1
        revision &+= 1
    }

    private func restore(_ row: Row, key: Key, slot: Int) {
        revision &+= 1
        if slots[slot] == nil { liveCount += 1 }
        slots[slot] = (key, row)
        ensureIndex()
        builtIndex?[key] = slot
    }

    private func clear(slot: Int) {
        revision &+= 1
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
