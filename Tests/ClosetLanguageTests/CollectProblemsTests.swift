import ClosetCore
import Testing

@testable import ClosetLanguage

/// An import's check of its rows: the rows `first` picks checked before the others, the file read
/// again only when the first pass passed over a row, problems in the file's order with their
/// lines, and a field no one reads refused.
@Suite struct CollectProblemsTests {
    private static let names = ["name", "size"]

    private static func rows() -> TransferFiles.ImportedRows {
        var rows: [TransferFiles.Row] = (0..<6).map { line in
            (line + 2, RowFields(names: names, values: ["row \(line)", line == 3 ? "big" : "\(line)"]))
        }
        rows.append((8, RowFields(names: ["name", "colour"], values: ["odd", "red"])))
        return TransferFiles.ImportedRows(rows: rows)
    }

    @Test func rowsPickedFirstAreCheckedFirst() throws {
        var seen: [String] = []
        let problems = try TransferFiles.collectProblems(
            Self.rows(), fieldNames: Self.names, first: { row in ((row.fields["name"] ?? nil) ?? "").hasSuffix("4") },
            check: { row throws(TransferFiles.RowProblem) in
                let size = (row.fields["size"] ?? nil) ?? ""
                seen.append((row.fields["name"] ?? nil) ?? "")
                if Int(size) == nil { throw TransferFiles.RowProblem(line: row.line, message: "size '\(size)'") }
            })
        #expect(seen == ["row 4", "row 0", "row 1", "row 2", "row 3", "row 5"])
        #expect(problems.map(\.line) == [5, 8])
        #expect(problems.map(\.message).first == "size 'big'")
        #expect(problems.last?.message.hasPrefix("unknown field 'colour'") == true)
    }

    @Test func aFirstPassThatPicksEveryRowIsTheOnlyOne() throws {
        var seen = 0
        var asked = 0
        let problems = try TransferFiles.collectProblems(
            Self.rows(), fieldNames: Self.names + ["colour"],
            first: { _ in
                asked += 1
                return true
            },
            check: { _ throws(TransferFiles.RowProblem) in seen += 1 })
        #expect(problems.isEmpty)
        #expect(seen == 7)
        #expect(asked == 7, "no second pass over the file")
    }

    @Test func rowsOnOneLineAreNamedByTheirNumber() throws {
        let text = "[{\"name\":\"a\"}, {\"name\":\"b\"},\n{\"name\":\"c\"}]\n"
        for pieceSize in [4, 9, 1 << 20] {
            let rows = try TransferFiles.ImportedRows(
                json: BytesReading(Array(text.utf8)), entity: "thing", ignoring: [], pieceSize: pieceSize)
            let problems = try TransferFiles.collectProblems(rows, fieldNames: ["name"]) {
                row throws(TransferFiles.RowProblem) in throw TransferFiles.RowProblem(line: row.line, message: "bad")
            }
            #expect(
                problems.map { $0.text(in: "f.json") } == [
                    "f.json:1: row 1: bad", "f.json:1: row 2: bad", "f.json:2: bad",
                ])
        }
    }
}
