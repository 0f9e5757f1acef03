import ClosetCore

/// A table's rows still in a mapped snapshot, the level below it (`DeltaRows`, when the store
/// has one), and the journal's changes over both (see `Table.lazy`). `latest` answers lookups
/// and index queries; `operations` replays the changes in order when the table is materialized,
/// so the result is the same as if every row had been decoded at open.
public final class LazyRows<Codec: TableCodec> {
    @usableFromInline let base: SnapshotRows
    /// The rows changed since the snapshot, and the snapshot rows they hide.
    @usableFromInline private(set) var delta: DeltaRows?
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
    /// Which of the changes not placed yet are inserts (by their place in `operations`; none
    /// past its end): their keys had no row below, so `settle` does not look for them.
    @usableFromInline var recordedInserts: [Bool] = []
    /// Which keys the snapshot's rows cannot hold, when the snapshot has a current filter
    /// beside them: a key it rules out is not searched for.
    @usableFromInline var keyFilter: KeyFilter?
    /// The last key looked up below the journal, and its row there (see `lowerRow`).
    @usableFromInline var lastLowerRow: (key: Codec.Key, found: (lower: Lower, row: Codec.Row)?)?

    /// Where a key's row lies below the journal: a snapshot row the level below does not hide,
    /// or a row of that level.
    @usableFromInline enum Lower: Equatable {
        case snapshot(Int)
        case delta(Int)
    }

    /// The latest state of a key the journal touched.
    @usableFromInline struct Entry {
        /// Its row now; nil once removed.
        @usableFromInline var row: Codec.Row?
        /// Its row below the journal, if it had one.
        @usableFromInline var lower: Lower?
        /// Where it stands in insertion order (a snapshot ordinal, or after every snapshot row).
        @usableFromInline var position: Int

        @inlinable init(row: Codec.Row?, lower: Lower?, position: Int) {
            self.row = row
            self.lower = lower
            self.position = position
        }

        /// Its row in the snapshot, if it had one there (not hidden).
        @inlinable var baseOrdinal: Int? {
            if case .snapshot(let ordinal) = lower { ordinal } else { nil }
        }

        /// Its row in the level below, if it had one there.
        @inlinable var deltaOrdinal: Int? {
            if case .delta(let ordinal) = lower { ordinal } else { nil }
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

    /// Takes the level below the snapshot, before anything was read or changed.
    @usableFromInline func attach(_ delta: DeltaRows) {
        precondition(operations.isEmpty && latest.isEmpty && self.delta == nil, "a delta attached before any change")
        self.delta = delta
        liveCount = base.count - delta.hiddenCount + delta.rows.count
        lastLowerRow = nil
    }

    /// Where the next new row stands in insertion order, before the journal's.
    @inlinable var endPosition: Int { delta?.endPosition ?? base.count }
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
        // Each change's key's place in `unknown` (-1: placed before), and whether the change
        // is that key's first here: placed without looking it up in `latest`, or in `first`
        // again (a journal of new keys hashed each five times).
        var unknownPlace = [Int](repeating: -1, count: changes.count)
        var isFirstMet = [Bool](repeating: false, count: changes.count)
        for (number, position) in changes.enumerated() {
            let key = operations[position].key
            guard latest[key] == nil else { continue }
            // An insert met first is a key with no row below: nothing to look up.
            let isInsert = position < recordedInserts.count && recordedInserts[position]
            let place = isInsert ? Self.noneBelow : unknown.count
            if let earlier = first.updateValue(place, forKey: key) {
                first[key] = earlier  // met before: keep its first place
                unknownPlace[number] = earlier
            } else {
                unknownPlace[number] = place
                isFirstMet[number] = true
                if !isInsert { unknown.append(key) }
            }
        }
        var lowers = [Lower?](repeating: nil, count: unknown.count)
        var remaining = Array(unknown.indices)
        var keyBytes = unknown.map(Self.keyBytes)
        if let delta {
            // The level below first: a key there is hidden in the snapshot.
            let found = Self.ordinals(ofKeys: remaining, keyBytes, in: delta.rows, filter: delta.keyFilter)
            for (index, ordinal) in found { lowers[index] = .delta(ordinal) }
            remaining.removeAll { lowers[$0] != nil }
        }
        for (index, ordinal) in Self.ordinals(ofKeys: remaining, keyBytes, in: base, filter: keyFilter)
        where !(delta?.isHidden(ordinal) ?? false) {
            lowers[index] = .snapshot(ordinal)
        }
        keyBytes = []
        for (number, position) in changes.enumerated() {
            let change = operations[position]
            let known = unknownPlace[number]
            let lower = known >= 0 ? lowers[known] : nil
            if isFirstMet[number] {
                placeNew(change.key, change.row, lower: lower)
            } else {
                // A key placed before (or by an earlier change here) is found in `latest`.
                place(change.key, change.row, lower: known >= 0 || known == Self.noneBelow ? .some(lower) : nil)
            }
        }
        placed = operations.count
        recordedInserts = []
    }

