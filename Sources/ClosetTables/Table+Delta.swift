import ClosetCore

/// The level below a table's snapshot section (`DeltaRows`): taken from a file beside the
/// snapshot, and written from the level the table has and the journal's changes over it.
extension Table {

    /// Takes the level below the attached snapshot section: its rows, its record
    /// (`<table>#delta`) and its derived sections by name (used only if written with it, at
    /// `generation`). False when the table has no snapshot section read in place, changes were
    /// made, or the record does not add up with the section (damage: the caller says so).
    public func attachDelta(
        rows: SnapshotRows, record: SnapshotRows, derived: [String: SnapshotRows], generation: UInt64
    ) -> Bool {
        guard let lazy, lazy.delta == nil, lazy.operations.isEmpty, pending.isEmpty,
            let delta = DeltaRows(
                rows: rows, record: record, baseCount: lazy.base.count, bucketCount: lazy.base.bucketCount)
        else { return false }
        delta.groupSections = groups.groupings.map { grouping in
            derived[name + "#" + grouping.name].flatMap {
                GroupSection.isCurrent($0, generation: generation, baseCount: rows.count) ? $0 : nil
            }
        }
        delta.keyFilter = derived[name + KeyFilter.sectionSuffix].map {
            KeyFilter($0, generation: generation, rowCount: rows.count)
        }
        lazy.attach(delta)
        changeCount &+= 1
        return true
    }

    /// The names of the sections `deltaSections` writes, the rows' first.
    public var deltaSectionNames: [String] { [name, name + DeltaRows.sectionSuffix] + derivedSectionNames }

    /// The sections of this table's level below its snapshot section: the level it has with
    /// the journal's changes over it (its rows, the record, then each grouping's section and the
    /// key filter), committed ones only when `committed`, pending ones too otherwise (a commit
    /// written as the level). Nil when the rows are not read in place from a snapshot section
    /// with the index, or a committed state is asked for while changes are pending (the whole
    /// snapshot is written then); no sections when nothing changed since the snapshot.
    public func deltaSections(generation: UInt64, committed: Bool) -> DeltaSections? {
        guard let lazy = lazy?.settled() else {
            // A table made in this process with no rows (none in the snapshot, none added).
            let empty = decoded.liveCount == 0 && spilled == nil && (!committed || pending.isEmpty)
            return empty ? DeltaSections(rows: 0, hidden: 0, sections: []) : nil
        }
        guard !committed || (pending.changes.isEmpty && lazy.undo.isEmpty),
            lazy.base.bucketCount == (index?.bucketCount ?? 0)
        else { return nil }
        guard lazy.delta != nil || !lazy.latest.isEmpty else { return DeltaSections(rows: 0, hidden: 0, sections: []) }
        let base = lazy.base
        // The level's rows now, by position: its own the journal left alone, and the journal's.
        var changed: [(position: Int, row: Row)] = []
        var hidden = lazy.delta?.hidden ?? []
        var replacedBelow = Set<Int>()
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: hidden.append(ordinal)
            case .delta(let ordinal)?: replacedBelow.insert(ordinal)
            case nil: break
            }
            if let row = entry.row { changed.append((entry.position, row)) }
        }
        if let delta = lazy.delta {
            for (ordinal, position) in delta.positions.enumerated() where !replacedBelow.contains(ordinal) {
                changed.append((position, lazy.decode(.delta(ordinal))))
            }
        }
        changed.sort { $0.position < $1.position }
        hidden.sort()
        var hiddenPerBucket = [Int](repeating: 0, count: base.bucketCount)
        if base.bucketCount > 0 { for ordinal in hidden { hiddenPerBucket[base.bucket(ordinal)] += 1 } }
        let endPosition = lazy.endPosition + lazy.appended
        let index = index
        let groupings = groups.groupings
        var filter = KeyFilter.Bits(keys: 0)
        var groupsOfRows = groupings.map { _ in [[UInt8]: [UInt32]]() }
        for (ordinal, change) in changed.enumerated() {
            for number in groupings.indices {
                groupsOfRows[number][groupings[number].key(change.row), default: []].append(UInt32(ordinal))
            }
        }
        let rowCount = changed.count
        var sections: [DeltaSections.Section] = [
            (
                name,
                { writer in
                    filter = SnapshotSection.write(into: &writer, indexed: index != nil) { writer, columns in
                        if let index { columns.bucketCount = index.bucketCount }
                        for change in changed {
                            let start = writer.position
                            RowFrame.part16(&writer) { Codec.encode(key: Codec.key(of: change.row), into: &$0) }
                            RowFrame.part32(&writer) { Codec.encode(change.row, into: &$0) }
                            if let index {
                                columns.rowWritten(
                                    from: start, in: &writer,
                                    bucket: UInt8(truncatingIfNeeded: index.bucket(change.row)),
                                    order: index.order(change.row))
                            } else {
                                columns.rowWritten(from: start, in: &writer)
                            }
                            for blob in Codec.blobs(of: change.row) { columns.blobNames.insert(blob) }
                        }
                        return rowCount
                    }
                }
            ),
            (
                name + DeltaRows.sectionSuffix,
                { writer in
                    DeltaRows.writeRecord(
                        baseCount: base.count, hidden: hidden, hiddenPerBucket: hiddenPerBucket,
                        positions: changed.map(\.position), endPosition: endPosition, into: &writer)
                }
            ),
        ]
        for (number, grouping) in groupings.enumerated() {
            sections.append(
                (
                    name + "#" + grouping.name,
                    { GroupSection.write(groupsOfRows[number], generation: generation, baseCount: rowCount, into: &$0) }
                ))
        }
        sections.append(
            (name + KeyFilter.sectionSuffix, { KeyFilter.write(filter, generation: generation, into: &$0) }))
        return DeltaSections(rows: rowCount, hidden: hidden.count, sections: sections)
    }
}

/// A table's sections of the level below its snapshot section (`Table.deltaSections`), to
/// write in order, and its size: how many rows it holds and how many snapshot rows it hides.
public struct DeltaSections {
    public typealias Section = (name: String, write: (inout ByteWriter) -> Void)
    public var rows: Int
    public var hidden: Int
    public var sections: [Section]
}
