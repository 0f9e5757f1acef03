import ClosetCore
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// Issue 47, item 1: an export is written a row at a time into pieces (`ExportWriter`), and
/// those pieces put together are byte for byte what the whole-listing renderers give (CSV
/// through the grid, JSON an object a line), for cells that need quoting, Korean, nulls,
/// numbers and dates, and for listings long enough to be cut into many pieces.
@Suite struct ExportWriterTests {
    static let columns = ["id", "name, with comma", "count", "when", "note"]

    static func randomText(_ random: inout SeededRandom) -> String {
        let parts = ["plain", "니트", "a,b", "say \"hi\"", "two\nlines", "cr\rhere", "crlf\r\n", "", " ", "🙂", "\\"]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in parts.randomElement(using: &random)! }.joined()
    }

    static func randomRecord(_ random: inout SeededRandom) -> Record {
        let values: [FieldValue] = [
            .key(
                .uuid(
                    UUID(
                        uuid: (
                            0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8.random(in: 0...255, using: &random)
                        )))),
            Bool.random(using: &random) ? .text(randomText(&random)) : .localized(randomText(&random), korean: "한"),
            Bool.random(using: &random) ? .integer(Int.random(in: -1_000_000...1_000_000, using: &random)) : .null,
            .date(Date(timeIntervalSince1970: Double(Int.random(in: 0...2_000_000_000, using: &random)) / 1000)),
            Bool.random(using: &random) ? .marked(randomText(&random), .red) : .decimal(1.5),
        ]
        let fields = zip(columns, values).map { Field($0.0, $0.1) }
        return Record(fields: fields, data: values, table: values)
    }

    static func written(_ records: [Record], _ format: TransferFiles.FileFormat) -> (whole: [UInt8], pieces: Int) {
        var writer = ExportWriter(format: format, columns: columns)
        var bytes: [UInt8] = []
        var pieces = 0
        writer.begin()
        for record in records {
            writer.add(record)
            if writer.isFull {
                bytes += writer.take()
                pieces += 1
            }
        }
        writer.end()
        bytes += writer.take()
        return (bytes, pieces + 1)
    }

    @Test(arguments: [0, 1, 7, 40_000])
    func piecesMakeWhatTheRenderersMake(rows: Int) {
        var random = SeededRandom(seed: UInt64(rows) + 1)
        let records = (0..<rows).map { _ in Self.randomRecord(&random) }
        let grid = Grid(
            columns: Self.columns, rows: records.map { $0.data.map { RecordGrid.cell($0, forPeople: false) } })
        let csv = Self.written(records, .csv)
        #expect(csv.whole == Array(CSVRenderer.render(grid).utf8))
        let objects = records.map { JSONRenderer.object($0.fields) }
        let json = objects.isEmpty ? "[]\n" : "[\n" + objects.joined(separator: ",\n") + "\n]\n"
        let written = Self.written(records, .json)
        #expect(written.whole == Array(json.utf8))
        if rows == 40_000 { #expect(csv.pieces > 1 && written.pieces > 1, "\(csv.pieces) pieces") }
    }

    /// A listing whose records are made as they are written (`Outcome.listing(_:_:record:)`):
    /// its JSON, handed over in pieces of about a megabyte, is byte for byte what the whole
    /// listing renders, and each record is made once, in order, as it is reached (a million-row
    /// listing written as JSON or csv never holds every record).
    @Test(arguments: [0, 1, 7, 40_000])
    func aListingMadeRowByRowWritesWhatAWholeOneDoes(rows: Int) throws {
        var random = SeededRandom(seed: UInt64(rows) + 7)
        let records = (0..<rows).map { _ in Self.randomRecord(&random) }
        let kind = EntityKind(singular: "thing", plural: "things", korean: "것", indefinite: "a thing") {
            .init(table: Self.columns, data: Self.columns)
        }
        let keys = (0..<rows).map { EntityKey.opaque(String($0)) }
        let whole = JSONRenderer.render(.listing(kind, keys) { records })
        final class Made: @unchecked Sendable { var order: [Int] = [] }
        let made = Made()
        guard
            case .entities(let entities) = Outcome.listing(
                kind, keys,
                record: { index in
                    made.order.append(index)
                    return records[index]
                })
        else { throw ExportWriterTestFailure() }
        var pieces: [[UInt8]] = []
        var madeBefore: [Int] = []
        JSONRenderer.write(entities) { piece in
            pieces.append(piece)
            madeBefore.append(made.order.count)
            #expect(piece.count <= (1 << 20) + 4096)
        }
        #expect(String(decoding: pieces.joined(), as: UTF8.self) == whole)
        #expect(made.order == Array(0..<rows))
        if rows == 40_000 {
            // Each piece is handed over before the records after it are made.
            #expect(pieces.count > 1, "\(pieces.count) pieces")
            #expect(madeBefore.first ?? rows < rows, "records made before the first piece: \(madeBefore)")
        }
        // The same listing's records all at once, for what cannot go a row at a time (a table).
        made.order = []
        #expect(entities.records().count == rows && made.order == Array(0..<rows))
    }
}

struct ExportWriterTestFailure: Error {}