    /// A change's place in `settle`'s keys to look up when its key is known to have no row below.
    @inlinable static var noneBelow: Int { -2 }

    /// The ordinals in `rows` of the keys at `indexes` of `keyBytes` (those the filter does
    /// not rule out, looked up in one pass), by index.
    @inlinable static func ordinals(
        ofKeys indexes: [Int], _ keyBytes: [[UInt8]], in rows: SnapshotRows, filter: KeyFilter?
    ) -> [(index: Int, ordinal: Int)] {
        var searched: [Int] = []
        var searchedBytes: [[UInt8]] = []
        for index in indexes {
            let bytes = keyBytes[index]
            if let filter, !bytes.withUnsafeBytes({ filter.mayContain($0) }) { continue }
            searched.append(index)
            searchedBytes.append(bytes)
        }
        return zip(searched, rows.ordinals(ofKeys: searchedBytes)).compactMap { index, ordinal in
            ordinal.map { (index, $0) }
        }
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

    /// A key's row now: the journal's change, else the level below's, else the snapshot's.
    @inlinable func row(_ key: Key) -> Row? {
        if let entry = latest[key] { return entry.row }
        return lowerRow(key)?.row
    }

    @inlinable func contains(_ key: Key) -> Bool {
        if let entry = latest[key] { return entry.row != nil }
        if let last = lastLowerRow, last.key == key { return last.found != nil }
        return lower(ofKey: Self.keyBytes(key)) != nil
    }

    /// Where a key's row lies below the journal, unless the key filters rule it out.
    @inlinable func lower(ofKey bytes: [UInt8]) -> Lower? {
        if let delta {
            if delta.keyFilter.map({ filter in bytes.withUnsafeBytes { filter.mayContain($0) } }) ?? true,
                let ordinal = delta.rows.ordinal(ofKey: bytes)
            {
                return .delta(ordinal)
            }
        }
        if let keyFilter, !bytes.withUnsafeBytes({ keyFilter.mayContain($0) }) { return nil }
        guard let ordinal = base.ordinal(ofKey: bytes), !(delta?.isHidden(ordinal) ?? false) else { return nil }
        return .snapshot(ordinal)
    }

    /// A row below the journal, decoded.
    @inlinable func decode(_ lower: Lower) -> Row {
        switch lower {
        case .snapshot(let ordinal): decodeBase(ordinal)
        case .delta(let ordinal): decode(baseRow: delta?.rows.rowBytes(ordinal) ?? [])
        }
    }

    /// Where a row below the journal stands in insertion order.
    @inlinable func position(_ lower: Lower) -> Int {
        switch lower {
        case .snapshot(let ordinal): ordinal
        case .delta(let ordinal): delta?.positions[ordinal] ?? ordinal
        }
    }

    /// A key's row below the journal, remembered for the next ask: a statement reads the row
    /// it changes several times (the command, the view model, the change itself), and the
    /// files never change under it.
    @inlinable func lowerRow(_ key: Key) -> (lower: Lower, row: Row)? {
        if let last = lastLowerRow, last.key == key { return last.found }
        let found = lower(ofKey: Self.keyBytes(key)).map { ($0, decode($0)) }
        lastLowerRow = (key, found)
        return found
    }

    /// A change made now: kept beside the snapshot's rows, in order, and undoable.
    @inlinable func change(_ key: Key, _ row: Row?) {
        undo.append(savedState(of: key))
        operations.append((key, row))
        place(key, row, lower: nil)
        placed = operations.count
    }

    /// A change read from the journal at open: recorded now, placed when first needed
    /// (`settle`), so its key is looked up in the snapshot with all the others at once;
    /// an insert's is not looked up at all.
    @inlinable func record(_ key: Key, _ row: Row?, isInsert: Bool) {
        if isInsert {
            if recordedInserts.count < operations.count {
                recordedInserts += repeatElement(false, count: operations.count - recordedInserts.count)
            }
            recordedInserts.append(true)
        }
        operations.append((key, row))
    }

    /// Where a change leaves its key: `lower` is the key's row below the journal when already
    /// looked up (`.some(nil)`: it has none), else it is looked up here.
    @inlinable func place(_ key: Key, _ row: Row?, lower: Lower??) {
        var entry: Entry
        let existed: Bool
        if let known = latest[key] {
            entry = known
            existed = known.row != nil
        } else {
            let found = lower ?? lowerRow(key)?.lower
            entry = Entry(row: nil, lower: found, position: found.map(position) ?? 0)
            existed = found != nil
        }
        if let row {
            if !existed {
                // New, or back after a removal: it goes to the end, as an insert does.
                entry.position = endPosition + appended
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

    /// `place` for a key `latest` does not hold, its row below (`lower`) already looked up.
    @inlinable func placeNew(_ key: Key, _ row: Row?, lower: Lower?) {
        var entry = Entry(row: row, lower: lower, position: lower.map(position) ?? 0)
        if row != nil {
            if lower == nil {
                // New: it goes to the end, as an insert does.
                entry.position = endPosition + appended
                appended += 1
                liveCount += 1
            }
        } else if lower != nil {
            liveCount -= 1
        }
        latest[key] = entry
    }
}

extension LazyRows {
    /// A change over the snapshot's rows, as the journal's entries say them: a snapshot row
    /// replaced in place (its ordinal, the row, the same position), removed (its ordinal, no
    /// row), or moved to the end (its ordinal, the row at its new position); a new row (no
    /// ordinal).
    @usableFromInline typealias ChangeOverSnapshot = (baseOrdinal: Int?, row: Row?, position: Int)

    /// Every change over the snapshot's rows, the level below's and (unless `journal` is
    /// false) the journal's together: what a pass over the whole table applies to the
    /// snapshot's rows. The level's rows are decoded (a whole-table pass decodes them anyway).
    @inlinable func changesOverSnapshot(journal: Bool = true) -> [ChangeOverSnapshot] {
        var changes: [ChangeOverSnapshot] = []
        var replacedBelow = Set<Int>()
        if journal {
            settleIfNeeded()
            changes.reserveCapacity(latest.count)
            for entry in latest.values {
                switch entry.lower {
                case .snapshot(let ordinal)?:
                    changes.append((ordinal, entry.row, entry.position))
                case .delta(let ordinal)?:
                    replacedBelow.insert(ordinal)
                    let position = position(.delta(ordinal))
                    changes.append((position < base.count ? position : nil, entry.row, entry.position))
                case nil:
                    if let row = entry.row { changes.append((nil, row, entry.position)) }
                }
            }
        }
        guard let delta else { return changes }
        var inPlace = OrdinalSet(capacity: base.count)
        for (ordinal, position) in delta.positions.enumerated() {
            if position < base.count { inPlace.insert(position) }
            guard !replacedBelow.contains(ordinal) else { continue }
            changes.append((position < base.count ? position : nil, decode(.delta(ordinal)), position))
        }
        for ordinal in delta.hidden where !inPlace.contains(ordinal) { changes.append((ordinal, nil, ordinal)) }
        return changes
    }
}
