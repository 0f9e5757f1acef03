import ClosetCore

extension TransferFiles {
    /// The rows of a file being imported, visited one at a time in the file's order. A JSON
    /// file's rows are read whole (its reader makes the values). A CSV file is checked whole
    /// first — its quoting, its header and each record's number of fields, so a file that
    /// cannot be read fails before any row is checked — and each row's fields are made only
    /// when it is visited: a million-row file is held as its bytes, not as a million rows of
    /// strings (two thirds of such an import's memory).
    public struct ImportedRows {
        private enum Source {
            case rows([Row])
            /// The file's bytes (valid UTF-8) and its header's names.
            case csv(bytes: [UInt8], header: [String])
        }

        private let source: Source
        /// How many rows the file has.
        public let count: Int

        init(rows: [Row]) {
            source = .rows(rows)
            count = rows.count
        }

        /// Checks a CSV file's shape: a quoting problem first (wherever it is), then a header
        /// naming a field no one reads or a column twice, then a record of the wrong width.
        init(csv bytes: [UInt8], fieldNames: [String]) throws(RowProblem) {
            let checked = bytes.withUnsafeBufferPointer {
                buffer -> Result<(header: [String], count: Int), RowProblem> in
                var cursor = CSVReader.Cursor(buffer)
                var fields: [CSVReader.Field] = []
                let header: (line: Int, names: [String])
                switch cursor.next(&fields) {
                case .failure(let failure): return .failure(RowProblem(line: failure.line, message: failure.message))
                case .success(nil): return .success(([], 0))
                case .success(let record?): header = (record.line, fields.map { $0.text(in: buffer) })
                }
                var count = 0
                var wrongWidth: RowProblem?
                while true {
                    switch cursor.next(&fields) {
                    case .failure(let failure):
                        return .failure(RowProblem(line: failure.line, message: failure.message))
                    case .success(nil):
                        for name in header.names where !fieldNames.contains(name) {
                            return .failure(RowProblem(line: header.line, message: unknownField(name, fieldNames)))
                        }
                        for (index, name) in header.names.enumerated() where header.names[..<index].contains(name) {
                            return .failure(
                                RowProblem(line: header.line, message: "the column '\(name)' appears twice"))
                        }
                        if let wrongWidth { return .failure(wrongWidth) }
                        return .success((header.names, count))
                    case .success(let record?):
                        count += 1
                        if record.count != header.names.count, wrongWidth == nil {
                            wrongWidth = RowProblem(
                                line: record.line,
                                message: "\(record.count) fields where the header has \(header.names.count)")
                        }
                    }
                }
            }
            let (header, count) = try checked.get()
            source = .csv(bytes: bytes, header: header)
            self.count = count
        }

        /// Whether a row may have `field`: a CSV file's header names it; any JSON row may.
        func mayHave(_ field: String) -> Bool {
            switch source {
            case .rows: true
            case .csv(_, let header): header.contains(field)
            }
        }

        /// Visits each row with its place in the file (from 0).
        func forEachRow(_ visit: (_ number: Int, _ row: Row) -> Void) {
            switch source {
            case .rows(let rows):
                for (number, row) in rows.enumerated() { visit(number, row) }
            case .csv(let bytes, let header):
                bytes.withUnsafeBufferPointer { buffer in
                    var cursor = CSVReader.Cursor(buffer)
                    var fields: [CSVReader.Field] = []
                    _ = cursor.next(&fields)
                    var number = 0
                    // Every record was read once already: none fails now. The row shares the
                    // cursor's fields (not copied unless it is kept).
                    while case .success(let record?) = cursor.next(&fields) {
                        visit(number, (record.line, RowFields(names: header, file: bytes, fields: fields)))
                        number += 1
                    }
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
