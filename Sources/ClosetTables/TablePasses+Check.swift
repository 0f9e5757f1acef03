import ClosetCore

/// `.check` for a table still read in place: its section's index, and every row decoded once
/// and dropped (memory stays at one row), each row's key the key its frame holds.
extension TablePasses {
    @inlinable static func check(_ table: Table<Codec>) -> String? {
        guard let lazy = table.lazy else { return nil }
        if let problem = checkSection(
            table, lazy.base, groupSections: table.groups.sections, filter: lazy.keyFilter, what: "snapshot")
        {
            return problem
        }
        guard let delta = lazy.delta else { return nil }
        if let problem = checkSection(
            table, delta.rows, groupSections: delta.groupSections, filter: delta.keyFilter, what: "delta")
        {
            return problem
        }
        // Counts read the hidden rows per bucket from the record: they must be the hidden rows'.
        if lazy.base.bucketCount > 0 {
            var perBucket = [Int](repeating: 0, count: lazy.base.bucketCount)
            for ordinal in delta.hidden { perBucket[lazy.base.bucket(ordinal)] += 1 }
            if perBucket != delta.hiddenPerBucket {
                return "table '\(table.name)': its delta's record passes its checksum but miscounts the rows it hides"
            }
        }
        // Each row of the level replaces the snapshot row at its place (same key) or is not in
        // the snapshot but hidden there.
        let positions = delta.positions
        for ordinal in 0..<delta.rows.count {
            let frame = delta.rows.frameBytes(ordinal)
            let key = Array(frame.bytes[frame.key])
            let inSnapshot = lazy.base.ordinal(ofKey: key)
            let fits =
                positions[ordinal] < lazy.base.count
                ? inSnapshot == positions[ordinal] : inSnapshot.map(delta.isHidden) ?? true
            if !fits {
                return "table '\(table.name)': its delta row \(ordinal) does not match the snapshot row it replaces"
            }
        }
        return nil
    }

    /// A section's index, its rows each decoded once (its key the key its frame holds), its
    /// grouping sections and its key filter.
    @inlinable static func checkSection(
        _ table: Table<Codec>, _ rows: SnapshotRows, groupSections: [SnapshotRows?], filter: KeyFilter?, what: String
    ) -> String? {
        let name = table.name
        if let problem = rows.indexProblem() {
            return "table '\(name)': its \(what) section passes its checksum but \(problem)"
        }
        // Each grouping section in use: what the rows' own keys say.
        var groups = table.groups.groupings.indices.map {
            $0 < groupSections.count && groupSections[$0] != nil ? [[UInt8]: [Int]]() : nil
        }
        // The key filter, when current, must let every key the rows hold through.
        let filterWords = filter?.words()
        for ordinal in 0..<rows.count {
            let frame = rows.frameBytes(ordinal)
            var reader = ByteReader(frame.bytes, from: frame.row.lowerBound, to: frame.row.upperBound)
            guard let row = try? Codec.decodeRow(from: &reader), reader.isAtEnd,
                LazyRows<Codec>.keyBytes(Codec.key(of: row)) == Array(frame.bytes[frame.key])
            else {
                return "table '\(name)': \(what) row \(ordinal) passes its checksum but cannot be read"
            }
            for number in groups.indices where groups[number] != nil {
                groups[number]?[table.groups.groupings[number].key(row), default: []].append(ordinal)
            }
            if let filter, let filterWords,
                !frame.bytes.withUnsafeBytes({
                    filter.letsThrough(UnsafeRawBufferPointer(rebasing: $0[frame.key]), words: filterWords)
                })
            {
                return "table '\(name)': its \(what) key filter passes its checksum but rules out a key its rows hold"
            }
        }
        for (number, expected) in groups.enumerated() {
            guard let expected, let section = groupSections[number] else { continue }
            if let problem = section.indexProblem() ?? Self.groupProblem(section, expected) {
                let grouping = table.groups.groupings[number].name
                return "table '\(name)': its \(what) grouping section '\(grouping)' passes its checksum but \(problem)"
            }
        }
        return nil
    }

    /// Whether a grouping section lists exactly the groups the rows give.
    @usableFromInline static func groupProblem(_ section: SnapshotRows, _ expected: [[UInt8]: [Int]]) -> String? {
        var found = 0
        for ordinal in 0..<section.count {
            let frame = section.frameBytes(ordinal)
            let key = Array(frame.bytes[frame.key])
            guard key != GroupSection.recordKey else { continue }
            var reader = ByteReader(frame.bytes, from: frame.row.lowerBound, to: frame.row.upperBound)
            guard let count = try? reader.u32(), Int(count) * 4 == reader.end - reader.position else {
                return "a group's row does not add up"
            }
            let ordinals = (0..<Int(count)).compactMap { _ in (try? reader.u32()).map(Int.init) }
            guard expected[key] == ordinals else { return "a group does not list the rows that belong to it" }
            found += 1
        }
        return found == expected.count ? nil : "it lacks a group"
    }
}
