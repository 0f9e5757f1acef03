import ClosetCore
import Testing

@testable import ClosetTables

/// Numbers in three buckets (order keys many rows share) and grouped by tens: a table with
/// every structure the level below a snapshot must merge.
enum LayeredTable: NumberRows {
    static let schema = TableSchema<LayeredTable>(
        name: "layered",
        index: TableIndex(bucketCount: 3, bucket: { Int($0.number % 3) }, order: { Int64($0.number / 4) - 20 }),
        groupings: [.number("tens") { Int($0.number / 10) }])
}

/// Numbers from a seed (SplitMix64), so a failing case can be run again.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Bytes kept at a fixed address for as long as sections read them, as a mapped file's are.
final class HeldBytes {
    let memory: UnsafeMutableRawBufferPointer

    init(_ bytes: [UInt8]) {
        memory = .allocate(byteCount: max(1, bytes.count), alignment: 8)
        bytes.withUnsafeBytes { memory.copyMemory(from: $0) }
    }

    deinit { memory.deallocate() }

    func section() -> SnapshotRows? { SnapshotRows(memory: UnsafeRawBufferPointer(memory), owner: self, start: 0) }
}

/// The level below a snapshot (`DeltaRows`) read with the snapshot's rows and the journal's
/// changes over both gives every answer the same rows decoded in memory give: lookups, counts,
/// index walks, scans, groups, the rows in order, and the snapshot section a compaction writes
/// from them. Rows change at random over a snapshot, are written as a level, change again over
/// that level, and are written as a second level over the first.
@Suite struct DeltaRowsTests {
    typealias Row = NumberTable.Row

    /// Insertion order as a table keeps it: a replaced row keeps its place, a removed one
    /// added again goes last.
    struct Model {
        var rows: [(key: String, row: Row)] = []

        mutating func upsert(_ row: Row) {
            if let place = rows.firstIndex(where: { $0.key == row.name }) {
                rows[place].row = row
            } else {
                rows.append((row.name, row))
            }
        }

        mutating func remove(_ key: String) { rows.removeAll { $0.key == key } }
    }

    /// A table's section and derived sections as a snapshot of `generation` holds them.
    static func snapshotSections(_ table: Table<LayeredTable>, generation: UInt64) -> [String: HeldBytes] {
        var sections: [String: HeldBytes] = [:]
        var writer = ByteWriter()
        table.writeSnapshotSection(committed: true, into: &writer)
        sections[table.name] = HeldBytes(writer.bytes)
        for (number, name) in table.derivedSectionNames.enumerated() {
            var derived = ByteWriter()
            table.writeDerivedSection(number, generation: generation, into: &derived)
            sections[name] = HeldBytes(derived.bytes)
        }
        return sections
    }

    /// A new table reading `snapshot` in place, with `delta` below it when given.
    static func reopen(
        snapshot: [String: HeldBytes], generation: UInt64, delta: [String: HeldBytes]?, deltaGeneration: UInt64
    ) throws -> (Tables, Table<LayeredTable>) {
        let tables = Tables()
        let table = try tables.table(LayeredTable.schema)
        #expect(table.attach(try #require(snapshot[table.name]?.section())))
        for name in table.derivedSectionNames {
            #expect(table.attachDerived(name, try #require(snapshot[name]?.section()), generation: generation))
        }
        if let delta {
            let rows = try #require(delta[table.name]?.section())
            let record = try #require(delta[table.name + DeltaRows.sectionSuffix]?.section())
            var derived: [String: SnapshotRows] = [:]
            for name in table.derivedSectionNames { derived[name] = delta[name]?.section() }
            #expect(table.attachDelta(rows: rows, record: record, derived: derived, generation: deltaGeneration))
        }
        return (tables, table)
    }

