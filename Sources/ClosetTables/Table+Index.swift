import ClosetCore

/// Answers from the table's declared index (`TableIndex`): counts and pages of buckets, by
/// order key, without decoding or sorting the rows they do not return.
extension Table {
    /// How many rows fall in these buckets of the table's index; nil when the rows are not
    /// in a mapped snapshot any more (count them the ordinary way then).
    @inlinable public func indexedCount(buckets: [Int]) -> Int? {
        guard let lazy = lazy?.settled(), let index, lazy.base.bucketCount == index.bucketCount, pending.changes.isEmpty
        else {
            return nil
        }
        var inBuckets = [Bool](repeating: false, count: index.bucketCount)
        for bucket in buckets where (0..<index.bucketCount).contains(bucket) { inBuckets[bucket] = true }
        var count = 0
        for bucket in 0..<index.bucketCount where inBuckets[bucket] { count += lazy.base.bucketSize(bucket) }
        for entry in lazy.latest.values {
            if let ordinal = entry.baseOrdinal, inBuckets[lazy.base.bucket(ordinal)] { count -= 1 }
            if let row = entry.row, inBuckets[index.bucket(row)] { count += 1 }
        }
        return count
    }

    /// The first `limit` rows of the given groups of buckets, group after group, each group
    /// by order key descending (equal keys the later-added first) or exactly the reverse: a
    /// top-K that decodes only the rows it returns (the first `skip` are stepped over, not
    /// decoded). Nil when the rows are not in a mapped snapshot.
    /// `passing`: only the rows that pass it (found by a scan first, `Table+Scan`).
    @inlinable public func indexedRows(
        groups: [[Int]], descending: Bool, after: Int64? = nil, skip: Int = 0, limit: Int,
        passing test: RowTest<Row>? = nil
    ) -> [Row]? {
        var rows: [Row] = []
        // Decoded 262,144 at a time: a whole table's rows read as bytes all at once held a
        // hundred megabytes beside the decoded ones at a million rows; a batch this large still
        // reads its rows a 64 KB span at a time (each span is read again by each batch: four
        // times at a million rows).
        let walked = walkIndex(
            groups: groups, descending: descending, after: after, skip: skip, limit: limit, batch: 1 << 18,
            passing: test
        ) { rows += $0 }
        return walked ? rows : nil
    }

