import ClosetCore
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// A CSV file being imported: checked whole (a quoting problem anywhere first, then the header,
/// then a record's width) as its rows are visited, or before (`checkFirst`), and visited row by
/// row with the fields and lines the reader gives for the whole file.
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
            // Pieces as small as a few bytes: records, CR LFs, doubled quotes and characters
            // cut at every place.
            let rows = try TransferFiles.ImportedRows(
                csv: BytesReading(Array(text.utf8)), fieldNames: names,
                pieceSize: Int.random(in: 4...64, using: &random))
            var visited: [(number: Int, row: TransferFiles.Row)] = []
            try rows.forEachRow { visited.append(($0, $1)) }
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

    /// Many more records than a batch holds, in one piece (read in place, every batch made at
    /// once) and in many (read on a second thread, at most a few batches waiting): every row
    /// visited in order, and room made for about as many as the file has.
    @Test func manyRecordsAreVisitedInOrderFromOnePieceOrMany() throws {
        let count = 20_000
        // The first batch's records a byte longer than the rest (about 3 %): estimated from
        // them alone, the file would seem to hold fewer records than it does.
        func padded(_ number: Int) -> String { String(String(number + 100_000).dropFirst()) }
        func tail(_ number: Int) -> String { String(repeating: "y", count: number < 2048 ? 21 : 20) }
        let text = "a,b\n" + (0..<count).map { "\(padded($0)),\"x\(padded($0))\(tail($0))\"\n" }.joined()
        for pieceSize in [1 << 20, 64, 4096] {
            let rows = try TransferFiles.ImportedRows(
                csv: BytesReading(Array(text.utf8)), fieldNames: ["a", "b"], pieceSize: pieceSize)
            var visited = 0
            var expected: Int?
            try rows.forEachRow { number, row in
                if number == 0 { expected = rows.expectedCount }
                if row.fields.value(at: 0) == padded(number),
                    row.fields.value(at: 1) == "x" + padded(number) + tail(number),
                    row.line == number + 2
                {
                    visited += 1
                }
            }
            #expect(visited == count && rows.count == count, "pieces of \(pieceSize)")
            let estimate = try #require(expected)
            // A little over, never under: room made a few rows short copies every row at the end.
            #expect(estimate >= count && estimate < count * 11 / 10, "\(estimate)")
        }
    }

    /// A binding reads each record's arguments on the thread that reads the file: every row
    /// visited comes with what it read of that very record (two arguments, or one, or none
    /// when it declined), in order across batches and pieces; a file read in place (one piece)
    /// is not read ahead, so its rows come with none.
    @Test func aBindingReadsEachRecordOnTheReadingThread() throws {
        let count = 9_000
        let text = "a,b\n" + (0..<count).map { "\($0),\"x\($0)\"\n" }.joined()
        let visiting = pthread_self()
        // As many arguments as the first field's number's remainder by three, each with the
        // number as its key and the second field's text; none when it is 0 (declined), nor
        // on the thread visiting the rows.
        let binding: TransferFiles.ImportedRows.RecordBinding = { file, fields, read in
            let number = Int(fields[0].text(in: file)) ?? -1
            if number % 3 == 0 || pthread_equal(pthread_self(), visiting) != 0 { return nil }
            for place in 0..<number % 3 {
                read.append(
                    ReadArgument(key: number, range: SourceRange(place, number), read: .text(fields[1].text(in: file))))
            }
            return number + 1
        }
        for pieceSize in [4096, 1 << 20] {
            let rows = try TransferFiles.ImportedRows(
                csv: BytesReading(Array(text.utf8)), fieldNames: ["a", "b"], pieceSize: pieceSize)
            var matching = 0
            try rows.forEachRow(binding: binding) { number, row in
                guard let read = row.fields.read else {
                    if number % 3 == 0 || pieceSize == 1 << 20 { matching += 1 }
                    return
                }
                let texts = read.arguments.map { argument -> String in
                    guard case .text(let text) = argument.read else { return "" }
                    return text
                }
                // A row changed after it was read no longer holds what was read.
                var changed = row.fields
                changed["b"] = "y"
                if pieceSize != 1 << 20, read.length == number + 1, read.arguments.count == number % 3,
                    read.arguments.allSatisfy({ $0.key == number && $0.range.upper == number }),
                    texts.allSatisfy({ $0 == "x\(number)" }), changed.read == nil
                {
                    matching += 1
                }
            }
            #expect(matching == count, "pieces of \(pieceSize)")
        }
    }

    /// Hostile bytes (quotes, wrong widths, bytes that are not UTF-8, a header naming a field
    /// twice or one no one reads) read a few bytes a piece on the second thread, with or without
    /// checking first, against the same file read in one piece: a problem in both or neither
    /// (checking first, the same one), the same rows, or the file's first rows before a problem.
    /// Checking first visits no row of a file with a problem.
    @Test func aFileReadInPiecesOnTheSecondThreadIsTheFileReadWhole() {
        var random = SeededRandom(seed: 20_261_204)
        let pieces: [[UInt8]] = [
            Array("a".utf8), Array("b".utf8), Array(",".utf8), Array("\"".utf8), Array("\n".utf8),
            Array("\r\n".utf8), Array("x".utf8), Array("청".utf8), [0xFF], [0xE3, 0x81], Array("c".utf8),
        ]
        func read(_ bytes: [UInt8], pieceSize: Int, checkFirst: Bool) -> (rows: [String], problem: String?) {
            var rows: [String] = []
            do {
                let imported = try TransferFiles.ImportedRows(
                    csv: BytesReading(bytes), fieldNames: ["a", "b"], checkFirst: checkFirst, pieceSize: pieceSize)
                try imported.forEachRow { number, row in
                    rows.append(
                        "\(number)@\(row.line):\((0..<row.fields.keys.count).map { row.fields.value(at: $0) ?? "-" })")
                }
                return (rows, nil)
            } catch {
                return (rows, "\(error)")
            }
        }
        var (good, rowsThenProblem) = (0, 0)
        for round in 0..<600 {
            var bytes = Array((Int.random(in: 0..<10, using: &random) == 0 ? "a,a\n" : "a,b\n").utf8)
            for _ in 0..<Int.random(in: 0...80, using: &random) {
                // Mostly good records, so rows are visited before a problem is met.
                if Int.random(in: 0..<4, using: &random) > 0 {
                    bytes += Array("\(round),\"q\"\"\(round)\"\n".utf8)
                } else {
                    bytes += pieces.randomElement(using: &random)!
                }
            }
            let whole = read(bytes, pieceSize: bytes.count + 16, checkFirst: false)
            if whole.problem == nil { good += 1 }
            for pieceSize in [4, 9, 33] {
                let ahead = read(bytes, pieceSize: pieceSize, checkFirst: false)
                let checked = read(bytes, pieceSize: pieceSize, checkFirst: true)
                if pieceSize == 4, ahead.problem != nil, !ahead.rows.isEmpty { rowsThenProblem += 1 }
                // Read whole, a bad byte is met before the piece is read; a piece at a time, the
                // first problem met in the file's order: the same kind of problem (or none).
                #expect((ahead.problem == nil) == (whole.problem == nil), "\(bytes)")
                #expect(checked.problem == ahead.problem, "\(bytes)")
                if whole.problem == nil {
                    #expect(ahead.rows == whole.rows && checked.rows == whole.rows, "\(bytes)")
                } else {
                    #expect(checked.rows.isEmpty, "\(bytes)")
                    // Rows visited before the problem was met (how many depends on where the
                    // pieces and batches end; the import keeps none): the file's first rows.
                    let (fewer, more) = ahead.rows.count < whole.rows.count ? (ahead, whole) : (whole, ahead)
                    #expect(Array(more.rows.prefix(fewer.rows.count)) == fewer.rows, "\(bytes)")
                }
            }
        }
        // Both kinds of file were met often: clean ones, and ones with rows before their problem.
        #expect(good > 30 && rowsThenProblem > 30, "\(good), \(rowsThenProblem)")
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

    /// The file's problem is the same whether its rows are visited as it is read (a problem
    /// met after them fails the visit) or only once it is read whole (`checkFirst`, which
    /// visits no row of a file with a problem).
    @Test func theWholeFileIsCheckedWhateverItsRows() {
        for pieceSize in [4, 7, 1 << 20] {
            for checkFirst in [false, true] {
                checkedWhole(pieceSize: pieceSize, checkFirst: checkFirst)
            }
        }
    }

    func checkedWhole(pieceSize: Int, checkFirst: Bool) {
        func problem(_ text: String) -> String? {
            if checkFirst {
                // No row of a file with a problem is visited.
                var visited = 0
                let rows = try? TransferFiles.ImportedRows(
                    csv: BytesReading(Array(text.utf8)), fieldNames: ["a", "b"], checkFirst: true,
                    pieceSize: pieceSize)
                let failed = (try? rows?.forEachRow { _, _ in visited += 1 }) == nil
                #expect(!failed || visited == 0, "\(text.debugDescription)")
            }
            return problemReading(Array(text.utf8), pieceSize: pieceSize, checkFirst: checkFirst)
        }
        #expect(problem("a,b\n1,2\n\n3,4\n") == nil)
        #expect(problem("") == nil)
        #expect(problem("a,b\n1\n1,2,3\n") == "2: 1 fields where the header has 2")
        // A quoting problem anywhere comes before a record of the wrong width.
        #expect(problem("a,b\n1\n\"open,\n") == "3: a quoted field is not closed")
        #expect(problem("a,c\n1\n")?.hasPrefix("1: unknown field 'c'") == true)
        #expect(problem("a,a\n1,2\n") == "1: the column 'a' appears twice")
        #expect(problem("a,b\n\"x\"y,2\n") == "2: text after a closing quote")
        // Bytes that are not UTF-8 are named by their offset in the file; the first problem
        // met is the one reported, and such bytes are met as their piece is read.
        #expect(
            problemReading(
                Array("a,b\n1,2\n1,".utf8) + [0xFF, 0x0A] + Array("\"x\"y,2\n".utf8), pieceSize: pieceSize,
                checkFirst: checkFirst)
                == "not UTF-8 at 10")
        #expect(
            problemReading(
                Array("a,b\n\"x\"y,2\n1,2\n1,".utf8) + [0xFF, 0x0A], pieceSize: pieceSize, checkFirst: checkFirst)
                == (pieceSize > 16 ? "not UTF-8 at 17" : "2: text after a closing quote"))  // met a piece ahead
        #expect(
            problemReading(Array("a,b\n1,청".utf8).dropLast(), pieceSize: pieceSize, checkFirst: checkFirst)
                == "not UTF-8 at 6")
    }

    /// What reading the file through pieces of `pieceSize` reports: `line: message`, or
    /// `not UTF-8 at <offset>`.
    func problemReading<Bytes: Sequence<UInt8>>(
        _ bytes: Bytes, pieceSize: Int, longestRecord: Int = FilePieces.longestRecord, checkFirst: Bool = false
    ) -> String? {
        do {
            let rows = try TransferFiles.ImportedRows(
                csv: BytesReading(Array(bytes)), fieldNames: ["a", "b"], checkFirst: checkFirst, pieceSize: pieceSize,
                longestRecord: longestRecord)
            try rows.forEachRow { _, _ in }
            return nil
        } catch {
            switch error {
            case .syntax(let message, let line): return "\(line): \(message)"
            case .notUTF8(let offset): return "not UTF-8 at \(offset)"
            case .cannotRead(let diagnostic): return diagnostic.message
            case .changedWhileRead(let row): return "changed: \(row.message)"
            }
        }
    }

    /// A record longer than the longest one read is refused (a quote never closed would make
    /// the rest of the file one record held whole), and a long one within it read whole.
    @Test func aRecordIsNoLongerThanTheLongestRead() throws {
        let long = "a,b\n\"" + String(repeating: "x", count: 100) + "\",1\n"
        #expect(
            problemReading(Array(long.utf8), pieceSize: 8, longestRecord: 64)
                == "2: a record longer than 64B (is a quote not closed?)")
        let rows = try TransferFiles.ImportedRows(
            csv: BytesReading(Array(long.utf8)), fieldNames: ["a", "b"], pieceSize: 8, longestRecord: 128)
        var values: [String?] = []
        try rows.forEachRow { _, row in values.append(row.fields.value(at: 0)) }
        #expect(values == [String(repeating: "x", count: 100)])
    }

    /// A file that changes between the read that checks it and the one that visits its rows
    /// fails the visit (the import then keeps nothing), rather than reading rows it never checked.
    @Test func aFileChangedBetweenItsReadsFails() throws {
        final class Changing: FileReading {
            var texts: [String]
            var reading: BytesReading
            init(_ texts: [String]) {
                self.texts = texts
                reading = BytesReading(Array(texts[0].utf8))
            }
            func read(into buffer: UnsafeMutableRawBufferPointer) -> Int { reading.read(into: buffer) }
            func rewind() {
                texts.removeFirst()
                reading = BytesReading(Array(texts[0].utf8))
            }
        }
        for changed in ["a,b\n1,2\n", "a,b\n1,2\n3,4\n5,6\n", "a,b\n1,2\n3\n", "a,b\n1,2\n\"3,4\n"] {
            let rows = try TransferFiles.ImportedRows(
                csv: Changing(["a,b\n1,2\n3,4\n", changed]), fieldNames: ["a", "b"], pieceSize: 4)
            try rows.forEachRow { _, _ in }
            #expect(rows.count == 2)
            #expect(throws: ImportFileProblem.self) {
                do throws(ImportFileProblem) {
                    try rows.forEachRow { _, _ in }
                } catch {
                    guard case .changedWhileRead(let row) = error else { return }
                    #expect(row.message == "the file changed while it was imported")
                    throw error
                }
            }
        }
        // Read again unchanged, the same rows.
        let rows = try TransferFiles.ImportedRows(
            csv: Changing(["a,b\n1,2\n3,4\n", "a,b\n1,2\n3,4\n"]), fieldNames: ["a", "b"], pieceSize: 4)
        for _ in 0..<2 {
            var values: [String?] = []
            try rows.forEachRow { _, row in values.append(row.fields.value(at: 1)) }
            #expect(values == ["2", "4"])
        }
    }

    /// A JSON file read through pieces as small as a few bytes gives the rows (and the
    /// problems, at the same lines) that reading it whole gives: elements, strings with escaped
    /// quotes and brackets, numbers and blank lines cut at every place.
    @Test func aJSONFileReadInPiecesIsTheFileReadWhole() {
        var random = SeededRandom(seed: 4_702)
        let pieces = [
            "{\"a\":\"x\"}", "{\"b\":12.5e3}", "{\"a\":\"[{,\\\"}\"}", "{\"a\":null,\"b\":true}", "{\"a\":\"청바지\"}",
            "{\"a\":[\"p\",\"q\"]}", "{\"b\":{\"c\":1}}", "12", "\"s\"", "{\"a\":", "}", "]", "[",
        ]
        let blanks = ["", " ", "\n", "\r\n", "\n\n"]
        var read = 0
        for _ in 0..<1_500 {
            var text = Int.random(in: 0..<8, using: &random) == 0 ? "\u{FEFF}" : ""
            text += "[" + blanks.randomElement(using: &random)!
            let count = Int.random(in: 0...6, using: &random)
            text += (0..<count).map { _ in
                pieces[
                    Int.random(in: 0..<(Int.random(in: 0..<6, using: &random) == 0 ? pieces.count : 7), using: &random)]
                    + blanks.randomElement(using: &random)!
            }.joined(separator: "," + blanks.randomElement(using: &random)!)
            if Int.random(in: 0..<10, using: &random) > 0 { text += "]" + blanks.randomElement(using: &random)! }
            func reading(_ pieceSize: Int) -> String {
                do {
                    let rows = try TransferFiles.ImportedRows(
                        json: BytesReading(Array(text.utf8)), entity: "thing", ignoring: ["a"], pieceSize: pieceSize)
                    var seen: [String] = []
                    try rows.forEachRow { number, row in
                        seen.append("\(number)@\(row.line)\(rows.sharesLine(number) ? "+" : ""): \(row.fields.keys)")
                    }
                    return seen.joined(separator: "; ")
                } catch {
                    return "\(error)"
                }
            }
            let whole = reading(text.utf8.count + 4)
            #expect(reading(Int.random(in: 4...16, using: &random)) == whole, "\(text.debugDescription)")
            if !whole.contains("syntax") { read += 1 }
        }
        #expect(read > 300, "\(read) read")
    }
}
