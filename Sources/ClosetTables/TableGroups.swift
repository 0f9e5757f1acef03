import ClosetCore

/// A table's groupings (`TableGrouping`) and, for each, its section in the snapshot the rows
/// are read from (when it was written with them) and the groups collected while the last
/// snapshot section was written, for the grouping sections written after it.
@usableFromInline struct TableGroups<Codec: TableCodec> {
    @usableFromInline let groupings: [TableGrouping<Codec>]
    @usableFromInline var sections: [SnapshotRows?]
    /// Each grouping's rows' ordinals by group key, from the last section written.
    @usableFromInline var written: [[[UInt8]: [UInt32]]] = []
    /// The key filter of the last section's keys, written after it (nil: no section was
    /// written since the last filter).
    @usableFromInline var writtenFilter: KeyFilter.Bits?

    @inlinable init(_ groupings: [TableGrouping<Codec>]) {
        self.groupings = groupings
        sections = groupings.map { _ in nil }
    }

    @inlinable func number(of grouping: TableGrouping<Codec>) -> Int? {
        groupings.firstIndex { $0.name == grouping.name }
    }

    /// The snapshot ordinals of a group, from the grouping's section; nil without one.
    @inlinable func ordinals(_ number: Int, key: [UInt8]) -> [Int]? {
        guard number < sections.count, let section = sections[number] else { return nil }
        return GroupSection.ordinals(section, key: key)
    }

    mutating func forgetSections() { sections = groupings.map { _ in nil } }
}
