import Foundation

/// Rows keyed by UUID that remember insertion order, with O(1) insert, replace, remove and
/// undo. Removal leaves a hole that `compact()` closes; undo puts a row back into its own slot,
/// so order survives any mix of statements and rollbacks.
struct OrderedTable<Row> {
    private(set) var slots: [(id: UUID, row: Row)?] = []
    private(set) var index: [UUID: Int] = [:]

    var count: Int { index.count }

    mutating func reserveCapacity(_ capacity: Int) {
        slots.reserveCapacity(capacity)
        index.reserveCapacity(capacity)
    }

    subscript(id: UUID) -> Row? {
        guard let slot = index[id] else { return nil }
        return slots[slot]?.row
    }

    var rows: [Row] { slots.compactMap { $0?.row } }

    /// Inserts or replaces; returns the slot used and the row replaced.
    @discardableResult
    mutating func upsert(_ row: Row, id: UUID) -> (slot: Int, previous: Row?) {
        if let slot = index[id] {
            let previous = slots[slot]?.row
            slots[slot] = (id, row)
            return (slot, previous)
        }
        slots.append((id, row))
        index[id] = slots.count - 1
        return (slots.count - 1, nil)
    }

    @discardableResult
    mutating func remove(id: UUID) -> (slot: Int, row: Row)? {
        guard let slot = index.removeValue(forKey: id), let entry = slots[slot] else { return nil }
        slots[slot] = nil
        return (slot, entry.row)
    }

    /// Undo helpers: put a row back in a given slot, or empty it.
    mutating func restore(_ row: Row, id: UUID, slot: Int) {
        slots[slot] = (id, row)
        index[id] = slot
    }

    mutating func clear(slot: Int) {
        if let id = slots[slot]?.id { index.removeValue(forKey: id) }
        // Undo is last-in first-out, so an undone insert is the last slot: drop it rather
        // than leave a hole. Earlier holes stay: older undo entries may refill them.
        if slot == slots.count - 1 { slots.removeLast() } else { slots[slot] = nil }
    }

    /// Closes holes once they are worth it. Only safe when nothing refers to slots (no undo log).
    mutating func compactIfSparse() {
        guard slots.count > 1024, index.count < slots.count / 2 else { return }
        slots = slots.filter { $0 != nil }
        index.removeAll(keepingCapacity: true)
        for (slot, entry) in slots.enumerated() { if let entry { index[entry.id] = slot } }
    }
}
