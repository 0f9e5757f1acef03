import ClosetCore

/// Answers from the table's groupings (`TableGrouping`): a group's size and rows from the
/// snapshot's grouping section, adjusted by the journal's changes, without decoding the rows
/// of other groups.
extension Table {
    /// Each grouping's section, then the key filter's (`KeyFilter`).
    public var derivedSectionNames: [String] {
        groups.groupings.map { name + "#" + $0.name } + [name + KeyFilter.sectionSuffix]
    }

    public func writeDerivedSection(_ number: Int, generation: UInt64, into writer: inout ByteWriter) {
        guard number < groups.groupings.count else {
            // Without the prefixes of a section just written, a filter of no rows: it is not
            // current for any section that has rows, so it is never used.
            KeyFilter.write(groups.writtenFilter ?? KeyFilter.Bits(keys: 0), generation: generation, into: &writer)
            groups.writtenFilter = nil
            return
        }
        let written = number < groups.written.count ? groups.written[number] : [:]
        let count = written.values.reduce(0) { $0 + $1.count }
        GroupSection.write(written, generation: generation, baseCount: count, into: &writer)
        if number == groups.groupings.count - 1 { groups.written = [] }
    }

    public func attachDerived(_ sectionName: String, _ rows: SnapshotRows, generation: UInt64) -> Bool {
        if sectionName == name + KeyFilter.sectionSuffix {
            lazy?.keyFilter = KeyFilter(rows, generation: generation, rowCount: lazy?.base.count ?? 0)
            return true
        }
        guard let number = derivedSectionNames.firstIndex(of: sectionName) else { return false }
        if let lazy, GroupSection.isCurrent(rows, generation: generation, baseCount: lazy.base.count) {
            groups.sections[number] = rows
        }
        return true
    }

    /// How many rows a grouping's `group` holds; nil when the table cannot say without
    /// decoding (its rows are decoded, or the snapshot has no current section for it).
    @inlinable public func groupCount(_ grouping: TableGrouping<Codec>, _ group: GroupKey) -> Int? {
        let key = group.bytes
        guard let number = groups.number(of: grouping), let ordinals = groups.ordinals(number, key: key),
            let lazy = lazy?.settled(), pending.changes.isEmpty
        else { return nil }
        let delta = lazy.delta
        var below: [Int] = []
        if let delta {
            guard number < delta.groupSections.count, let section = delta.groupSections[number] else { return nil }
            below = GroupSection.ordinals(section, key: key)
        }
        var count = ordinals.count + below.count
        if let delta, delta.hiddenCount > 0 { count -= ordinals.count { delta.isHidden($0) } }
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: if GroupSection.contains(ordinals, ordinal) { count -= 1 }
            case .delta(let ordinal)?: if GroupSection.contains(below, ordinal) { count -= 1 }
            case nil: break
            }
            if let row = entry.row, groups.groupings[number].key(row) == key { count += 1 }
        }
        return count
    }

    /// A grouping's `group`, in insertion order, decoding only its rows; nil as
    /// `groupCount`.
    @inlinable public func groupRows(_ grouping: TableGrouping<Codec>, _ group: GroupKey) -> [Row]? {
        let key = group.bytes
        guard let number = groups.number(of: grouping), let ordinals = groups.ordinals(number, key: key),
            let lazy = lazy?.settled(), pending.changes.isEmpty
        else { return nil }
        let delta = lazy.delta
        var below: [Int] = []
        if let delta {
            guard number < delta.groupSections.count, let section = delta.groupSections[number] else { return nil }
            below = GroupSection.ordinals(section, key: key)
        }
        var replaced = Set<Int>()
        var replacedBelow = Set<Int>()
        var changed: [(position: Int, row: Row)] = []
        for entry in lazy.latest.values {
            switch entry.lower {
            case .snapshot(let ordinal)?: replaced.insert(ordinal)
            case .delta(let ordinal)?: replacedBelow.insert(ordinal)
            case nil: break
            }
            if let row = entry.row, groups.groupings[number].key(row) == key { changed.append((entry.position, row)) }
        }
        var rows = ordinals.filter { !replaced.contains($0) && !(delta?.isHidden($0) ?? false) }
            .map { (position: $0, row: lazy.decodeBase($0)) }
        rows += below.filter { !replacedBelow.contains($0) }
            .map { (position: lazy.position(.delta($0)), row: lazy.decode(.delta($0))) }
        rows += changed
        return rows.sorted { $0.position < $1.position }.map(\.row)
    }
}
