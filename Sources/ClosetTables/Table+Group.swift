import ClosetCore

/// Answers from the table's groupings (`TableGrouping`): a group's size and rows from the
/// snapshot's grouping section, adjusted by the journal's changes, without decoding the rows
/// of other groups.
extension Table {
    public var derivedSectionNames: [String] { groupings.map { name + "#" + $0.name } }

    public func writeDerivedSection(_ number: Int, generation: UInt64, into writer: inout ByteWriter) {
        let groups = number < writtenGroups.count ? writtenGroups[number] : [:]
        let count = groups.values.reduce(0) { $0 + $1.count }
        GroupSection.write(groups, generation: generation, baseCount: count, into: &writer)
        if number == groupings.count - 1 { writtenGroups = [] }
    }

    public func attachDerived(_ sectionName: String, _ rows: SnapshotRows, generation: UInt64) -> Bool {
        guard let number = derivedSectionNames.firstIndex(of: sectionName) else { return false }
        if let lazy, GroupSection.isCurrent(rows, generation: generation, baseCount: lazy.base.count) {
            groupSections[number] = rows
        }
        return true
    }

    /// How many rows a grouping's `group` holds; nil when the table cannot say without
    /// decoding (its rows are decoded, or the snapshot has no current section for it).
    @inlinable public func groupCount(_ grouping: TableGrouping<Codec>, _ group: GroupKey) -> Int? {
        let key = group.bytes
        guard let number = groupings.firstIndex(where: { $0.name == grouping.name }),
            let (lazy, ordinals) = groupOrdinals(number, key: key)
        else { return nil }
        var count = ordinals.count
        for entry in lazy.latest.values {
            if let ordinal = entry.baseOrdinal, Self.contains(ordinals, ordinal) { count -= 1 }
            if let row = entry.row, groupings[number].key(row) == key { count += 1 }
        }
        return count
    }

    /// A grouping's `group`, in insertion order, decoding only its rows; nil as
    /// `groupCount`.
    @inlinable public func groupRows(_ grouping: TableGrouping<Codec>, _ group: GroupKey) -> [Row]? {
        let key = group.bytes
        guard let number = groupings.firstIndex(where: { $0.name == grouping.name }),
            let (lazy, ordinals) = groupOrdinals(number, key: key)
        else { return nil }
        var replaced = Set<Int>()
        var changed: [(position: Int, row: Row)] = []
        for entry in lazy.latest.values {
            if let ordinal = entry.baseOrdinal { replaced.insert(ordinal) }
            if let row = entry.row, groupings[number].key(row) == key { changed.append((entry.position, row)) }
        }
        var rows = ordinals.filter { !replaced.contains($0) }.map { (position: $0, row: decodeBase($0, lazy.base)) }
        rows += changed
        return rows.sorted { $0.position < $1.position }.map(\.row)
    }

    @inlinable func groupOrdinals(_ number: Int, key: [UInt8]) -> (LazyRows<Codec>, [Int])? {
        guard number < groupSections.count, let section = groupSections[number], let lazy = settled, changes.isEmpty
        else { return nil }
        return (lazy, GroupSection.ordinals(section, key: key))
    }

    @inlinable static func contains(_ sorted: [Int], _ value: Int) -> Bool {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }
}
