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
    /// are placed together the first time the table is asked anything (`settle`), their
    /// keys looked up in the snapshot in key order: opening after many small commits costs
    /// one pass, not a search per row.
    @usableFromInline var placed = 0
    /// Which keys the snapshot's rows cannot hold, when the snapshot has a current filter
    /// beside them: a key it rules out is not searched for.
    @usableFromInline var keyFilter: KeyFilter?
    /// The last key looked up in the snapshot, and its row there (see `baseRow`).
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

    /// The table's name, for what damage says.
    @usableFromInline let tableName: String

    @usableFromInline init(base: SnapshotRows, tableName: String) {
        self.base = base
        self.tableName = tableName
        liveCount = base.count
    }
}

extension LazyRows {
    @usableFromInline typealias Key = Codec.Key
    @usableFromInline typealias Row = Codec.Row

    /// Places the journal's changes read at open, if any wait (see `placed`).
    @inlinable func settleIfNeeded() {
        if placed < operations.count { settle() }
    }

    /// These rows with every journal change read at open placed: asked for by everything
    /// that reads `latest`, `liveCount` or `appended`.
    @inlinable func settled() -> LazyRows {
        settleIfNeeded()
        return self
    }

    /// Looks up, in one pass over the snapshot's sorted keys, every key the journal changed
    /// that is not known yet, then places the changes in order.
    @inlinable func settle() {
        let changes = placed..<operations.count
        // Room for every change at once: grown as they came, the tables were copied a few times.
        latest.reserveCapacity(latest.count + changes.count)
        // Each key not placed before, once, as first met (its place in `unknown`): a change
        // hashes its key twice here and twice as it is placed.
        var first: [Key: Int] = [:]
        first.reserveCapacity(changes.count)
        var unknown: [Key] = []
        for position in changes {
            let key = operations[position].key
            guard latest[key] == nil else { continue }
            if let earlier = first.updateValue(unknown.count, forKey: key) {
                first[key] = earlier  // met before: keep its first place
            } else {
                unknown.append(key)
            }
        }
        var ordinals = [Int?](repeating: nil, count: unknown.count)
        var searched: [Int] = []
        var searchedBytes: [[UInt8]] = []
        for (index, key) in unknown.enumerated() {
            let bytes = Self.keyBytes(key)
            if let keyFilter, !bytes.withUnsafeBytes({ keyFilter.mayContain($0) }) { continue }
            searched.append(index)
            searchedBytes.append(bytes)
        }
        for (index, ordinal) in zip(searched, base.ordinals(ofKeys: searchedBytes)) { ordinals[index] = ordinal }
        for position in changes {
            let change = operations[position]
            // A key placed before (or by an earlier change here) is found in `latest` by `place`.
            place(change.key, change.row, baseOrdinal: first[change.key].map { ordinals[$0] })
        }
        placed = operations.count
    }

    @inlinable static func keyBytes(_ key: Key) -> [UInt8] {
        var writer = ByteWriter()
        // Room at once: grown from nothing, a sixteen-byte key was allocated three times over.
        writer.bytes.reserveCapacity(32)
        Codec.encode(key: key, into: &writer)
        return writer.bytes
    }

    /// `offset`: where the row's frame starts, when an index entry said so.
    @inlinable func decodeBase(_ ordinal: Int, offset: Int? = nil) -> Row {
        decode(baseRow: base.rowBytes(ordinal, offset: offset))
    }

    /// The snapshot row whose frame starts at `offset` (a format-5 index entry says where),
    /// decoded from where it lies in the mapping (`SnapshotRows.inPlaceWalkLimit`).
    @inlinable func decodeInPlace(offset: Int) -> Row {
        base.withRowInPlace(offset: offset) { decode(baseRow: [UInt8]($0)) }
    }

    /// Snapshot row `ordinal` decoded from where it lies in the mapping, found through the
    /// offsets column (format 4's entries say no frame start).
    @inlinable func decodeInPlace(ordinal: Int) -> Row {
        base.withRowInPlace(ordinal) { decode(baseRow: [UInt8]($0)) }
    }

    /// A snapshot row's bytes decoded; bytes that pass their checksum and still do not decode
    /// are damage all the same.
    @inlinable func decode(baseRow bytes: [UInt8]) -> Row {
        var reader = ByteReader(bytes)
        guard let row = try? Codec.decodeRow(from: &reader), reader.isAtEnd else {
            UnreadableRow.found("table '\(tableName)': a snapshot row passes its checksum but cannot be read")
        }
        return row
    }

    /// A key's row now: the journal's change, else the snapshot's.
    @inlinable func row(_ key: Key) -> Row? {
        if let entry = latest[key] { return entry.row }
        return baseRow(key)?.row
    }

    @inlinable func contains(_ key: Key) -> Bool {
        if let entry = latest[key] { return entry.row != nil }
        if let last = lastBaseRow, last.key == key { return last.found != nil }
        return baseOrdinal(ofKey: Self.keyBytes(key)) != nil
    }

    /// A key's ordinal in the snapshot, unless the key filter rules it out.
    @inlinable func baseOrdinal(ofKey bytes: [UInt8]) -> Int? {
        if let keyFilter, !bytes.withUnsafeBytes({ keyFilter.mayContain($0) }) { return nil }
        return base.ordinal(ofKey: bytes)
    }

    /// A key's row in the snapshot (not the journal's changes), remembered for the next ask: a
    /// statement reads the row it changes several times (the command, the view model, the
    /// change itself), and the snapshot never changes under it.
    @inlinable func baseRow(_ key: Key) -> (ordinal: Int, row: Row)? {
        if let last = lastBaseRow, last.key == key { return last.found }
        let found = baseOrdinal(ofKey: Self.keyBytes(key)).map { ($0, decodeBase($0)) }
        lastBaseRow = (key, found)
        return found
    }

    /// A change made now: kept beside the snapshot's rows, in order, and undoable.
    @inlinable func change(_ key: Key, _ row: Row?) {
        undo.append(savedState(of: key))
        operations.append((key, row))
        place(key, row, baseOrdinal: nil)
        placed = operations.count
    }

    /// A change read from the journal at open: recorded now, placed when first needed
    /// (`settle`), so its key is looked up in the snapshot with all the others at once.
    @inlinable func record(_ key: Key, _ row: Row?) {
        operations.append((key, row))
    }

    /// Where a change leaves its key: `baseOrdinal` is the key's row in the snapshot when
    /// already looked up (`.some(nil)`: it has none), else it is looked up here.
    @inlinable func place(_ key: Key, _ row: Row?, baseOrdinal: Int??) {
        var entry: Entry
        let existed: Bool
        if let known = latest[key] {
            entry = known
            existed = known.row != nil
        } else {
            let ordinal = baseOrdinal ?? baseRow(key)?.ordinal
            entry = Entry(row: nil, baseOrdinal: ordinal, position: ordinal ?? 0)
            existed = ordinal != nil
        }
        if let row {
            if !existed {
                // New, or back after a removal: it goes to the end, as an insert does.
                entry.position = base.count + appended
                appended += 1
                liveCount += 1
            }
            entry.row = row
        } else {
            if existed { liveCount -= 1 }
            entry.row = nil
        }
        latest[key] = entry
    }
}
