import Foundation

/// Rows keyed by UUID that remember insertion order, with O(1) insert, replace, remove and
/// undo. Removal leaves a hole that `compactIfSparse()` closes; undo puts a row back into its
/// own slot, so order survives any mix of statements and rollbacks.
///
/// The id index is built on first use: opening a store appends every row of the snapshot
/// without hashing 100,000 ids, and a query that never looks one up never pays for it.
final class OrderedTable<Row> {
    private(set) var slots: [(id: UUID, row: Row)?] = []
    private var builtIndex: [UUID: Int]?
    private var liveCount = 0

    var count: Int { liveCount }

    /// Builds the index if needed. Callers then read and write `builtIndex` in place (a
    /// computed wrapper would copy the whole dictionary on every write).
    private func ensureIndex() {
        guard builtIndex == nil else { return }
        var index: [UUID: Int] = [:]
        index.reserveCapacity(liveCount)
        for (slot, entry) in slots.enumerated() { if let entry { index[entry.id] = slot } }
        builtIndex = index
    }

    private func slot(of id: UUID) -> Int? {
        ensureIndex()
        return builtIndex?[id]
    }

    subscript(id: UUID) -> Row? {
        guard let slot = slot(of: id) else { return nil }
        return slots[slot]?.row
    }

    var rows: [Row] { slots.compactMap { $0?.row } }

    func reserveCapacity(_ capacity: Int) { slots.reserveCapacity(capacity) }

    /// Appends a row known to be new (a snapshot's rows are distinct), without the index.
    func appendLoaded(_ row: Row, id: UUID) {
        slots.append((id, row))
        builtIndex?[id] = slots.count - 1
        liveCount += 1
    }

    /// Inserts or replaces; returns the slot used and the row replaced.
    @discardableResult
    func upsert(_ row: Row, id: UUID) -> (slot: Int, previous: Row?) {
        if let slot = slot(of: id) {
            let previous = slots[slot]?.row
            slots[slot] = (id, row)
            return (slot, previous)
        }
        slots.append((id, row))
        builtIndex?[id] = slots.count - 1
        liveCount += 1
        return (slots.count - 1, nil)
    }

    @discardableResult
    func remove(id: UUID) -> (slot: Int, row: Row)? {
        ensureIndex()
        guard let slot = builtIndex?.removeValue(forKey: id), let entry = slots[slot] else { return nil }
        slots[slot] = nil
        liveCount -= 1
        return (slot, entry.row)
    }

    /// Undo helpers: put a row back in a given slot, or empty it.
    func restore(_ row: Row, id: UUID, slot: Int) {
        if slots[slot] == nil { liveCount += 1 }
        slots[slot] = (id, row)
        ensureIndex()
        builtIndex?[id] = slot
    }

    func clear(slot: Int) {
        if let id = slots[slot]?.id {
            ensureIndex()
            builtIndex?.removeValue(forKey: id)
            liveCount -= 1
        }
        // Undo is last-in first-out, so an undone insert is the last slot: drop it rather
        // than leave a hole. Earlier holes stay: older undo entries may refill them.
        if slot == slots.count - 1 { slots.removeLast() } else { slots[slot] = nil }
    }

    /// Closes holes once they are worth it. Only safe when nothing refers to slots (no undo log).
    func compactIfSparse() {
        guard slots.count > 1024, liveCount < slots.count / 2 else { return }
        slots = slots.filter { $0 != nil }
        builtIndex = nil
    }
}
