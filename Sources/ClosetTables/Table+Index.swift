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
        let delta = lazy.delta
        for bucket in 0..<index.bucketCount where inBuckets[bucket] {
            count += lazy.base.bucketSize(bucket)
            if let delta { count += delta.rows.bucketSize(bucket) - delta.hiddenPerBucket[bucket] }
        }
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: if inBuckets[lazy.base.bucket(ordinal)] { count -= 1 }
            case .delta(let ordinal)?: if let delta, inBuckets[delta.rows.bucket(ordinal)] { count -= 1 }
            case nil: break
            }
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
        guard let walk = indexWalk(groups: groups, descending: descending, after: after, passing: test) else {
            return false
        }
        let lazy = walk.lazy
        walk.walk(skip: skip, limit: limit, batch: batch) { picked in
            // The snapshot's rows read together; the level below's (few) each on its own.
            let delta = lazy.delta
            func decodeDelta(_ pick: IndexPick<Row>) -> Row {
                lazy.decode(baseRow: delta?.rows.rowBytes(pick.ordinal, offset: pick.offset) ?? [])
            }
            let fromSnapshot = picked.count { $0.row == nil && !$0.inDelta }
            let offsets = picked.compactMap { $0.row == nil && !$0.inDelta ? $0.offset : nil }
            if offsets.count != fromSnapshot {
                // Format 4's entries carry no offsets: each row found through the offsets column.
                emit(
                    picked.map { pick in
                        pick.row
                            ?? (pick.inDelta ? decodeDelta(pick) : lazy.decodeBase(pick.ordinal, offset: pick.offset))
                    })
            } else if offsets.count >= SnapshotRows.inPlaceWalkBatch,
                lazy.base.rowsByteCount <= SnapshotRows.inPlaceWalkLimit
            {
                // A whole table's walk over rows of a few megabytes: read where they lie.
                var offset = offsets.makeIterator()
                emit(
                    picked.map { pick in
                        pick.row ?? (pick.inDelta ? decodeDelta(pick) : lazy.decodeInPlace(offset: offset.next() ?? -1))
                    })
            } else {
                var read = lazy.base.rowsBytes(at: offsets).makeIterator()
                emit(
                    picked.map { pick in
                        if let row = pick.row { return row }
                        return pick.inDelta ? decodeDelta(pick) : lazy.decode(baseRow: read.next() ?? [])
                    })
            }
        }
        return true
    }

    /// The rows `indexedRows` would give, held as how the walk merged its buckets and decoded
    /// when asked for (`IndexedRowList`): a byte a row instead of the row. Nil when
    /// `indexedRows` would be.
    /// `reading`: how its rows are read (tests choose each way; see `IndexedRowList.Reading`).
    @inlinable public func indexedRowList(
        groups: [[Int]], descending: Bool, limit: Int, passing test: RowTest<Row>? = nil,
        reading: IndexedRowList<Codec>.Reading = .bySize
    ) -> IndexedRowList<Codec>? {
        guard let walk = indexWalk(groups: groups, descending: descending, after: nil, passing: test),
            walk.mostCursors <= 256
        else {
            return nil
        }
        let list = IndexedRowList(walk, reading: reading, expecting: min(limit, walk.lazy.liveCount))
        walk.walk(skip: 0, limit: limit, batch: 1 << 16) { picked in
            for pick in picked { list.record(pick) }
        }
        return list
    }

    /// The walk of the snapshot's index over these groups, the journal's rows among its
    /// buckets'; nil when the rows are not in a mapped snapshot with the index, or changes are
    /// pending.
    @inlinable func indexWalk(
        groups: [[Int]], descending: Bool, after: Int64?, passing test: RowTest<Row>? = nil
    ) -> IndexWalk<Codec>? {
        guard let lazy = lazy?.settled(), let index, lazy.base.bucketCount == index.bucketCount, pending.changes.isEmpty
        else {
            return nil
        }
        var found: OrdinalSet?
        var deltaFound: OrdinalSet?
        if let test {
            guard let ordinals = passingOrdinals(buckets: groups.flatMap { $0 }, passing: test) else { return nil }
            (found, deltaFound) = ordinals
        }
        var replaced = Set<Int>()
        var deltaReplaced = Set<Int>()
        var changed: [(order: Int64, position: Int, bucket: Int, row: Row)] = []
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: replaced.insert(ordinal)
            case .delta(let ordinal)?: deltaReplaced.insert(ordinal)
            case nil: break
            }
            guard let row = entry.row, test?.rowPasses(row) ?? true else { continue }
            let order = index.order(row)
            if BucketCursor.isAfter(order, after, descending) {
                changed.append((order, entry.position, index.bucket(row), row))
            }
        }
        return IndexWalk(
            lazy: lazy, groups: groups, bucketCount: index.bucketCount, descending: descending, after: after,
            replaced: replaced, found: found, changed: changed, deltaReplaced: deltaReplaced, deltaFound: deltaFound)
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
