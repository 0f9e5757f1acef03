import ClosetCore

/// A table's changes since the last commit, each with what undoes it, logged with the
/// transaction set that owns the table so a failed statement rolls back across tables exactly.
@usableFromInline struct TableChanges<Codec: TableCodec> {
    @usableFromInline typealias Key = Codec.Key
    @usableFromInline typealias Row = Codec.Row

    /// One change since the last commit, with what undoes it.
    @usableFromInline struct Change {
        @usableFromInline var key: Key
        /// Its slot in the decoded rows (-1: made while the rows were still in the snapshot).
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

    @usableFromInline var changes: [Change] = []
    /// The rows changes replaced or removed, in the order of their changes.
    @usableFromInline var replacedRows: [Row] = []
    /// While the table, empty when the transaction began, has had only new rows: each one's
    /// transaction log position, by slot (its key is its slot's). A seed script's 100,000
    /// inserts were as many `Change`s; undoing one is dropping the last slot. The first
    /// other change turns these into `Change`s (`logInsertsAsChanges`).
    /// As runs of positions counting up (`ValueRuns`: a million-row import's log was 8 MB of
    /// them as `Int`s); a transaction of more changes than four bytes count logs the rest as
    /// `Change`s.
    @usableFromInline var insertsIntoEmpty: ValueRuns?
    /// The transaction log this table's changes go to, and this table's number in it (set
    /// when the table is registered with its transaction set).
    @usableFromInline var log = TransactionLog()
    @usableFromInline var logNumber = 0

    @inlinable init() {}

    /// No change logged, not even an insert into an empty table.
    @inlinable var isEmpty: Bool { changes.isEmpty && insertsIntoEmpty == nil }

    /// Logs a new row put into `slot`, by its position only while every change so far is an
    /// insert into a table that was empty; false when it must be logged as a `Change`.
    @inlinable mutating func logInsert(slot: Int) -> Bool {
        if insertsIntoEmpty == nil, slot == 0, changes.isEmpty { insertsIntoEmpty = ValueRuns(step: 1) }
        guard insertsIntoEmpty?.count == slot, log.entries.count < UInt32.max else { return false }
        insertsIntoEmpty?.append(UInt32(truncatingIfNeeded: log.record(logNumber)))
        return true
    }

    /// The inserts into an empty table as ordinary changes (see `insertsIntoEmpty`); read
    /// before any slot is emptied, since their keys are read from their slots.
    @inlinable mutating func logInsertsAsChanges(_ rows: SlotRows<Codec>) {
        guard let positions = insertsIntoEmpty else { return }
        insertsIntoEmpty = nil
        changes.reserveCapacity(changes.count + positions.count)
        // Every slot is filled: nothing is removed while inserts into an empty table wait here.
        for (slot, position) in positions.enumerated() {
            if let entry = rows.slots[slot] {
                changes.append(Change(key: entry.key, slot: slot, replaced: -1, position: Int(position)))
            }
        }
    }

    @inlinable mutating func log(_ key: Key, slot: Int, previous: Row?, rows: SlotRows<Codec>) {
        // A replaced row keeps its key, so the inserts are read right after it is placed.
        logInsertsAsChanges(rows)
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

    /// Room for `count` more changes (or inserts into an empty table).
    mutating func reserve(_ count: Int) {
        if let inserts = insertsIntoEmpty?.count {
            insertsIntoEmpty?.reserveCapacity(inserts + count)
        } else {
            changes.reserveCapacity(changes.count + count)
        }
        log.reserve(count)
    }

    /// Takes the last change off the log, with the row it replaced.
    mutating func popLast() -> (change: Change, previous: Row?)? {
        guard let change = changes.popLast() else { return nil }
        // Changes are undone last first, so a replaced row is the last one kept.
        return (change, change.replaced >= 0 ? replacedRows.removeLast() : nil)
    }

    /// Each changed slot's row before its first change (nil: it had none).
    @inlinable func originalRows() -> [Int: Row?] {
        var original: [Int: Row?] = [:]
        for change in changes where original[change.slot] == nil { original[change.slot] = .some(previous(of: change)) }
        return original
    }

    mutating func forget() {
        if !changes.isEmpty { changes.removeAll(keepingCapacity: true) }
        if !replacedRows.isEmpty { replacedRows.removeAll(keepingCapacity: true) }
        insertsIntoEmpty = nil
    }
}
