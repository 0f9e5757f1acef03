import ClosetCore

extension SectionCopy {
    /// A grouping's groups for the section `write` makes, from the grouping's section in the
    /// current snapshot: each group's kept rows renumbered, a replaced row moved to its new
    /// group, new rows added under theirs. The same groups a section written row by row
    /// collects, without decoding a row: a table with groupings (the community's stories,
    /// comments and likes) is copied as bytes like any other. Nil when the section does not
    /// add up (the rows are then written one by one).
    /// `replacedKeys`: each replaced row's group now; `appendedKeys`: each appended row's, by
    /// its place in insertion order.
    @usableFromInline func copiedGroups(
        from section: SnapshotRows, replacedKeys: [Int: [UInt8]], appendedKeys: [(position: Int, key: [UInt8])]
    ) -> [[UInt8]: [UInt32]]? {
        let count = base.count
        let shift = OrdinalShift(count: count, dropping: dropped)
        var groups: [[UInt8]: [UInt32]] = [:]
        var listed = 0
        var malformed = false
        // Replaced rows found in the group they still belong to.
        var stayed = Set<Int>()
        // Every row in one group exactly: a section listing a row twice is not copied.
        var seen = OrdinalSet(capacity: count)
        section.forEachFrameBuffer { _, key, row in
            guard !malformed, !key.elementsEqual(GroupSection.recordKey) else { return }
            guard row.count >= 4, case let members = Int(row.loadUnaligned(as: UInt32.self).littleEndian),
                row.count == 4 + members * 4
            else {
                malformed = true
                return
            }
            let group = Array(key)
            var kept: [UInt32] = []
            kept.reserveCapacity(members)
            for member in 0..<members {
                let ordinal = Int(row.loadUnaligned(fromByteOffset: 4 + member * 4, as: UInt32.self).littleEndian)
                guard ordinal < count, !seen.contains(ordinal) else {
                    malformed = true
                    return
                }
                seen.insert(ordinal)
                guard !shift.isDropped(ordinal) else { continue }
                if let now = replacedKeys[ordinal] {
                    guard now == group else { continue }
                    stayed.insert(ordinal)
                }
                kept.append(UInt32(shift.newOrdinal(ordinal)))
            }
            listed += members
            if !kept.isEmpty { groups[group] = kept }
        }
        guard !malformed, listed == count else { return nil }
        var added = Set<[UInt8]>()
        for (ordinal, key) in replacedKeys where !stayed.contains(ordinal) {
            groups[key, default: []].append(UInt32(shift.newOrdinal(ordinal)))
            added.insert(key)
        }
        for key in added { groups[key]?.sort() }
        // After every kept row, in insertion order (as `write` puts them).
        let kept = count - dropped.count
        for (number, appended) in appendedKeys.sorted(by: { $0.position < $1.position }).enumerated() {
            groups[appended.key, default: []].append(UInt32(kept + number))
        }
        return groups
    }
}