    /// Every row of the given groups, in `indexedRows`' order, handed to `visit` one at a time
    /// and decoded a batch at a time (`batch`, else `SnapshotRows.spanBatch`: 4,096 to 65,536):
    /// a whole table walked in its index order in memory that does not grow with it (an export),
    /// each batch's rows read a 64 KB span at a time (a `pread` a row, in batches of 4,096 at a
    /// million rows, cost a third more time). False, and nothing visited, when the rows are not
    /// in a mapped snapshot.
    @inlinable public func forEachIndexedRow(
        groups: [[Int]], descending: Bool, limit: Int = .max, batch: Int? = nil, passing test: RowTest<Row>? = nil,
        _ visit: (Row) throws -> Void
    ) throws -> Bool {
        var failure: Error?
        let size = batch ?? lazy?.base.spanBatch ?? 4096
        let walked = walkIndex(
            groups: groups, descending: descending, after: nil, skip: 0, limit: limit, batch: max(1, size),
            passing: test
        ) {
            rows in
            guard failure == nil else { return }
            do {
                for row in rows { try visit(row) }
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        return walked
    }

    /// The walk `indexedRows` and `forEachIndexedRow` share: the picked rows handed over in
    /// batches of `batch`, each decoded together (snapshot rows read by where they lie).
    @inlinable func walkIndex(
        groups: [[Int]], descending: Bool, after: Int64?, skip: Int, limit: Int, batch: Int,
        passing test: RowTest<Row>? = nil, _ emit: ([Row]) -> Void
    ) -> Bool {
        walkPicks(
            groups: groups, descending: descending, after: after, skip: skip, limit: limit, batch: batch, passing: test
        ) {
            lazy, picked in
            let offsets = picked.compactMap { $0.row == nil ? $0.offset : nil }
            if offsets.count != picked.count(where: { $0.row == nil }) {
                // Format 4's entries carry no offsets: each row found through the offsets column.
                emit(picked.map { $0.row ?? lazy.decodeBase($0.ordinal, offset: $0.offset) })
            } else {
                var read = lazy.base.rowsBytes(at: offsets).makeIterator()
                emit(
                    picked.map { pick in
                        if let row = pick.row { return row }
                        return lazy.decode(baseRow: read.next() ?? [])
                    })
            }
        }
    }

    /// The rows `indexedRows` would give, held as where they lie and decoded when asked for
    /// (`IndexedRowList`): four bytes a snapshot row instead of the row. Nil when
    /// `indexedRows` would be, or past 2^31 rows.
    /// `throughTheFile`: false reads every row where it lies in the mapping, as format 4 and
    /// rows past 2 GB are read (for tests of that path).
    @inlinable public func indexedRowList(
        groups: [[Int]], descending: Bool, limit: Int, passing test: RowTest<Row>? = nil, throughTheFile: Bool = true
    ) -> IndexedRowList<Codec>? {
        guard let rows = lazy, rows.base.count < IndexedRowList<Codec>.journalFlag else { return nil }
        var picks: [UInt32] = []
        // At most every row: grown by doubling, ten million picks held 40 MB beside the 64 MB
        // being copied into.
        picks.reserveCapacity(min(limit, rows.liveCount))
        var journalRows: [Row] = []
        // Where each frame starts, when the index says so: read then through the file, not the
        // mapping, whose pages would stay part of the process (the whole file at a million rows).
        let byFrame = throughTheFile && rows.base.framesFitInPicks
        let walked = walkPicks(
            groups: groups, descending: descending, after: nil, skip: 0, limit: limit, batch: 1 << 16, passing: test
        ) { _, picked in
            for pick in picked {
                if let row = pick.row {
                    picks.append(IndexedRowList<Codec>.journalFlag | UInt32(journalRows.count))
                    journalRows.append(row)
                } else if byFrame, let offset = pick.offset {
                    picks.append(UInt32(offset))
                } else {
                    picks.append(UInt32(pick.ordinal))
                }
            }
        }
        return walked ? IndexedRowList(rows, picks: picks, journalRows: journalRows, byFrame: byFrame) : nil
    }

    /// The index walk itself: the rows picked (a journal row as it is, a snapshot row by its
    /// ordinal and, where the index says, its offset), handed over `batch` at a time.
    @inlinable func walkPicks(
        groups: [[Int]], descending: Bool, after: Int64?, skip: Int, limit: Int, batch: Int,
        passing test: RowTest<Row>? = nil,
        _ emit: (LazyRows<Codec>, [(row: Row?, ordinal: Int, offset: Int?)]) -> Void
    ) -> Bool {
        guard let lazy = lazy?.settled(), let index, lazy.base.bucketCount == index.bucketCount, pending.changes.isEmpty
        else {
            return false
        }
        var found: OrdinalSet?
        if let test {
            guard let ordinals = passingOrdinals(buckets: groups.flatMap { $0 }, passing: test) else { return false }
            found = ordinals
        }
        let base = lazy.base
        var replaced = Set<Int>()
        var changed: [(order: Int64, position: Int, bucket: Int, row: Row)] = []
        for entry in lazy.latest.values {
            if let ordinal = entry.baseOrdinal { replaced.insert(ordinal) }
            guard let row = entry.row, test?.rowPasses(row) ?? true else { continue }
            let order = index.order(row)
            if BucketCursor.isAfter(order, after, descending) {
                changed.append((order, entry.position, index.bucket(row), row))
            }
        }
        // Descending: larger keys first, equal keys the later-added first; ascending: the reverse.
        func precedes(_ a: (Int64, Int), _ b: (Int64, Int)) -> Bool {
            descending ? (a.0 != b.0 ? a.0 > b.0 : a.1 > b.1) : (a.0 != b.0 ? a.0 < b.0 : a.1 < b.1)
        }
        changed.sort { precedes(($0.order, $0.position), ($1.order, $1.position)) }
        // Rows from the journal as they are; snapshot rows by where they lie, read together at
        // the end (`rowsBytes(at:)`).
        var picked: [(row: Row?, ordinal: Int, offset: Int?)] = []
        func flush() {
            guard !picked.isEmpty else { return }
            emit(lazy, picked)
            picked.removeAll(keepingCapacity: true)
        }
        var remaining = max(0, limit)
        var toSkip = max(0, skip)
        for group in groups where remaining > 0 {
            var cursors = group.filter { (0..<index.bucketCount).contains($0) }.map {
                BucketCursor(
                    rows: base, bucket: $0, descending: descending, skipping: replaced, keeping: found, after: after)
            }
            var extra = changed.filter { group.contains($0.bucket) }[...]
            // One bucket and no row of it replaced: what is skipped is stepped over in bulk,
            // the bucket's members by binary search between the changed rows (a page far down
            // a list costs what its own rows cost, not what every row before it does).
            if cursors.count == 1, replaced.isEmpty, found == nil {
                while toSkip > 0, cursors[0].head != nil || !extra.isEmpty {
                    guard let first = extra.first else {
                        let step = min(toSkip, cursors[0].remainingCount)
                        cursors[0].jump(step)
                        toSkip -= step
                        if step == 0 { break }
                        continue
                    }
                    let before = cursors[0].countPreceding((first.order, first.position), precedes)
                    if before >= toSkip {
                        cursors[0].jump(toSkip)
                        toSkip = 0
                    } else {
                        cursors[0].jump(before)
                        toSkip -= before + 1
                        extra = extra.dropFirst()
                    }
                }
            }
            while remaining > 0 {
                var best: (cursor: Int, key: (Int64, Int))?
                for (number, cursor) in cursors.enumerated() {
                    guard let head = cursor.head else { continue }
                    let key = (head.order, head.ordinal)
                    if best.map({ precedes(key, $0.key) }) ?? true { best = (number, key) }
                }
                if let first = extra.first, best.map({ precedes((first.order, first.position), $0.key) }) ?? true {
                    if toSkip == 0 { picked.append((first.row, 0, nil)) }
                    extra = extra.dropFirst()
                } else if let best {
                    if toSkip == 0, let head = cursors[best.cursor].head {
                        picked.append((nil, head.ordinal, head.offset))
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
        return true
    }

    /// The rows of the given groups of buckets, group after group, each by order key
    /// descending (equal keys the later-added first) or exactly the reverse, from the first
    /// whose order key is strictly after `after` (keyset paging over a unique key), after the
    /// first `skip`: from the snapshot's index while the rows are read in place, else from decoded
    /// rows sorted once per change (`sortedBuckets`). A table without an index has none.
    @inlinable public func orderedRows(
        groups: [[Int]], descending: Bool, after: Int64? = nil, skip: Int = 0, limit: Int
    ) -> [Row] {
        if let rows = indexedRows(groups: groups, descending: descending, after: after, skip: skip, limit: limit) {
            return rows
        }
        guard let index else { return [] }
        passes.materialize(self)
        return decoded.ordered(
            by: index, revision: changeCount, groups: groups, descending: descending, after: after, skip: skip,
            limit: limit)
    }
}
