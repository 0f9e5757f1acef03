import ClosetCore

/// A table's rows still in a mapped snapshot, and the journal's changes over them (see
/// `Table.lazy`). `latest` answers lookups and index queries; `operations` replays the
/// changes in order when the table is materialized, so the result is the same as if every
/// row had been decoded at open.
public final class LazyRows<Codec: TableCodec> {
    @usableFromInline let base: SnapshotRows
    @usableFromInline var operations: [(key: Codec.Key, row: Codec.Row?)] = []
    @usableFromInline var latest: [Codec.Key: Entry] = [:]
    @usableFromInline var liveCount: Int
    /// Rows put at the end so far (new keys, or keys back after a removal).
    @usableFromInline var appended = 0
    /// How many of `operations` are placed in `latest`. The journal's changes read at open
    /// are placed together the first time the table is asked anything (`Table.settle`), their
    /// keys looked up in the snapshot in key order: opening after many small commits costs
    /// one pass, not a search per row.
    @usableFromInline var placed = 0
    /// The last key looked up in the snapshot, and its row there (see `Table.baseRow`).
    @usableFromInline var lastBaseRow: (key: Codec.Key, found: (ordinal: Int, row: Codec.Row)?)?

    /// The latest state of a key the journal touched.
    @usableFromInline struct Entry {
        /// Its row now; nil once removed.
        @usableFromInline var row: Codec.Row?
        /// Its row in the snapshot, if it had one.
        @usableFromInline var baseOrdinal: Int?
        /// Where it stands in insertion order (a snapshot ordinal, or after every snapshot row).
        @usableFromInline var position: Int

        @inlinable init(row: Codec.Row?, baseOrdinal: Int?, position: Int) {
            self.row = row
            self.baseOrdinal = baseOrdinal
            self.position = position
        }
    }

    /// What each pending (uncommitted) change replaced, newest last, to undo it exactly.
    @usableFromInline var undo: [SavedState] = []

    @usableFromInline struct SavedState {
        @usableFromInline var key: Codec.Key
        @usableFromInline var entry: Entry?
        @usableFromInline var operations: Int
        @usableFromInline var liveCount: Int
        @usableFromInline var appended: Int

        @inlinable init(key: Codec.Key, entry: Entry?, operations: Int, liveCount: Int, appended: Int) {
            self.key = key
            self.entry = entry
            self.operations = operations
            self.liveCount = liveCount
            self.appended = appended
        }
    }

    @inlinable func savedState(of key: Codec.Key) -> SavedState {
        SavedState(
            key: key, entry: latest[key], operations: operations.count, liveCount: liveCount, appended: appended)
    }

    @inlinable func restore(_ saved: SavedState) {
        latest[saved.key] = saved.entry
        operations.removeLast(operations.count - saved.operations)
        placed = min(placed, operations.count)
        liveCount = saved.liveCount
        appended = saved.appended
    }

    @usableFromInline init(base: SnapshotRows) {
        self.base = base
        liveCount = base.count
    }
}

/// Walks one bucket of a snapshot's index in either direction, skipping given rows. The
/// bucket is stored by order key descending, equal keys the later-added first; walked
/// backwards that is the exact ascending order.
public struct BucketCursor {
    let rows: SnapshotRows
    let bucket: Int
    let descending: Bool
    let skipping: Set<Int>
    let size: Int
    /// How many members have been stepped over, from the walk's start.
    var taken = 0
    /// The member the walk stands on: its ordinal, order key and where its frame starts
    /// (nil: from the offsets column, format 4).
    public private(set) var head: (ordinal: Int, order: Int64, offset: Int?)?

    /// `after`: start past every member whose order key is not strictly after it in the walk's
    /// direction (found by binary search: keyset paging over a unique order key).
    public init(rows: SnapshotRows, bucket: Int, descending: Bool, skipping: Set<Int>, after: Int64? = nil) {
        self.rows = rows
        self.bucket = bucket
        self.descending = descending
        self.skipping = skipping
        size = rows.bucketSize(bucket)
        if let after {
            // Members in walk order; the first one strictly after `after`.
            var (low, high) = (0, size)
            while low < high {
                let middle = (low + high) / 2
                let order = rows.bucketMember(bucket, descending ? middle : size - 1 - middle).order
                if descending ? order < after : order > after { high = middle } else { low = middle + 1 }
            }
            taken = low
        }
        advance()
    }

    /// Steps over `count` members at once, from the one it stands on; only for a walk that
    /// skips no ordinals (each member's place is then its position).
    public mutating func jump(_ count: Int) {
        guard count > 0, head != nil else { return }
        precondition(skipping.isEmpty, "a jump over skipped members")
        taken = min(size, taken - 1 + count)
        advance()
    }

    /// The members left, the one it stands on included (for a walk that skips no ordinals).
    public var remainingCount: Int { head == nil ? 0 : size - (taken - 1) }

    /// How many members from the one it stands on come before `key` in the walk, by
    /// `precedes` on (order key, ordinal): found by binary search (the members are in walk order).
    public func countPreceding(_ key: (Int64, Int), _ precedes: ((Int64, Int), (Int64, Int)) -> Bool) -> Int {
        guard head != nil else { return 0 }
        var (low, high) = (taken - 1, size)
        while low < high {
            let middle = (low + high) / 2
            let member = rows.bucketMember(bucket, descending ? middle : size - 1 - middle)
            if precedes((member.order, member.ordinal), key) { low = middle + 1 } else { high = middle }
        }
        return low - (taken - 1)
    }

    public mutating func advance() {
        while taken < size {
            let member = rows.bucketMember(bucket, descending ? taken : size - 1 - taken)
            taken += 1
            if !skipping.contains(member.ordinal) {
                head = member
                return
            }
        }
        head = nil
    }
}
