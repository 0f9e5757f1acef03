import ClosetCore

extension TransferFiles {
    /// The rows of a file being imported, visited one at a time in the file's order, each row
    /// made only when it is visited: a file of any size is held as a few pieces of its bytes,
    /// never as rows of strings. A JSON file is read through first — its syntax, each element an
    /// object — then again for the visit. A CSV file is read once, on a second thread a piece
    /// ahead of the visit (`CSVReadAhead`), its header checked first: a quoting or UTF-8
    /// problem, or a record of the wrong width, found after rows were visited fails the visit
    /// (and the import, which then keeps nothing) as if the file had been checked first.
    /// `checkFirst` makes it so (rows are visited only in a file with no problem): a
    /// deterministic session's ids and clock must not be drawn on for rows of a file that fails.
    public struct ImportedRows {
        private enum Source {
            case rows([Row])
            /// The file (past its header), its header's names, and what its visits found.
            case csv(CSVFileCursor, header: [String], visits: CSVVisits)
            /// The file, how its elements become rows, and which rows start on a line another
            /// row starts on too (a bit each).
            case json(JSONFileCursor, row: (Int, JSONValue) throws(RowProblem) -> Row, sharingLines: [UInt64])
        }

        /// What a CSV file's visits found: its number of records once visited whole, and about
        /// how many it has before that.
        private final class CSVVisits {
            let checkFirst: Bool
            var count: Int?
            var estimate: Int?
            var visited = false

            init(checkFirst: Bool, count: Int? = nil) {
                self.checkFirst = checkFirst
                self.count = count
            }
        }

        private let source: Source
        private let knownCount: Int

        /// How many rows the file has (a CSV file's, once visited).
        public var count: Int {
            if case .csv(_, _, let visits) = source { return visits.count ?? 0 }
            return knownCount
        }

        /// About how many rows the file has, for making room: a CSV file's from its size and
        /// its first batch's rows (a little over), known once the first row is visited.
        public var expectedCount: Int {
            if case .csv(_, _, let visits) = source { return visits.count ?? visits.estimate ?? 0 }
            return knownCount
        }

        init(rows: [Row]) {
            source = .rows(rows)
            knownCount = rows.count
        }

        /// Reads a CSV file's header: a header naming a field no one reads or a column twice is
        /// refused (after a quoting or UTF-8 problem anywhere in the file, which comes first).
        /// `pieceSize` and `longestRecord` are the file's pieces' (tests make them small).
        init(
            csv file: any FileReading, fieldNames: [String], checkFirst: Bool = false, pieceSize: Int = 1 << 20,
            longestRecord: Int = FilePieces.longestRecord
        ) throws(ImportFileProblem) {
            let cursor = try CSVFileCursor(file, pieceSize: pieceSize, longestRecord: longestRecord)
            knownCount = 0
            var fields: [CSVReader.Field] = []
            guard let headerRecord = try cursor.next(&fields) else {
                source = .csv(cursor, header: [], visits: CSVVisits(checkFirst: checkFirst, count: 0))
                return
            }
            let names = cursor.bytes.withUnsafeBufferPointer { bytes in fields.map { $0.text(in: bytes) } }
            var problem: ImportFileProblem?
            for name in names where !fieldNames.contains(name) {
                problem = .syntax(message: unknownField(name, fieldNames), line: headerRecord.line)
                break
            }
            for (index, name) in names.enumerated() where problem == nil && names[..<index].contains(name) {
                problem = .syntax(message: "the column '\(name)' appears twice", line: headerRecord.line)
            }
            if let problem {
                while try cursor.next(&fields) != nil {}
                throw problem
            }
            source = .csv(cursor, header: names, visits: CSVVisits(checkFirst: checkFirst))
        }

        /// Checks a JSON file: a byte that is not UTF-8 or its syntax (the first met),
        /// then each element made a row (an object; a list only where the importer reads one).
        init(
            json file: any FileReading, entity: String, ignoring: Set<String>, pieceSize: Int = 1 << 20,
            longestRecord: Int = FilePieces.longestRecord
        ) throws(ImportFileProblem) {
            let cursor = try JSONFileCursor(file, pieceSize: pieceSize, longestRecord: longestRecord)
            let row = { (line: Int, value: JSONValue) throws(RowProblem) -> Row in
                try TransferFiles.jsonRow(value, line: line, entity: entity, ignoring: ignoring)
            }
            var sharing: [UInt64] = []
            var count = 0
            var previousLine = 0
            // The file's syntax is checked to its end before an element that is no row is named.
            var badElement: ImportFileProblem?
            while let (line, value) = try cursor.next() {
                if badElement == nil {
                    do {
                        _ = try row(line, value)
                    } catch {
                        badElement = .syntax(message: error.message, line: error.line)
                    }
                }
                if count % 64 == 0 { sharing.append(0) }
                if line == previousLine {
                    sharing[(count - 1) / 64] |= 1 << ((count - 1) % 64)
                    sharing[count / 64] |= 1 << (count % 64)
                }
                previousLine = line
                count += 1
            }
            if let badElement { throw badElement }
            source = .json(cursor, row: row, sharingLines: sharing)
            knownCount = count
        }

