import ClosetCore

/// A walk of a snapshot's index over groups of buckets (`Table.indexWalk`): group after group,
/// each group's buckets merged by order key with the journal's rows among them, the snapshot's
/// rows the journal replaced skipped (and, under a test, only the ones that pass kept). Kept
/// whole so that `IndexedRowList` can stand its cursors again where the walk stood them.
@usableFromInline struct IndexWalk<Codec: TableCodec> {
    @usableFromInline typealias Row = Codec.Row
    @usableFromInline let lazy: LazyRows<Codec>
    /// Each group's buckets, only those of the index and each once: at most 256, so which of a
    /// group's cursors gave a row is a byte.
    @usableFromInline let groups: [[Int]]
    @usableFromInline let descending: Bool
    @usableFromInline let after: Int64?
    /// The snapshot rows the journal replaced or removed.
    @usableFromInline let replaced: Set<Int>
    /// Nil: every row; else the only snapshot rows kept.
    @usableFromInline let found: OrdinalSet?
    /// The same of the level below's rows (`DeltaRows`), when there is one: a group's cursors
    /// are then its buckets' in the snapshot, then the same buckets' in the level below.
    @usableFromInline let deltaReplaced: Set<Int>
    @usableFromInline let deltaFound: OrdinalSet?
    /// The journal's rows (passing the test and after `after`), in walk order.
    @usableFromInline let changed: [(order: Int64, position: Int, bucket: Int, row: Row)]

    @inlinable init(
        lazy: LazyRows<Codec>, groups: [[Int]], bucketCount: Int, descending: Bool, after: Int64?,
        replaced: Set<Int>, found: OrdinalSet?, changed: [(order: Int64, position: Int, bucket: Int, row: Row)],
        deltaReplaced: Set<Int> = [], deltaFound: OrdinalSet? = nil
    ) {
        self.deltaReplaced = deltaReplaced
        self.deltaFound = deltaFound
        self.lazy = lazy
        self.groups = groups.map { group in
            var seen = Set<Int>()
            return group.filter { (0..<bucketCount).contains($0) && seen.insert($0).inserted }
        }
        self.descending = descending
        self.after = after
        self.replaced = replaced
        self.found = found
        self.changed = changed.sorted { Self.precedes(($0.order, $0.position), ($1.order, $1.position), descending) }
    }

    /// Descending: larger keys first, equal keys the later-added first; ascending: the reverse.
    @inlinable static func precedes(_ a: (Int64, Int), _ b: (Int64, Int), _ descending: Bool) -> Bool {
        descending ? (a.0 != b.0 ? a.0 > b.0 : a.1 > b.1) : (a.0 != b.0 ? a.0 < b.0 : a.1 < b.1)
    }

    /// One cursor for each of a group's buckets, standing on its first member; then, with a
    /// level below the snapshot, one for each of the same buckets there.
    @inlinable func cursors(ofGroup group: Int) -> [BucketCursor] {
        let delta = lazy.delta
        let hiding = delta.flatMap { $0.hiddenCount > 0 ? $0.hiddenSet : nil }
        let base = groups[group].map {
            BucketCursor(
                rows: lazy.base, bucket: $0, descending: descending, skipping: replaced, keeping: found, after: after,
                hiding: hiding)
        }
        guard let delta else { return base }
        let positions = delta.positions
        return base
            + groups[group].map {
                BucketCursor(
                    rows: delta.rows, bucket: $0, descending: descending, skipping: deltaReplaced, keeping: deltaFound,
                    after: after, positions: positions)
            }
    }

    /// How many cursors a group's walk has (`cursors(ofGroup:)`).
    @inlinable func cursorCount(ofGroup group: Int) -> Int { groups[group].count * (lazy.delta == nil ? 1 : 2) }

    /// How many cursors a group's walk has at most (a step of `IndexedRowList` is a byte).
    @inlinable var mostCursors: Int { groups.indices.map(cursorCount(ofGroup:)).max() ?? 0 }

