import ClosetTables

/// When a store writes a new snapshot instead of appending to its journal, when a first
/// commit is written as the snapshot itself, and when to try again after a compaction failed.
struct CompactionPolicy {
    /// Compact once replaying the journal costs more than reading the snapshot and this floor:
    /// journal rows are decoded at every open, snapshot rows only when shown.
    static let floor = 256 << 10
    /// What replaying one record costs beyond its bytes, in bytes' worth: many small commits
    /// make a slow journal before a big one.
    static let costPerRecord = 256
    /// Compact once the journal holds more changes than this share of the snapshot's rows
    /// (and at least `floorChanges`): each is looked up in the snapshot when the store opens
    /// (a search that checks a block or two at random, ~4 µs), while a compaction that copies
    /// unchanged rows as bytes costs ~0.25 µs a row. So a store written by many small commits
    /// opens about as fast as a compacted one, and the copy costs each commit about as much as
    /// a thousandth of the snapshot's rows.
    static let journalShare = 1024
    static let floorChanges = 256
    /// A first commit at least this big is written as the snapshot itself, not journaled and
    /// then compacted (written twice).
    static let snapshotCommitSize = 64 << 10
    /// What a change is taken to weigh for that rule (a wardrobe row is about 60 bytes), so
    /// the commit need not be framed to be measured.
    static let bytesPerChange = 64

    /// After this process's compaction, whether its tables are read again from the new
    /// snapshot: the changes kept beside the old one (every change since the store was opened)
    /// are let go, while rows decoded into memory are decoded again when next needed. So it
    /// is done when those changes are at least an eighth of the decoded rows: a long-lived
    /// process holds no more than that, and decodes again at most eight rows a change. Rows
    /// moved to a scratch file are always let go: the snapshot now holds them, read in place.
    static func readsNewSnapshot(_ held: RowsInMemory) -> Bool {
        held.spilledRows > 0
            || (held.changesBesideSnapshot > 0 && held.changesBesideSnapshot * 8 >= held.decodedRows)
    }

    /// A compaction writes the level below the snapshot (`DeltaFile`: the rows changed since
    /// the snapshot, and the snapshot rows they hide) instead of the whole snapshot while that
    /// level stays within this share of the snapshot's rows: each compaction then writes what
    /// changed since the snapshot, and the snapshot is rewritten once every share's worth of
    /// changes. An eighth keeps reads that merge the level (a listing, a count's buckets) within
    /// a few percent of a compacted store's.
    static let deltaShare = 8
    /// Below this many rows the whole snapshot is small: it is written whole.
    static let deltaFloor = 4096

    /// Whether a level of `rows` changed rows and hidden snapshot rows is written instead of
    /// the whole snapshot of `snapshotRows` rows.
    static func writesDelta(rows: Int, snapshotRows: Int) -> Bool {
        snapshotRows >= deltaFloor && rows * deltaShare <= snapshotRows
    }

    /// After a compaction failed (a full disk), the journal's cost at which to try again.
    private(set) var nextAttempt = 0
    /// After a compaction failed: the journal changes it waits for before trying again.
    private(set) var nextChanges = 0

    /// Whether a transaction's `changes` go straight into a new snapshot: the store's first
    /// commit, big enough, on a store that needs no upgrade and has not failed to compact.
    func writesAsSnapshot(_ view: StoreView, changes: Int, upgrading: Bool) -> Bool {
        view.transactions == 0 && !upgrading && nextAttempt == 0
            && changes * Self.bytesPerChange >= max(Self.snapshotCommitSize, view.snapshotLength)
    }

    /// What replaying the journal at open costs, in bytes' worth.
    static func cost(_ view: StoreView) -> Int { view.validLength + costPerRecord * view.transactions }

    /// Whether appending a record of `changes` changes and `bytes` bytes would make the store
    /// due to compact: the commit is then written as the new snapshot itself, its rows once
    /// (not synced in the journal, then copied into the snapshot).
    func isDue(_ view: StoreView, appending changes: Int, bytes: Int) -> Bool {
        var after = view
        after.journalChanges += changes
        after.validLength += bytes
        after.transactions += 1
        return isDue(after)
    }

    /// Whether the store should compact after the commit just made.
    func isDue(_ view: StoreView) -> Bool {
        let manyChanges =
            view.journalChanges > max(Self.floorChanges, view.snapshotRows / Self.journalShare)
            && view.journalChanges > nextChanges
        return Self.cost(view) > max(Self.floor, view.snapshotLength, nextAttempt) || manyChanges
    }

    mutating func succeeded() {
        nextAttempt = 0
        nextChanges = 0
    }

    /// A compaction failed when the journal cost `cost`: it is tried again once the journal has
    /// grown. Returns whether this is the first failure in a row (reported once).
    mutating func failed(cost: Int, _ view: StoreView) -> Bool {
        let first = nextAttempt == 0
        nextAttempt = cost + Self.floor
        nextChanges = view.journalChanges + Self.floorChanges
        return first
    }

    /// A first commit could not be written as the snapshot (it went to the journal).
    mutating func snapshotCommitFailed(_ view: StoreView) { nextAttempt = view.validLength + Self.floor }
}