        /// Whether a row may have `field`: a CSV file's header names it; any JSON row may.
        func mayHave(_ field: String) -> Bool {
            switch source {
            case .rows, .json: true
            case .csv(_, let header, _): header.contains(field)
            }
        }

        /// Reads a CSV record's row's arguments as its import will bind them (`RowFields.read`),
        /// from its fields (the header's width, places in `file`), appending them to `read`:
        /// called on the thread reading the file, so it reads nothing that changes as rows are
        /// added. Returns the length of the statement they make; nil (nothing appended): the
        /// row is bound as it is visited.
        typealias RecordBinding =
            @Sendable (
                _ file: UnsafeBufferPointer<UInt8>, _ fields: [CSVReader.Field], _ read: inout [ReadArgument]
            ) -> Int?

        /// The names a CSV file's header gives every row; nil for other files.
        var header: [String]? {
            if case .csv(_, let header, _) = source { return header }
            return nil
        }

        /// Visits each row with its place in the file (from 0), a CSV row's arguments read by
        /// `binding` as the file is. Throws the file's problem (a CSV file's found as its rows were
        /// visited), or `changedWhileRead`: a file read again that is not what it was (rows
        /// already visited were visited).
        func forEachRow(
            binding: RecordBinding? = nil, _ visit: (_ number: Int, _ row: Row) -> Void
        ) throws(ImportFileProblem) {
            if case .csv(let cursor, let header, let visits) = source {
                return try visitCSV(cursor, header: header, visits: visits, binding: binding, visit)
            }
            var number = 0
            var line = 1
            var changed = false
            do throws(ImportFileProblem) {
                switch source {
                case .rows(let rows):
                    for (number, row) in rows.enumerated() { visit(number, row) }
                    return
                case .csv: break
                case .json(let cursor, let row, _):
                    try cursor.rewind()
                    while let (start, value) = try cursor.next() {
                        line = start
                        guard number < count, let made = try? row(start, value) else {
                            changed = true
                            break
                        }
                        visit(number, made)
                        number += 1
                    }
                }
            } catch {
                if case .changedWhileRead = error { throw error }
                if case .cannotRead(let diagnostic) = error {
                    throw .changedWhileRead(RowProblem(line: line, message: diagnostic.message))
                }
                changed = true
            }
            if changed || number != count { throw Self.changed(line: line) }
        }

        private static func changed(line: Int) -> ImportFileProblem {
            .changedWhileRead(RowProblem(line: line, message: "the file changed while it was imported"))
        }

        /// A CSV file's rows, as its second thread reads them. Visited again (rows that restore
        /// their key go first), a file must be what it was the first time.
        private func visitCSV(
            _ cursor: CSVFileCursor, header: [String], visits: CSVVisits, binding: RecordBinding?,
            _ visit: (_ number: Int, _ row: Row) -> Void
        ) throws(ImportFileProblem) {
            guard !header.isEmpty else { return }
            let again = visits.visited
            visits.visited = true
            if again {
                do throws(ImportFileProblem) {
                    try cursor.rewind()
                    var fields: [CSVReader.Field] = []
                    _ = try cursor.next(&fields)
                } catch {
                    throw Self.changed(line: 1)
                }
            }
            let ahead = CSVReadAhead(cursor, width: header.count, checkFirst: visits.checkFirst, binding: binding)
            ahead.start(inPlace: cursor.holdsTheRest)
            defer { ahead.stop() }
            let width = header.count
            var number = 0
            var line = 1
            var fields: [CSVReader.Field] = []
            while let batch = ahead.next() {
                if visits.estimate == nil { visits.estimate = ahead.estimatedCount }
                for (index, recordLine) in batch.lines.enumerated() {
                    line = recordLine
                    if again, number >= count { throw Self.changed(line: line) }
                    // The row shares the batch's piece and these fields (not copied unless it is kept).
                    fields.removeAll(keepingCapacity: true)
                    fields.append(contentsOf: batch.fields[index * width..<(index + 1) * width])
                    var row = RowFields(names: header, file: batch.bytes, fields: fields)
                    if !batch.records.isEmpty, let (arguments, length) = batch.records[index] {
                        row.read = (batch.read[arguments], length)
                    }
                    visit(number, (recordLine, row))
                    number += 1
                }
            }
            if let problem = ahead.verdict { throw again ? Self.changed(line: line) : problem }
            if again, number != count { throw Self.changed(line: line) }
            visits.count = number
        }

        /// Whether another row starts on the line row `number` starts on (JSON written on one
        /// line): the row's problem then names its number too. A CSV record has its own line.
        func sharesLine(_ number: Int) -> Bool {
            switch source {
            case .csv: false
            case .rows(let rows):
                number > 0 && rows[number - 1].line == rows[number].line
                    || number + 1 < rows.count && rows[number + 1].line == rows[number].line
            case .json(_, _, let sharing): sharing[number / 64] & (1 << (number % 64)) != 0
            }
        }
    }
}