    /// The rows picked, from the first `skip` on, at most `limit`, handed over `batch` at a
    /// time: a journal row as it is, a snapshot row by where the walk found it.
    @inlinable func walk(skip: Int, limit: Int, batch: Int, _ emit: ([IndexPick<Row>]) -> Void) {
        let descending = descending
        func precedes(_ a: (Int64, Int), _ b: (Int64, Int)) -> Bool { Self.precedes(a, b, descending) }
        var picked: [IndexPick<Row>] = []
        func flush() {
            guard !picked.isEmpty else { return }
            emit(picked)
            picked.removeAll(keepingCapacity: true)
        }
        var remaining = max(0, limit)
        var toSkip = max(0, skip)
        for (groupNumber, group) in groups.enumerated() where remaining > 0 {
            var cursors = cursors(ofGroup: groupNumber)
            var extra = changed.filter { group.contains($0.bucket) }[...]
            // One bucket whose snapshot members are all walked (none replaced or hidden): what
            // is skipped of it is stepped over in bulk, by binary search up to the next row of
            // the level below or of the journal, and runs of the level's rows the same way (a
            // page far down a list costs what its own rows cost, not what every row before it
            // does).
            if group.count == 1, cursors[0].walksEveryMember {
                while toSkip > 0 {
                    // The next row not of the snapshot's bucket: the level below's or the journal's.
                    var next: (order: Int64, position: Int, fromJournal: Bool)?
                    if cursors.count > 1, let head = cursors[1].head {
                        next = (head.order, cursors[1].headPosition, false)
                    }
                    if let first = extra.first,
                        next.map({ precedes((first.order, first.position), ($0.order, $0.position)) }) ?? true
                    {
                        next = (first.order, first.position, true)
                    }
                    guard let next else {
                        let step = min(toSkip, cursors[0].remainingCount)
                        cursors[0].jump(step)
                        toSkip -= step
                        break
                    }
                    let before = cursors[0].countPreceding((next.order, next.position), precedes)
                    if before >= toSkip {
                        cursors[0].jump(toSkip)
                        toSkip = 0
                    } else if before > 0 {
                        cursors[0].jump(before)
                        toSkip -= before
                    } else if next.fromJournal {
                        extra = extra.dropFirst()
                        toSkip -= 1
                    } else if cursors[1].walksEveryMember {
                        // The level's rows up to the snapshot's next one or the journal's, at once.
                        var bound = cursors[0].head.map { ($0.order, cursors[0].headPosition) }
                        if let first = extra.first, bound.map({ precedes((first.order, first.position), $0) }) ?? true {
                            bound = (first.order, first.position)
                        }
                        let run = bound.map { cursors[1].countPreceding($0, precedes) } ?? cursors[1].remainingCount
                        let step = max(1, min(run, toSkip))
                        cursors[1].jump(step)
                        toSkip -= step
                    } else {
                        cursors[1].advance()
                        toSkip -= 1
                    }
                }
            }
            while remaining > 0 {
                var best: (cursor: Int, key: (Int64, Int))?
                for (number, cursor) in cursors.enumerated() {
                    guard let head = cursor.head else { continue }
                    let key = (head.order, cursor.headPosition)
                    if best.map({ precedes(key, $0.key) }) ?? true { best = (number, key) }
                }
                if let first = extra.first, best.map({ precedes((first.order, first.position), $0.key) }) ?? true {
                    if toSkip == 0 { picked.append(IndexPick(journalRow: first.row, group: groupNumber)) }
                    extra = extra.dropFirst()
                } else if let best {
                    if toSkip == 0, let head = cursors[best.cursor].head {
                        picked.append(
                            IndexPick(
                                ordinal: head.ordinal, offset: head.offset, group: groupNumber, cursor: best.cursor,
                                place: cursors[best.cursor].place, inDelta: best.cursor >= group.count))
                    }
                    cursors[best.cursor].advance()
                } else {
                    break
                }
                if toSkip > 0 { toSkip -= 1 } else { remaining -= 1 }
                if picked.count >= batch { flush() }
            }
        }
        flush()
    }
}

/// One row an index walk picked: a journal row as it is, or a snapshot row by its ordinal,
/// where its frame starts (format 5; nil in format 4) and where the walk found it (which of its
/// group's cursors, and the member's place in that bucket's walk).
@usableFromInline struct IndexPick<Row> {
    @usableFromInline let row: Row?
    @usableFromInline let ordinal: Int
    @usableFromInline let offset: Int?
    @usableFromInline let group: Int
    @usableFromInline let cursor: Int
    @usableFromInline let place: Int
    /// Whether the ordinal is of the level below the snapshot (`DeltaRows`).
    @usableFromInline let inDelta: Bool

    @inlinable init(journalRow: Row, group: Int) {
        (row, ordinal, offset, self.group, cursor, place, inDelta) = (journalRow, 0, nil, group, 0, 0, false)
    }

    @inlinable init(ordinal: Int, offset: Int?, group: Int, cursor: Int, place: Int, inDelta: Bool) {
        (row, self.ordinal, self.offset, self.group, self.cursor, self.place, self.inDelta) = (
            nil, ordinal, offset, group, cursor, place, inDelta
        )
    }
}
