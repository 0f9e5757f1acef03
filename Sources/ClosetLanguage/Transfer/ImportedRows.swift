import ClosetCore

extension TransferFiles {
    /// The rows of a file being imported, visited one at a time in the file's order. The file is
    /// read through first — for a CSV file its quoting, its header and each record's number of
    /// fields, for a JSON file its syntax and each element an object — so a file that cannot be
    /// read fails before any row is checked; then again for each visit, a piece at a time, each
    /// row made only when it is visited: a file of any size is held as one piece of its bytes,
    /// never as rows of strings.
    public struct ImportedRows {
        private enum Source {
            case rows([Row])
            /// The file and its header's names.
            case csv(CSVFileCursor, header: [String])
            /// The file, how its elements become rows, and which rows start on a line another
            /// row starts on too (a bit each).
            case json(JSONFileCursor, row: (Int, JSONValue) throws(RowProblem) -> Row, sharingLines: [UInt64])
        }

        private let source: Source
        /// How many rows the file has.
        public let count: Int

        init(rows: [Row]) {
            source = .rows(rows)
            count = rows.count
        }

        /// Checks a CSV file's shape: a byte that is not UTF-8 or a quoting problem (the first
        /// met), then a header naming a field no one reads or a column twice, then a
        /// record of the wrong width.
        /// `pieceSize` and `longestRecord` are the file's pieces' (tests make them small).
        init(
            csv file: any FileReading, fieldNames: [String], pieceSize: Int = 1 << 20,
            longestRecord: Int = FilePieces.longestRecord
        ) throws(ImportFileProblem) {
            let cursor = try CSVFileCursor(file, pieceSize: pieceSize, longestRecord: longestRecord)
            (source, count) = try Self.readShape(cursor, fieldNames: fieldNames)
        }

        private static func readShape(_ cursor: CSVFileCursor, fieldNames: [String]) throws(ImportFileProblem)
            -> (Source, count: Int)
        {
            var fields: [CSVReader.Field] = []
            guard let headerRecord = try cursor.next(&fields) else { return (.csv(cursor, header: []), 0) }
            let names = cursor.bytes.withUnsafeBufferPointer { bytes in fields.map { $0.text(in: bytes) } }
            var count = 0
            var wrongWidth: ImportFileProblem?
            while let record = try cursor.next(&fields) {
                count += 1
                if record.count != names.count, wrongWidth == nil {
                    wrongWidth = .syntax(
                        message: "\(record.count) fields where the header has \(names.count)", line: record.line)
                }
            }
            for name in names where !fieldNames.contains(name) {
                throw .syntax(message: unknownField(name, fieldNames), line: headerRecord.line)
            }
            for (index, name) in names.enumerated() where names[..<index].contains(name) {
                throw .syntax(message: "the column '\(name)' appears twice", line: headerRecord.line)
            }
            if let wrongWidth { throw wrongWidth }
            return (.csv(cursor, header: names), count)
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
            self.count = count
        }

        /// Whether a row may have `field`: a CSV file's header names it; any JSON row may.
        func mayHave(_ field: String) -> Bool {
            switch source {
            case .rows, .json: true
            case .csv(_, let header): header.contains(field)
            }
        }

        /// Visits each row with its place in the file (from 0). A file is read again: one that
        /// changed since it was first read fails (rows already visited were visited).
        func forEachRow(_ visit: (_ number: Int, _ row: Row) -> Void) throws(RowProblem) {
            var number = 0
            var line = 1
            var changed = false
            do throws(ImportFileProblem) {
                switch source {
                case .rows(let rows):
                    for (number, row) in rows.enumerated() { visit(number, row) }
                    return
                case .csv(let cursor, let header):
                    try cursor.rewind()
                    var fields: [CSVReader.Field] = []
                    guard try cursor.next(&fields) != nil else { break }  // the header
                    // The row shares the piece and the cursor's fields (not copied unless it is kept).
                    while let record = try cursor.next(&fields) {
                        line = record.line
                        guard record.count == header.count, number < count else {
                            changed = true
                            break
                        }
                        visit(number, (record.line, RowFields(names: header, file: cursor.bytes, fields: fields)))
                        number += 1
                    }
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
                if case .cannotRead(let diagnostic) = error {
                    throw RowProblem(line: line, message: diagnostic.message)
                }
                changed = true
            }
            if changed || number != count {
                throw RowProblem(line: line, message: "the file changed while it was imported")
            }
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
