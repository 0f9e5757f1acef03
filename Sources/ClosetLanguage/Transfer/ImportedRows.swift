import ClosetCore

extension TransferFiles {
    /// The rows of a file being imported, visited one at a time in the file's order. A JSON
    /// file's rows are read whole (its reader makes the values). A CSV file is read through
    /// first — its quoting, its header and each record's number of fields, so a file that
    /// cannot be read fails before any row is checked — and then again for each visit, a piece
    /// at a time, each row's fields made only when it is visited: a file of any size is held
    /// as one piece of its bytes, never as rows of strings.
    public struct ImportedRows {
        private enum Source {
            case rows([Row])
            /// The file and its header's names.
            case csv(CSVFileCursor, header: [String])
        }

        private let source: Source
        /// How many rows the file has.
        public let count: Int

        init(rows: [Row]) {
            source = .rows(rows)
            count = rows.count
        }

        /// Checks a CSV file's shape: a byte that is not UTF-8 first, then a quoting problem
        /// (wherever each is), then a header naming a field no one reads or a column twice,
        /// then a record of the wrong width.
        /// `pieceSize` and `longestRecord` are the cursor's (tests make them small).
        init(
            csv file: any FileReading, fieldNames: [String], pieceSize: Int = 1 << 20,
            longestRecord: Int = CSVFileCursor.longestRecord
        ) throws(CSVFileCursor.Problem) {
            let cursor = try CSVFileCursor(file, pieceSize: pieceSize, longestRecord: longestRecord)
            do throws(CSVFileCursor.Problem) {
                (source, count) = try Self.readShape(cursor, fieldNames: fieldNames)
            } catch {
                if case .csv = error { try cursor.checkRest() }
                throw error
            }
        }

        private static func readShape(_ cursor: CSVFileCursor, fieldNames: [String]) throws(CSVFileCursor.Problem)
            -> (Source, count: Int)
        {
            var fields: [CSVReader.Field] = []
            guard let headerRecord = try cursor.next(&fields) else { return (.csv(cursor, header: []), 0) }
            let names = cursor.bytes.withUnsafeBufferPointer { bytes in fields.map { $0.text(in: bytes) } }
            var count = 0
            var wrongWidth: CSVReader.Failure?
            while let record = try cursor.next(&fields) {
                count += 1
                if record.count != names.count, wrongWidth == nil {
                    wrongWidth = CSVReader.Failure(
                        message: "\(record.count) fields where the header has \(names.count)", line: record.line)
                }
            }
            for name in names where !fieldNames.contains(name) {
                throw .csv(CSVReader.Failure(message: unknownField(name, fieldNames), line: headerRecord.line))
            }
            for (index, name) in names.enumerated() where names[..<index].contains(name) {
                throw .csv(CSVReader.Failure(message: "the column '\(name)' appears twice", line: headerRecord.line))
            }
            if let wrongWidth { throw .csv(wrongWidth) }
            return (.csv(cursor, header: names), count)
        }

        /// Whether a row may have `field`: a CSV file's header names it; any JSON row may.
        func mayHave(_ field: String) -> Bool {
            switch source {
            case .rows: true
            case .csv(_, let header): header.contains(field)
            }
        }

        /// Visits each row with its place in the file (from 0). A CSV file is read again: one
        /// that changed since it was first read fails (rows already visited were visited).
        func forEachRow(_ visit: (_ number: Int, _ row: Row) -> Void) throws(RowProblem) {
            switch source {
            case .rows(let rows):
                for (number, row) in rows.enumerated() { visit(number, row) }
            case .csv(let cursor, let header):
                var number = 0
                var line = 1
                var changed = false
                do throws(CSVFileCursor.Problem) {
                    try cursor.rewind()
                    var fields: [CSVReader.Field] = []
                    if try cursor.next(&fields) != nil {  // the header
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
        }

        /// Whether another row starts on the line row `number` starts on (JSON written on one
        /// line): the row's problem then names its number too. A CSV record has its own line.
        func sharesLine(_ number: Int) -> Bool {
            guard case .rows(let rows) = source else { return false }
            let line = rows[number].line
            return number > 0 && rows[number - 1].line == line
                || number + 1 < rows.count && rows[number + 1].line == line
        }
    }
}
