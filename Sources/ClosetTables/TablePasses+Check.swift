import ClosetCore

/// `.check` for a table still read in place: its section's index, and every row decoded once
/// and dropped (memory stays at one row), each row's key the key its frame holds.
extension TablePasses {
    @inlinable static func check(_ table: Table<Codec>) -> String? {
        let name = table.name
        guard let base = table.lazy?.base else { return nil }
        if let problem = base.indexProblem() {
            return "table '\(name)': its snapshot section passes its checksum but \(problem)"
        }
        // Each grouping section in use: what the rows' own keys say.
        var groups = table.groups.sections.map { $0 == nil ? nil : [[UInt8]: [Int]]() }
        // The key filter, when current, must let every key the rows hold through.
        let filter = table.lazy?.keyFilter
        let filterWords = filter?.words()
        for ordinal in 0..<base.count {
            let frame = base.frameBytes(ordinal)
            var reader = ByteReader(frame.bytes, from: frame.row.lowerBound, to: frame.row.upperBound)
            guard let row = try? Codec.decodeRow(from: &reader), reader.isAtEnd,
                LazyRows<Codec>.keyBytes(Codec.key(of: row)) == Array(frame.bytes[frame.key])
            else {
                return "table '\(name)': snapshot row \(ordinal) passes its checksum but cannot be read"
            }
            for number in groups.indices where groups[number] != nil {
                groups[number]?[table.groups.groupings[number].key(row), default: []].append(ordinal)
            }
            if let filter, let filterWords,
                !frame.bytes.withUnsafeBytes({
                    filter.letsThrough(UnsafeRawBufferPointer(rebasing: $0[frame.key]), words: filterWords)
                })
            {
                return "table '\(name)': its key filter passes its checksum but rules out a key its rows hold"
            }
        }
        for (number, expected) in groups.enumerated() {
            guard let expected, let section = table.groups.sections[number] else { continue }
            if let problem = section.indexProblem() ?? Self.groupProblem(section, expected) {
                return
                    "table '\(name)': its grouping section '\(table.groups.groupings[number].name)' passes its checksum but \(problem)"
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
