import ClosetCore

extension TablePasses {
    /// Writes this table's next snapshot section by copying the current snapshot's unchanged
    /// rows as bytes (`SectionCopy`), when its rows are still read in place; false (nothing
    /// written) when it cannot: a grouping without a current section in the snapshot (its groups
    /// are then collected from every row), an index the snapshot's section lacks, or a committed
    /// state asked for while changes are pending (the copy writes the rows as they are now: a
    /// commit written as the snapshot itself).
    @inlinable static func writeSectionCopying(_ table: Table<Codec>, committed: Bool, into writer: inout ByteWriter)
        -> Bool
    {
        let index = table.index
        let groupings = table.groups.groupings
        guard let lazy = table.lazy?.settled(),
            !committed || (table.pending.changes.isEmpty && lazy.undo.isEmpty),
            lazy.base.bucketCount == (index?.bucketCount ?? 0)
        else { return false }
        let groupSections = table.groups.sections.compactMap { $0 }
        guard groupSections.count == groupings.count else { return false }
        let base = lazy.base
        var copy = SectionCopy(base: base)
        // A dropped or replaced row's blobs leave the list (a blob belongs to one row: its
        // name holds its owner's id); only decoded when the snapshot lists any.
        let namesBlobs = base.blobNameCount > 0
        // Each grouping's group of the rows written anew.
        var replacedKeys = groupings.map { _ in [Int: [UInt8]]() }
        var appendedKeys = groupings.map { _ in [(position: Int, key: [UInt8])]() }
        // The journal's changes and the level below's, over the snapshot's rows.
        for change in lazy.changesOverSnapshot() {
            if let ordinal = change.baseOrdinal {
                if namesBlobs { copy.releasedBlobs.formUnion(Codec.blobs(of: lazy.decodeBase(ordinal))) }
                if let row = change.row, change.position == ordinal {
                    copy.replaced.append((ordinal, freshRow(Codec.key(of: row), row, index, &copy)))
                    for number in groupings.indices { replacedKeys[number][ordinal] = groupings[number].key(row) }
                    continue
                }
                copy.dropped.append(ordinal)
            }
            if let row = change.row {
                copy.appended.append((change.position, freshRow(Codec.key(of: row), row, index, &copy)))
                for number in groupings.indices {
                    appendedKeys[number].append((change.position, groupings[number].key(row)))
                }
            }
        }
        // Before anything is written: a grouping section that does not add up is written from
        // every row instead.
        var groups: [[[UInt8]: [UInt32]]] = []
        for number in groupings.indices {
            guard
                let copied = copy.copiedGroups(
                    from: groupSections[number], replacedKeys: replacedKeys[number],
                    appendedKeys: appendedKeys[number])
            else { return false }
            groups.append(copied)
        }
        table.groups.writtenFilter = KeyFilter.Bits(
            prefixes: copy.write(into: &writer, bucketCount: index?.bucketCount ?? 0))
        table.groups.written = groups
        return true
    }

    @inlinable static func freshRow(_ key: Key, _ row: Row, _ index: TableIndex<Codec>?, _ copy: inout SectionCopy)
        -> SectionCopy.FreshRow
    {
        var frame = ByteWriter()
        RowFrame.part16(&frame) { Codec.encode(key: key, into: &$0) }
        RowFrame.part32(&frame) { Codec.encode(row, into: &$0) }
        copy.addedBlobs.formUnion(Codec.blobs(of: row))
        return SectionCopy.FreshRow(
            frame: frame.bytes, bucket: index.map { UInt8(truncatingIfNeeded: $0.bucket(row)) } ?? 0,
            order: index?.order(row) ?? 0)
    }
}
