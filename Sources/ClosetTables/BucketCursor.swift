import ClosetCore

/// Walks one bucket of a snapshot's index in either direction, skipping given rows (or keeping
/// only given ones). The
/// bucket is stored by order key descending, equal keys the later-added first; walked
/// backwards that is the exact ascending order.
public struct BucketCursor {
    let rows: SnapshotRows
    let bucket: Int
    let descending: Bool
    let skipping: Set<Int>
    /// Members hidden by the level below the snapshot (skipped as well).
    let hiding: OrdinalSet?
    /// Nil: every member not skipped.
    let keeping: OrdinalSet?
    /// Each row's position in insertion order, for rows of the level below (nil: the ordinal).
    let positions: [Int]?
    let size: Int
    /// How many members have been stepped over, from the walk's start.
    var taken = 0
    /// How many of them have had their entries' pages given back (see `advance`).
    var released = 0
    /// Entries passed before their pages are given back: a walk of a whole bucket (an export,
    /// a listing of every row) would otherwise keep every entry it read, twenty bytes a row
    /// (200 MB at ten million rows), while a page of twenty never gives any back.
    static let releaseEvery = 8192
    /// The member the walk stands on: its ordinal, order key and where its frame starts
    /// (nil: from the offsets column, format 4).
    public private(set) var head: (ordinal: Int, order: Int64, offset: Int?)?

    /// `after`: start past every member whose order key is not strictly after it in the walk's
    /// direction (found by binary search: keyset paging over a unique order key).
    public init(
        rows: SnapshotRows, bucket: Int, descending: Bool, skipping: Set<Int>, keeping: OrdinalSet? = nil,
        after: Int64? = nil, hiding: OrdinalSet? = nil, positions: [Int]? = nil
    ) {
        self.rows = rows
        self.bucket = bucket
        self.descending = descending
        self.skipping = skipping
        self.keeping = keeping
        self.hiding = hiding
        self.positions = positions
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

    /// Whether the walk skips no member, so `jump` may step over many at once.
    public var walksEveryMember: Bool { skipping.isEmpty && keeping == nil && hiding == nil }

    /// Steps over `count` members at once, from the one it stands on; only for a walk that
    /// skips no ordinals (each member's place is then its position).
    public mutating func jump(_ count: Int) {
        guard count > 0, head != nil else { return }
        precondition(walksEveryMember, "a jump over skipped members")
        taken = min(size, taken - 1 + count)
        advance()
    }

    /// Where the member the walk stands on stands in insertion order (its ordinal in a
    /// snapshot's section, its position in the level below's).
    public var headPosition: Int {
        guard let ordinal = head?.ordinal else { return -1 }
        return positions?[ordinal] ?? ordinal
    }

    /// Where the walk stands in the bucket, in walk order: the member it stands on, else past
    /// the last one. `resume(at:)` stands it there again.
    public var place: Int { head == nil ? taken : taken - 1 }

    /// Stands on the first member from `place` on (in walk order) that the walk does not skip:
    /// where a walk that stood at `place` stood (`IndexedRowList` re-reads its rows this way).
    public mutating func resume(at place: Int) {
        taken = min(max(0, place), size)
        released = taken
        advance()
    }

    /// The members left, the one it stands on included (for a walk that skips no ordinals).
    public var remainingCount: Int { head == nil ? 0 : size - (taken - 1) }

    /// How many members from the one it stands on come before `key` in the walk, by
    /// `precedes` on (order key, position in insertion order): found by binary search (the
    /// members are in walk order).
    public func countPreceding(_ key: (Int64, Int), _ precedes: ((Int64, Int), (Int64, Int)) -> Bool) -> Int {
        guard head != nil else { return 0 }
        var (low, high) = (taken - 1, size)
        while low < high {
            let middle = (low + high) / 2
            let member = rows.bucketMember(bucket, descending ? middle : size - 1 - middle)
            let position = positions?[member.ordinal] ?? member.ordinal
            if precedes((member.order, position), key) { low = middle + 1 } else { high = middle }
        }
        return low - (taken - 1)
    }

    public mutating func advance() {
        if taken - released >= Self.releaseEvery {
            rows.releaseBucketEntries(bucket, descending ? released..<taken : (size - taken)..<(size - released))
            released = taken
        }
        while taken < size {
            let member = rows.bucketMember(bucket, descending ? taken : size - 1 - taken)
            taken += 1
            if keeping?.contains(member.ordinal) ?? true, !skipping.contains(member.ordinal),
                !(hiding?.contains(member.ordinal) ?? false)
            {
                head = member
                return
            }
        }
        head = nil
    }

    /// Whether an order key comes strictly after `after` in a walk's direction (nil: all do).
    @inlinable public static func isAfter(_ order: Int64, _ after: Int64?, _ descending: Bool) -> Bool {
        guard let after else { return true }
        return descending ? order < after : order > after
    }
}
