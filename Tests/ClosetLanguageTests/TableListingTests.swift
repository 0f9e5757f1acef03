import ClosetCore
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// A listing drawn a row at a time (`TableListing`) is byte for byte the table its whole grid
/// draws (`RecordGrid` then `TableRenderer`), over random listings: keys whose short forms
/// collide, an optional column null in every row or not, marks in colour, Korean headers and row
/// labels, pages, captions and cursors, box drawing, narrow terminals that cut columns; and a
/// terminal too narrow even for cut columns is left to the grid (a field per line).
@Suite struct TableListingTests {
    static let kind = EntityKind(
        singular: "thing", plural: "things", korean: "것", indefinite: "a thing", koreanRowLabel: "번"
    ) {
        .init(
            table: ["id", "name", "picture", "count", "when", "ref"],
            koreanTable: ["아이디", "이름", "사진", "개수", "날짜", "참조"],
            data: ["id", "name", "picture", "count", "when", "ref"],
            optionalTable: ["picture"], wholeTable: ["ref"])
    }

    static func uuid(_ random: inout SeededRandom, sharing prefix: [UInt8]) -> UUID {
        // Two leading bytes from a handful: short forms (eight hex digits) collide often.
        var bytes = (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) }
        for (index, byte) in prefix.enumerated() { bytes[index] = byte }
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
                bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    static func record(_ random: inout SeededRandom, pictures: Bool, colliding: Bool = true) -> Record {
        let collide = colliding && Bool.random(using: &random)
        let prefix: [UInt8] = collide ? [7, 7, 7, UInt8.random(in: 0...1, using: &random)] : []
        let names = ["knit", "니트 cardigan", "a very long name that a narrow terminal cuts", "tab\there", "🙂", ""]
        let values: [FieldValue] = [
            .key(.uuid(uuid(&random, sharing: prefix))),
            Bool.random(using: &random)
                ? .text(names.randomElement(using: &random)!) : .marked("struck", .struck),
            pictures && Bool.random(using: &random) ? .text("[picture]") : .null,
            .integer(Int.random(in: -5...100_000, using: &random)),
            .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)))),
            Bool.random(using: &random) ? .key(.opaque(["A1", "B22", "A1"].randomElement(using: &random)!)) : .null,
        ]
        return Record(fields: [], data: values, table: values)
    }

    @Test(arguments: 0..<150)
    func aListingDrawnRowByRowIsTheWholeGridsTable(seed: Int) throws {
        var random = SeededRandom(seed: UInt64(seed) + 100)
        let count = [0, 1, 2, 3, 40, 300].randomElement(using: &random)!
        let pictures = Bool.random(using: &random)
        let records = (0..<count).map { _ in Self.record(&random, pictures: pictures) }
        let keys = records.map { record -> EntityKey in
            if case .key(let key) = record.table[0] { return key }
            return .opaque("?")
        }
        var outcome = Outcome.listing(Self.kind, keys) { records[$0] }
        if case .entities(var entities) = outcome {
            if Bool.random(using: &random) { entities.page = Page(firstRow: 41, next: { _ in .nothing }, remaining: 7) }
            if Bool.random(using: &random) { entities.caption = .text("caption\tline") }
            if Bool.random(using: &random) { entities.cursor = ListingCursor(next: "abc") }
            outcome = .entities(entities)
        }
        guard case .entities(let entities) = outcome else { throw TableListingTestFailure() }
        let korean = Bool.random(using: &random)
        var renderer = TableRenderer(
            boxDrawing: Bool.random(using: &random),
            maxWidth: [nil, 200, 90, 80, 70, 60, 12].randomElement(using: &random)!,
            color: Bool.random(using: &random))
        renderer.headers = Bool.random(using: &random)
        let grid = try #require(RecordGrid.grid(for: outcome, format: .table, language: korean ? .ko : .en))
        let whole = renderer.render(grid)
        var pieces: [String] = []
        let drawn = TableListing(entities: entities, korean: korean, renderer: renderer).write { pieces.append($0) }
        if drawn {
            #expect(pieces.joined() == whole, "seed \(seed): \(count) rows, width \(renderer.maxWidth ?? 0)")
        } else {
            // Too narrow even cut: nothing written, and the grid draws a field per line.
            #expect(pieces.isEmpty)
            #expect(
                whole
                    == VerticalRenderer(
                        width: renderer.maxWidth ?? 0, color: renderer.color,
                        boxDrawing: renderer.boxDrawing
                    ).render(grid))
        }
    }

    /// Long enough to be written in several pieces, each before the rows after it are made.
    @Test func aLongListingIsWrittenInPieces() throws {
        var random = SeededRandom(seed: 9)
        let records = (0..<30_000).map { _ in Self.record(&random, pictures: true, colliding: false) }
        let keys = records.map { _ in EntityKey.opaque("k") }
        final class Made: @unchecked Sendable { var count = 0 }
        let made = Made()
        guard
            case .entities(let entities) = Outcome.listing(
                Self.kind, keys,
                record: { index in
                    made.count += 1
                    return records[index]
                })
        else { throw TableListingTestFailure() }
        var pieces: [String] = []
        var madeBefore: [Int] = []
        #expect(
            TableListing(entities: entities, korean: false, renderer: TableRenderer()).write {
                pieces.append($0)
                madeBefore.append(made.count)
            })
        let grid = RecordGrid.grid(entities, forPeople: true)
        #expect(pieces.joined() == TableRenderer().render(grid))
        #expect(pieces.count > 1)
        // The first piece is handed over before the last rows are made (again) to be drawn.
        #expect((madeBefore.first ?? made.count) < made.count, "\(madeBefore) of \(made.count)")
    }
}

