import ClosetCore
import Testing

@testable import ClosetLanguage

/// An import's check of its rows: every row checked in the order given, problems in the file's
/// order with their lines, a field no one reads refused, and each row's values let go once
/// checked when asked (a million-row import held them all beside the rows it had added).
@Suite struct CollectProblemsTests {
    @Test func rowsAreCheckedInOrderAndLetGoOnceChecked() {
        let names = ["name", "size"]
        var rows: [TransferFiles.Row] = (0..<6).map { line in
            (line + 2, RowFields(names: names, values: ["row \(line)", line == 3 ? "big" : "\(line)"]))
        }
        rows.append((8, RowFields(names: ["name", "colour"], values: ["odd", "red"])))
        var seen: [String] = []
        let problems = TransferFiles.collectProblems(
            &rows, fieldNames: names, order: [5, 4, 3, 2, 1, 0, 6], releasing: true
        ) { row throws(TransferFiles.RowProblem) in
            let size = (row.fields["size"] ?? nil) ?? ""
            seen.append((row.fields["name"] ?? nil) ?? "")
            if Int(size) == nil { throw TransferFiles.RowProblem(line: row.line, message: "size '\(size)'") }
        }
        #expect(seen == ["row 5", "row 4", "row 3", "row 2", "row 1", "row 0"])
        #expect(problems.map(\.line) == [5, 8])
        #expect(problems.map(\.message).first == "size 'big'")
        #expect(problems.last?.message.hasPrefix("unknown field 'colour'") == true)
        #expect(rows.allSatisfy { $0.fields.keys.isEmpty }, "every row's values let go")
        #expect(rows.map(\.line) == [2, 3, 4, 5, 6, 7, 8], "their lines kept")
    }
}
