import ClosetCore
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// A CSV file being imported: checked whole before any row is visited (a quoting problem
/// anywhere first, then the header, then a record's width), and visited row by row with the
/// fields and lines the reader gives for the whole file.
@Suite struct ImportedRowsTests {
    @Test func visitedRowsAreTheRecordsTheReaderGives() throws {
        var random = SeededRandom(seed: 4_701)
        let pieces = ["a", "knit", ",", "\"", "\n", "\r\n", " ", "청바지", "🧥", ""]
        let names = ["id", "category", "season", "description", "createdAt"]
        for _ in 0..<200 {
            let header = Array(names.shuffled(using: &random).prefix(Int.random(in: 1...5, using: &random)))
            var text = Bool.random(using: &random) ? "\u{FEFF}" : ""
            text += header.joined(separator: ",") + "\n"
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                let fields = header.map { _ in
                    (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                        .joined()
                }
                guard fields != [""] else { continue }
                text +=
                    fields.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }.joined(separator: ",")
                    + (Bool.random(using: &random) ? "\n" : "\r\n")
                if Int.random(in: 0..<8, using: &random) == 0 { text += "\n" }  // a blank line, skipped
            }
            let records = try CSVReader.records(text).dropFirst()
            let rows = try TransferFiles.ImportedRows(csv: Array(text.utf8), fieldNames: names)
            var visited: [(number: Int, row: TransferFiles.Row)] = []
            rows.forEachRow { visited.append(($0, $1)) }
            #expect(rows.count == records.count)
            #expect(visited.map(\.number) == Array(0..<records.count))
            #expect(visited.map(\.row.line) == records.map(\.line), "\(text.debugDescription)")
            for ((_, row), record) in zip(visited, records) {
                #expect(row.fields.keys == header)
                #expect(header.indices.map { row.fields.value(at: $0) } == record.fields.map { $0.isEmpty ? nil : $0 })
            }
            #expect(rows.mayHave("id") == header.contains("id"))
        }
    }

    /// The reader (each field's place in the file, its text made from there) against the
    /// simplest reading of RFC 4180 as this importer takes it, byte by byte into strings, on
    /// random text of the pieces that matter (quotes, doubled quotes, commas, CR, LF, CR LF,
    /// Hangul, a BOM): the same records, or both refuse the text.
    @Test func theReaderReadsAsAByteByByteReading() {
        var random = SeededRandom(seed: 20_261_203)
        let pieces = ["a", "knit", ",", "\"", "\"\"", "\n", "\r", "\r\n", " ", "청바지", "🧥", ",\"", "\","]
        var read = 0
        for _ in 0..<5_000 {
            var text = Int.random(in: 0..<8, using: &random) == 0 ? "\u{FEFF}" : ""
            for _ in 0..<Int.random(in: 1...30, using: &random) { text += pieces.randomElement(using: &random)! }
            let records = try? CSVReader.records(text).map(\.fields)
            #expect(records == Self.reference(text), "\(text.debugDescription)")
            if records != nil { read += 1 }
        }
        #expect(read > 500, "\(read) read")
    }

    /// RFC 4180 read a byte at a time: records of fields, or nil for a quote inside an unquoted
    /// field, text after a closing quote, or a quote left open. CR LF or LF ends a record, a lone
    /// CR is text, a record of one empty field is no record.
    static func reference(_ text: String) -> [[String]]? {
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        enum State { case fieldStart, plain, quoted, afterQuote }
        var records: [[String]] = []
        var record: [String] = []
        var field: [UInt8] = []
        var state = State.fieldStart
        var midRecord = false
        func endField() {
            record.append(String(decoding: field, as: UTF8.self))
            field = []
            state = .fieldStart
        }
        func endRecord() {
            endField()
            if record != [""] { records.append(record) }
            record = []
            midRecord = false
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let next = index + 1 < bytes.count ? bytes[index + 1] : nil
            index += 1
            midRecord = true
            switch (state, byte) {
            case (.quoted, 0x22):
                if next == 0x22 {
                    field.append(0x22)
                    index += 1
                } else {
                    state = .afterQuote
                }
            case (.quoted, _): field.append(byte)
            case (_, 0x2C): endField()
            case (_, 0x0D) where next == 0x0A: break
            case (_, 0x0A): endRecord()
            case (.fieldStart, 0x22): state = .quoted
            case (.plain, 0x22), (.afterQuote, 0x22), (.afterQuote, _): return nil
            case (.fieldStart, _), (.plain, _):
                field.append(byte)
                state = .plain
            }
        }
        if state == .quoted { return nil }
        if midRecord { endRecord() }
        return records
    }

    @Test func theWholeFileIsCheckedBeforeAnyRow() {
        func problem(_ text: String) -> String? {
            do {
                _ = try TransferFiles.ImportedRows(csv: Array(text.utf8), fieldNames: ["a", "b"])
                return nil
            } catch {
                return "\(error.line): \(error.message)"
            }
        }
        #expect(problem("a,b\n1,2\n\n3,4\n") == nil)
        #expect(problem("") == nil)
        #expect(problem("a,b\n1\n1,2,3\n") == "2: 1 fields where the header has 2")
        // A quoting problem anywhere comes before a record of the wrong width.
        #expect(problem("a,b\n1\n\"open,\n") == "3: a quoted field is not closed")
        #expect(problem("a,c\n1\n")?.hasPrefix("1: unknown field 'c'") == true)
        #expect(problem("a,a\n1,2\n") == "1: the column 'a' appears twice")
        #expect(problem("a,b\n\"x\"y,2\n") == "2: text after a closing quote")
    }
}
