import Testing

@testable import ClosetCore
@testable import ClosetTables

/// A compaction that copies a grouped table as bytes carries its groups over from the grouping
/// section (`SectionCopy.copiedGroups`); a section that does not list every row exactly once is
/// not carried (the rows are then read to collect the groups).
@Suite struct GroupCopyTests {
    /// A table section of `count` rows and a grouping section of `groups`, read in place.
    func withSections(
        count: Int, groups: [[UInt8]: [UInt32]], _ body: (SnapshotRows, SnapshotRows) throws -> Void
    ) throws {
        var table = ByteWriter()
        SnapshotSection.write(into: &table) { writer, _ in
            for number in 0..<count {
                RowFrame.part16(&writer) { $0.u32(UInt32(number)) }
                RowFrame.part32(&writer) { $0.u32(UInt32(number)) }
            }
            return count
        }
        var grouping = ByteWriter()
        GroupSection.write(groups, generation: 1, baseCount: count, into: &grouping)
        try table.bytes.withUnsafeBytes { tableMemory in
            try grouping.bytes.withUnsafeBytes { groupingMemory in
                let rows = try #require(SnapshotRows(memory: tableMemory, owner: Tables(), start: 0))
                let section = try #require(SnapshotRows(memory: groupingMemory, owner: Tables(), start: 0))
                try body(rows, section)
            }
        }
    }

    @Test func keptRowsAreRenumberedMovedRowsMoveAndNewRowsComeLast() throws {
        let (a, b): ([UInt8], [UInt8]) = ([2, 97], [2, 98])
        try withSections(count: 4, groups: [a: [0, 2], b: [1, 3]]) { rows, section in
            var copy = SectionCopy(base: rows)
            copy.dropped = [2]
            let groups = copy.copiedGroups(
                from: section, replacedKeys: [1: a, 3: b], appendedKeys: [(10, b), (5, a)])
            // Row 1 moved to `a`, row 3 stayed in `b` (now 2); the new rows after the 3 kept, by place.
            #expect(groups == [a: [0, 1, 3], b: [2, 4]])
        }
    }

    @Test func aSectionThatDoesNotListEveryRowOnceIsNotCarried() throws {
        let (a, b): ([UInt8], [UInt8]) = ([2, 97], [2, 98])
        for groups in [[a: [0, 1], b: [1]], [a: [0]], [a: [0, 5]], [a: [0, 1], b: [1, 2]]] as [[[UInt8]: [UInt32]]] {
            let count = groups.values.reduce(0) { $0 + $1.count } == 3 ? 3 : 2
            try withSections(count: count, groups: groups) { rows, section in
                let copy = SectionCopy(base: rows)
                #expect(copy.copiedGroups(from: section, replacedKeys: [:], appendedKeys: []) == nil)
            }
        }
        // The same shape listing each row once is carried.
        try withSections(count: 3, groups: [a: [0, 1], b: [2]]) { rows, section in
            let copy = SectionCopy(base: rows)
            #expect(copy.copiedGroups(from: section, replacedKeys: [:], appendedKeys: []) == [a: [0, 1], b: [2]])
        }
    }
}