    static func deltaSections(_ table: Table<LayeredTable>, generation: UInt64) throws -> [String: HeldBytes] {
        var sections: [String: HeldBytes] = [:]
        for section in try #require(table.deltaSections(generation: generation, committed: true)).sections {
            var writer = ByteWriter()
            section.write(&writer)
            sections[section.name] = HeldBytes(writer.bytes)
        }
        return sections
    }

    /// Random changes, committed: upserts of old and new keys, removals, some keys removed and
    /// added back.
    static func change(
        _ tables: Tables, _ table: Table<LayeredTable>, _ model: inout Model, count: Int,
        using random: inout some RandomNumberGenerator
    ) {
        for _ in 0..<count {
            let key = "k\(Int.random(in: 0..<120, using: &random))"
            if Int.random(in: 0..<4, using: &random) == 0 {
                table.remove(key)
                model.remove(key)
            } else {
                let row = Row(name: key, number: UInt32.random(in: 0..<90, using: &random))
                table.upsert(row)
                model.upsert(row)
            }
        }
        tables.forgetPendingChanges()
    }

    /// Every answer the table gives, against the model's.
    static func expectSameAnswers(_ table: Table<LayeredTable>, _ model: Model, _ context: String) throws {
        let rows = model.rows.map(\.row)
        #expect(table.count == rows.count, "\(context): count")
        for number in 0..<125 {
            let key = "k\(number)"
            #expect(table[key] == model.rows.first { $0.key == key }?.row, "\(context): \(key)")
            #expect(table.contains(key) == model.rows.contains { $0.key == key }, "\(context): contains \(key)")
        }
        // Spans of one row, a few and all: the level below's rows are read a span at a time.
        for span in [1, 40, 1 << 20] {
            var inOrder: [Row] = []
            #expect(try table.forEachRowInOrder(span: span) { inOrder.append($0) }, "\(context): in place")
            #expect(inOrder == rows, "\(context): rows in order, span \(span)")
        }
        let index = try #require(LayeredTable.schema.index)
        // Descending: order key down, ties the later-added first; ascending exactly the reverse.
        func walked(_ buckets: [Int], descending: Bool) -> [Row] {
            let picked = Array(rows.enumerated().filter { buckets.contains(index.bucket($0.element)) })
            let sorted = picked.sorted { a, b in
                let (x, y) = (index.order(a.element), index.order(b.element))
                return x != y ? x > y : a.offset > b.offset
            }.map(\.element)
            return descending ? sorted : sorted.reversed()
        }
        for buckets in [[0], [1, 2], [0, 1, 2]] {
            #expect(
                table.indexedCount(buckets: buckets) == walked(buckets, descending: true).count,
                "\(context): count \(buckets)")
            for descending in [true, false] {
                let expected = walked(buckets, descending: descending)
                #expect(
                    table.indexedRows(groups: [buckets], descending: descending, limit: .max) == expected,
                    "\(context): walk \(buckets) \(descending)")
                for skip in [3, expected.count / 3, expected.count - 2, expected.count + 5] {
                    #expect(
                        table.indexedRows(groups: [buckets], descending: descending, skip: skip, limit: 5)
                            == Array(expected.dropFirst(skip).prefix(5)), "\(context): page \(buckets) from \(skip)")
                }
                let after: Int64 = -10
                #expect(
                    table.indexedRows(groups: [buckets], descending: descending, after: after, limit: .max)
                        == expected.filter { BucketCursor.isAfter(index.order($0), after, descending) },
                    "\(context): after \(buckets)")
                let list = try #require(table.indexedRowList(groups: [buckets], descending: descending, limit: .max))
                #expect((0..<list.count).map(list.row(at:)) == expected, "\(context): list \(buckets)")
                let odd = RowTest<Row>(bytesPass: { _ in nil }, rowPasses: { $0.number % 2 == 1 })
                #expect(table.countRows(buckets: buckets, passing: odd) == expected.count { $0.number % 2 == 1 })
                #expect(
                    table.indexedRows(groups: [buckets], descending: descending, limit: .max, passing: odd)
                        == expected.filter { $0.number % 2 == 1 }, "\(context): scan \(buckets)")
            }
        }
        let grouped = walked([2], descending: true) + walked([0, 1], descending: true)
        #expect(
            table.indexedRows(groups: [[2], [0, 1]], descending: true, limit: .max) == grouped,
            "\(context): groups of buckets")
        for skip in [walked([2], descending: true).count - 1, grouped.count / 2] {
            #expect(
                table.indexedRows(groups: [[2], [0, 1]], descending: true, skip: skip, limit: 4)
                    == Array(grouped.dropFirst(skip).prefix(4)), "\(context): groups of buckets from \(skip)")
        }
        let tens = LayeredTable.schema.groupings[0]
        for group in 0..<10 {
            let expected = rows.filter { $0.number / 10 == group }
            #expect(table.groupCount(tens, .number(group)) == expected.count, "\(context): group \(group) count")
            #expect(table.groupRows(tens, .number(group)) == expected, "\(context): group \(group)")
        }
    }

    @Test(arguments: 0..<12) func aLevelBelowTheSnapshotAnswersAsTheRowsDo(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var model = Model()
        // The snapshot: rows written by a first table, read in place by the next.
        let first = Tables()
        let written = try first.table(LayeredTable.schema)
        for number in 0..<80 {
            let row = Row(name: "k\(number)", number: UInt32.random(in: 0..<90, using: &random))
            written.upsert(row)
            model.upsert(row)
        }
        first.forgetPendingChanges()
        let snapshot = Self.snapshotSections(written, generation: 1)
        var (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: nil, deltaGeneration: 0)
        Self.change(tables, table, &model, count: 30, using: &random)
        let firstLevel = try Self.deltaSections(table, generation: 2)
        (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: firstLevel, deltaGeneration: 2)
        try Self.expectSameAnswers(table, model, "level \(seed)")
        // The journal over the level.
        Self.change(tables, table, &model, count: 25, using: &random)
        try Self.expectSameAnswers(table, model, "journal over level \(seed)")
        // A second level made from the first and the journal.
        let secondLevel = try Self.deltaSections(table, generation: 3)
        (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: secondLevel, deltaGeneration: 3)
        try Self.expectSameAnswers(table, model, "second level \(seed)")
        var atSecondLevel = model
        Self.change(tables, table, &model, count: 10, using: &random)
        // Merged into a new snapshot section (copied as bytes): byte for byte the one the same
        // rows give decoded in memory, and read back the same.
        let merged = Self.snapshotSections(table, generation: 4)
        let plain = Tables()
        let decoded = try plain.table(LayeredTable.schema)
        for entry in model.rows { decoded.upsert(entry.row) }
        plain.forgetPendingChanges()
        let fromRows = Self.snapshotSections(decoded, generation: 4)
        for (name, bytes) in fromRows {
            let mergedBytes = try #require(merged[name])
            #expect(Array(mergedBytes.memory) == Array(bytes.memory), "\(seed): section \(name)")
        }
        (tables, table) = try Self.reopen(snapshot: merged, generation: 4, delta: nil, deltaGeneration: 0)
        try Self.expectSameAnswers(table, model, "merged \(seed)")
        // Materialized (every row decoded) from snapshot, level and journal.
        (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: secondLevel, deltaGeneration: 3)
        Self.change(tables, table, &atSecondLevel, count: 10, using: &random)
        #expect(table.rows == atSecondLevel.rows.map(\.row), "\(seed): materialized")
        // And materialized with changes pending (replayed by key after the level).
        table.remove("k1")
        atSecondLevel.remove("k1")
        let row = Row(name: "k200", number: 7)
        table.upsert(row)
        atSecondLevel.upsert(row)
        #expect(table.rows == atSecondLevel.rows.map(\.row), "\(seed): materialized with changes pending")
    }

    /// Rows only added, over the snapshot and over the level (nothing hidden or replaced): a
    /// page far down a bucket is found by binary search between the level's and the journal's
    /// rows, and is the page the rows give.
    @Test(arguments: 0..<4) func rowsOnlyAddedArePagedByBinarySearch(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var model = Model()
        var next = 0
        func add(_ table: Table<LayeredTable>, _ count: Int) {
            for _ in 0..<count {
                let row = Row(name: "a\(next)", number: UInt32.random(in: 0..<90, using: &random))
                next += 1
                table.upsert(row)
                model.upsert(row)
            }
        }
        let first = Tables()
        let written = try first.table(LayeredTable.schema)
        add(written, 300)
        first.forgetPendingChanges()
        let snapshot = Self.snapshotSections(written, generation: 1)
        var (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: nil, deltaGeneration: 0)
        add(table, 40)
        tables.forgetPendingChanges()
        let level = try Self.deltaSections(table, generation: 2)
        (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: level, deltaGeneration: 2)
        try Self.expectSameAnswers(table, model, "added to a level \(seed)")
        add(table, 15)
        tables.forgetPendingChanges()
        try Self.expectSameAnswers(table, model, "added over a level \(seed)")
    }

    @Test func aRecordThatDoesNotAddUpIsNotTaken() throws {
        let first = Tables()
        let written = try first.table(LayeredTable.schema)
        for number in 0..<10 { written.upsert(Row(name: "k\(number)", number: UInt32(number))) }
        first.forgetPendingChanges()
        let snapshot = Self.snapshotSections(written, generation: 1)
        let (tables, table) = try Self.reopen(snapshot: snapshot, generation: 1, delta: nil, deltaGeneration: 0)
        table.remove("k3")
        tables.forgetPendingChanges()
        let level = try Self.deltaSections(table, generation: 2)
        // A record written over another snapshot section (of 9 rows) is refused.
        var wrong = ByteWriter()
        DeltaRows.writeRecord(
            baseCount: 9, hidden: [3], hiddenPerBucket: [1, 0, 0], positions: [], endPosition: 9, into: &wrong)
        let other = try Self.reopen(snapshot: snapshot, generation: 1, delta: nil, deltaGeneration: 0).1
        let rows = try #require(level[table.name]?.section())
        #expect(
            !other.attachDelta(
                rows: rows, record: try #require(HeldBytes(wrong.bytes).section()), derived: [:], generation: 2))
        // The right one is taken once, and only before any change.
        let record = try #require(level[table.name + DeltaRows.sectionSuffix]?.section())
        #expect(other.attachDelta(rows: rows, record: record, derived: [:], generation: 2))
        #expect(!other.attachDelta(rows: rows, record: record, derived: [:], generation: 2))
        #expect(other.count == 9)
        #expect(other["k3"] == nil)
        #expect(other.checkSnapshotRows() == nil)
        // One whose counts per bucket are not its hidden rows' (row 3 is in bucket 0) is taken
        // (counts add up) and found by the check.
        var miscounted = ByteWriter()
        DeltaRows.writeRecord(
            baseCount: 10, hidden: [3], hiddenPerBucket: [0, 1, 0], positions: [], endPosition: 10, into: &miscounted)
        let third = try Self.reopen(snapshot: snapshot, generation: 1, delta: nil, deltaGeneration: 0).1
        #expect(
            third.attachDelta(
                rows: rows, record: try #require(HeldBytes(miscounted.bytes).section()), derived: [:], generation: 2))
        #expect(third.checkSnapshotRows()?.contains("miscounts the rows it hides") == true)
    }
}
