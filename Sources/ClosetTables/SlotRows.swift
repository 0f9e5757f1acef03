import ClosetCore

/// A table's decoded rows in insertion order, one slot each. Removal leaves a hole that
/// `compactIfSparse` closes once nothing refers to slots; undo puts a row back into its own
/// slot, so order survives any mix of statements and rollbacks.
///
/// The key index is built on first use: opening a store appends every row of the snapshot
/// without hashing 100,000 keys, and a query that never looks one up never pays for it.
@usableFromInline struct SlotRows<Codec: TableCodec> {
    @usableFromInline typealias Key = Codec.Key
    @usableFromInline typealias Row = Codec.Row

    @usableFromInline var slots: [(key: Key, row: Row)?] = []
    /// Callers read and write it in place after `ensureIndex()` (a computed wrapper would copy
    /// the whole index on every write).
    @usableFromInline var keyIndex: SlotIndex?
    @usableFromInline var liveCount = 0
    /// Slots by bucket of the table's index, each by order key descending (ties: later slot
    /// first), for the table revision they were sorted at: built when first asked for after a
    /// change, so paging through decoded rows sorts once, not once per page.
    @usableFromInline var sortedBuckets: (revision: Int, lists: [[Int]])?

    @inlinable init() {}

    @inlinable mutating func ensureIndex() {
        guard keyIndex == nil else { return }
        var index = SlotIndex(capacity: liveCount)
        for (slot, entry) in slots.enumerated() {
            if let entry { index.insertNew(SlotIndex.hash(entry.key), slot: slot) }
        }
        keyIndex = index
    }

    /// Room for `count` more rows and their keys.
    mutating func reserve(_ count: Int) {
        slots.reserveCapacity(slots.count + count)
        ensureIndex()
        let indexed = keyIndex?.count ?? 0
        keyIndex?.reserve(indexed + count)
    }

    /// Where the index files `key` (`ensureIndex()` first), and its slot if it has one.
    @inlinable func find(_ key: Key, hash: UInt32) -> (position: Int, slot: Int?) {
        keyIndex?.find(hash) { slots[$0]?.key == key } ?? (0, nil)
    }

    @inlinable mutating func slot(of key: Key) -> Int? {
        ensureIndex()
        return find(key, hash: SlotIndex.hash(key)).slot
    }

    @inlinable func row(at slot: Int) -> Row? { slots[slot]?.row }

    /// Inserts or replaces in place; returns the slot and the row replaced.
    @inlinable @discardableResult
    mutating func place(_ row: Row, key: Key) -> (slot: Int, previous: Row?) {
        ensureIndex()
        keyIndex?.makeRoom()
        let hash = SlotIndex.hash(key)
        let (position, found) = find(key, hash: hash)
        if let slot = found {
            let previous = slots[slot]?.row
            slots[slot] = (key, row)
            return (slot, previous)
        }
        keyIndex?.insert(hash, slot: slots.count, at: position)
        slots.append((key, row))
        liveCount += 1
        return (slots.count - 1, nil)
    }

    /// Appends a row known to be new, without the index (a snapshot's rows are distinct).
    @inlinable mutating func append(_ key: Key, _ row: Row) {
        keyIndex?.insertNew(SlotIndex.hash(key), slot: slots.count)
        slots.append((key, row))
        liveCount += 1
    }

    /// Empties the key's slot; returns the slot and its row, or nil if the key has none.
    @inlinable @discardableResult
    mutating func remove(_ key: Key) -> (slot: Int, row: Row)? {
        ensureIndex()
        let (position, found) = find(key, hash: SlotIndex.hash(key))
        guard let slot = found, let entry = slots[slot] else { return nil }
        keyIndex?.remove(at: position)
        slots[slot] = nil
        liveCount -= 1
        return (slot, entry.row)
    }

    /// Puts an undone change's row back into its own slot.
    mutating func restore(_ row: Row, key: Key, slot: Int) {
        if slots[slot] == nil { liveCount += 1 }
        ensureIndex()
        keyIndex?.makeRoom()
        let hash = SlotIndex.hash(key)
        let (position, found) = find(key, hash: hash)
        if found != nil {
            keyIndex?.update(at: position, slot: slot)
        } else {
            keyIndex?.insert(hash, slot: slot, at: position)
        }
        slots[slot] = (key, row)
    }

    /// Empties a slot an undone insert filled.
    mutating func clear(slot: Int) {
        if let key = slots[slot]?.key {
            ensureIndex()
            let (position, found) = find(key, hash: SlotIndex.hash(key))
            if found != nil { keyIndex?.remove(at: position) }
            liveCount -= 1
        }
        // Undo is last-in first-out, so an undone insert is the last slot: drop it rather
        // than leave a hole. Earlier holes stay: older undo entries may refill them.
        if slot == slots.count - 1 { slots.removeLast() } else { slots[slot] = nil }
    }

    /// Closes holes once they are worth it. Only safe when nothing refers to slots (no changes).
    mutating func compactIfSparse() {
        guard slots.count > 1024, liveCount < slots.count / 2 else { return }
        slots = slots.filter { $0 != nil }
        keyIndex = nil
    }

    /// Empties the rows (moved to a scratch file), keeping the room they took for the next.
    @inlinable mutating func removeAllKeepingCapacity() {
        slots.removeAll(keepingCapacity: true)
        keyIndex?.removeAll(keepingCapacity: true)
        liveCount = 0
        sortedBuckets = nil
    }

    mutating func removeAll() {
        slots.removeAll()
        keyIndex = nil
        liveCount = 0
        sortedBuckets = nil
    }
}
