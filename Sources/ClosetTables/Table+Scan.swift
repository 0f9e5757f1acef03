import ClosetCore

/// Tests over every row without decoding the table: the snapshot's rows read in file order (the
/// disk's order, a span at a time) and handed to a test of their stored bytes; the rows the journal
/// changed tested as rows. What a search counts, and what it lists (the rows found, then walked in
/// the index's order).
extension Table {
    /// How many rows of these buckets of the table's index pass `test`. Nil when the rows are not
    /// in a mapped snapshot or changes are pending (count them the ordinary way then).
    @inlinable public func countRows(buckets: [Int], passing test: RowTest<Row>) -> Int? {
        var count = 0
        let scanned = scan(
            buckets: buckets, passing: test, base: { _ in count += 1 }, delta: { _ in count += 1 },
            changed: { _ in count += 1 })
        return scanned ? count : nil
    }

    /// The snapshot rows of these buckets that pass `test` (and those of the level below), to
    /// walk in the index's order with the changed rows (`indexedRows(…, passing:)`). Nil as
    /// `countRows`.
    @inlinable func passingOrdinals(buckets: [Int], passing test: RowTest<Row>) -> (OrdinalSet, OrdinalSet?)? {
        guard let lazy = lazy?.settled() else { return nil }
        var found = OrdinalSet(capacity: lazy.base.count)
        var deltaFound = lazy.delta.map { OrdinalSet(capacity: $0.rows.count) }
        let scanned = scan(
            buckets: buckets, passing: test, base: { found.insert($0) }, delta: { deltaFound?.insert($0) },
            changed: { _ in })
        return scanned ? (found, deltaFound) : nil
    }

    /// The scan both share: each passing snapshot row's ordinal to `base`, in file order, each
    /// passing row of the level below to `delta`, and each passing row the journal changed to
    /// `changed`. False when it cannot scan.
    @inlinable func scan(
        buckets: [Int], passing test: RowTest<Row>, base found: (Int) -> Void, delta foundBelow: (Int) -> Void,
        changed: (Row) -> Void
    ) -> Bool {
        guard let lazy = lazy?.settled(), let index, lazy.base.bucketCount == index.bucketCount, pending.changes.isEmpty
        else {
            return false
        }
        var inBuckets = [Bool](repeating: false, count: index.bucketCount)
        for bucket in buckets where (0..<index.bucketCount).contains(bucket) { inBuckets[bucket] = true }
        let everyBucket = !inBuckets.contains(false)
        var replaced: [Int] = []
        var replacedBelow: [Int] = []
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: replaced.append(ordinal)
            case .delta(let ordinal)?: replacedBelow.append(ordinal)
            case nil: break
            }
            if let row = entry.row, inBuckets[index.bucket(row)], test.rowPasses(row) { changed(row) }
        }
        let delta = lazy.delta
        if let delta { replaced += delta.hidden }
        Self.scanRows(lazy.base, skipping: replaced, inBuckets: inBuckets, everyBucket, test, lazy, found)
        if let delta {
            Self.scanRows(
                delta.rows, skipping: replacedBelow, inBuckets: inBuckets, everyBucket, test, lazy, foundBelow)
        }
        return true
    }

    /// Each row of `rows` in file order but those `skipping` lists, in the buckets, that
    /// passes `test`, by ordinal to `found`.
    @inlinable static func scanRows(
        _ rows: SnapshotRows, skipping: [Int], inBuckets: [Bool], _ everyBucket: Bool, _ test: RowTest<Row>,
        _ lazy: LazyRows<Codec>, _ found: (Int) -> Void
    ) {
        let skipping = skipping.sorted()
        var nextSkipped = 0
        rows.forEachRowBuffer { ordinal, bytes in
            // Ordinals come in order, so the skipped ones are met in order too.
            while nextSkipped < skipping.count, skipping[nextSkipped] < ordinal { nextSkipped += 1 }
            if nextSkipped < skipping.count, skipping[nextSkipped] == ordinal { return }
            guard everyBucket || inBuckets[rows.bucket(ordinal)] else { return }
            if test.bytesPass(bytes) ?? test.rowPasses(lazy.decode(baseRow: Array(bytes))) { found(ordinal) }
        }
    }
}