/// A listing's window (`limit=` over a listing, the page after one) and its redaction keep
/// making records a row at a time: a window makes only its own rows, in order, and each is the
/// record the whole listing has at that place.
@Suite struct ListingWindowTests {
    @Test func aWindowAndARedactionMakeOnlyTheirOwnRows() throws {
        var random = SeededRandom(seed: 3)
        let records = (0..<50).map { _ in TableListingTests.record(&random, pictures: false) }
        let keys = (0..<50).map { EntityKey.opaque(String($0)) }
        final class Made: @unchecked Sendable { var rows: [Int] = [] }
        let made = Made()
        guard
            case .entities(let all) = Outcome.listing(
                TableListingTests.kind, keys,
                record: { index in
                    made.rows.append(index)
                    return records[index]
                })
        else { throw TableListingTestFailure() }
        let window = all.slice(10..<15)
        #expect(Array(window.keys) == Array(keys[10..<15]))
        var seen: [Record] = []
        window.forEachRecord { seen.append($0) }
        #expect(made.rows == Array(10..<15))
        #expect(seen.map(\.table) == records[10..<15].map(\.table))
        // Past the end: clamped, as `dropFirst` and `prefix` were.
        #expect(Array(all.slice(48..<60).keys) == Array(keys[48...]))
        made.rows = []
        let redacted = window.mappingRecords { record in
            Record(fields: [], data: record.data.map { _ in .null }, table: record.table.map { _ in .null })
        }
        var nulls = 0
        redacted.forEachRecord { record in nulls += record.table.count { $0 == .null } }
        #expect(made.rows == Array(10..<15))
        #expect(nulls == 5 * TableListingTests.kind.tableColumns.count)
        guard case .each = redacted.source else {
            Issue.record("a redacted listing made a row at a time is no longer made so")
            return
        }
    }
}

struct TableListingTestFailure: Error {}

/// Keys made when asked for behave as the array they stand for: counted, sliced (a window),
/// and followed by a page's keys, each key made only when asked for.
@Suite struct ListingKeysTests {
    @Test func madeKeysAreTheArrayTheyStandFor() {
        let array = (0..<50).map { EntityKey.opaque("key \($0)") }
        let asked = Counter()
        let made = ListingKeys(count: 50) { row in
            asked.count += 1
            return .opaque("key \(row)")
        }
        #expect(made.count == 50 && asked.count == 0)
        #expect(Array(made) == array)
        #expect(made[17] == array[17])
        #expect(Array(made.slice(10..<20)) == Array(array[10..<20]))
        let more = ListingKeys([.opaque("x"), .opaque("y")])
        #expect(Array(made.followed(by: more)) == array + [.opaque("x"), .opaque("y")])
        #expect(Array(ListingKeys(array).followed(by: more)) == array + [.opaque("x"), .opaque("y")])
        asked.count = 0
        #expect(made.slice(40..<45)[2] == .opaque("key 42") && asked.count == 1)
    }

    private final class Counter: @unchecked Sendable { var count = 0 }
}
