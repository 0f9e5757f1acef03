/// RFC 4180 reading for `import`: quoted fields (with doubled quotes, commas and line breaks
/// inside), CRLF or LF line ends, and the line each record starts on.
package enum CSVReader {
    public struct Failure: Error, Equatable {
        public var message: String
        public var line: Int
    }

    public static func records(_ text: String) throws(Failure) -> [(line: Int, fields: [String])] {
        var text = text
        return try text.withUTF8 { bytes -> Result<[(line: Int, fields: [String])], Failure> in
            var cursor = Cursor(bytes)
            var records: [(line: Int, fields: [String])] = []
            var fields: [Field] = []
            while true {
                switch cursor.next(&fields) {
                case .success(let record?): records.append((record.line, fields.map { $0.text(in: bytes) }))
                case .success(nil): return .success(records)
                case .failure(let failure): return .failure(failure)
                }
            }
        }.get()
    }

    /// Where one field's text lies in its file: the bytes between its quotes when quoted (a
    /// doubled quote inside still doubled), else its plain run.
    package struct Field {
        package var start: Int
        package var end: Int
        /// Whether a quote inside is written doubled: the bytes are not yet the text.
        package var hasDoubledQuotes: Bool

        package var isEmpty: Bool { start == end }

        /// The field's text: its bytes, each doubled quote made one.
        package func text(in file: UnsafeBufferPointer<UInt8>) -> String {
            let bytes = UnsafeBufferPointer(rebasing: file[start..<end])
            guard hasDoubledQuotes else { return String(decoding: bytes, as: UTF8.self) }
            var text: [UInt8] = []
            text.reserveCapacity(bytes.count)
            var index = 0
            while index < bytes.count {
                text.append(bytes[index])
                // The second quote of a pair is the escape's.
                index += bytes[index] == UInt8(ascii: "\"") ? 2 : 1
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Reads a file's records one at a time from its bytes, which the caller keeps in place:
    /// each record's fields are where they lie in the file (`Field`), so an import checks the
    /// whole file's shape first and makes a row's values only as it adds the row (and a value
    /// read as a word or a date is never made a string).
    package struct Cursor {
        /// The file's bytes, or a piece of them; a spreadsheet's BOM at the start is passed over
        /// (it is not text).
        private let bytes: UnsafeBufferPointer<UInt8>
        /// Where the next record starts, and its line.
        package private(set) var index: Int
        package private(set) var line: Int
        /// Whether `bytes` reach the file's end; when not, a record they end in the middle of
        /// is not read (`stoppedShort`), to be read whole from the next piece.
        private let isLast: Bool
        /// Whether `next` stopped at a record the piece does not hold all of.
        package private(set) var stoppedShort = false

        package init(_ all: UnsafeBufferPointer<UInt8>) {
            bytes = all
            index = all.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            line = 1
            isLast = true
        }

        /// Reads a piece of a file from `index`, whose line is `line`.
        package init(piece: UnsafeBufferPointer<UInt8>, from index: Int, line: Int, isLast: Bool) {
            bytes = piece
            self.index = index
            self.line = line
            self.isLast = isLast
        }

        /// The next record's starting line and number of fields, its fields put in `fields`;
        /// nil at the end (of the piece, when it `stoppedShort`). A line with nothing on it is
        /// no record.
        package mutating func next(_ fields: inout [Field]) -> Result<(line: Int, count: Int)?, Failure> {
            while index < bytes.count {
                let record = readRecord(&fields)
                if case .success(nil) = record, !stoppedShort { continue }  // an empty line
                return record
            }
            return .success(nil)
        }

        /// One line's record: nil when the line is empty.
        private mutating func readRecord(_ fields: inout [Field]) -> Result<(line: Int, count: Int)?, Failure> {
            let bytes = self.bytes
            let count = bytes.count
            fields.removeAll(keepingCapacity: true)
            // The field so far: its text's bytes start..<end (-1: none yet).
            var field = Field(start: -1, end: -1, hasDoubledQuotes: false)
            let recordLine = line
            let recordStart = index
            // The piece ends inside the record: it is read again, whole, from the next.
            func stopShort() -> Result<(line: Int, count: Int)?, Failure> {
                index = recordStart
                line = recordLine
                stoppedShort = true
                return .success(nil)
            }
            var quoted = false
            var afterQuote = false
            // Whether anything of the record has been read (an empty line is no record).
            var seen = false

            func endField() {
                if field.start < 0 { field = Field(start: index, end: index, hasDoubledQuotes: false) }
                fields.append(field)
                field = Field(start: -1, end: -1, hasDoubledQuotes: false)
                afterQuote = false
            }
            func endRecord() -> Result<(line: Int, count: Int)?, Failure> {
                // A record of one empty field is an empty line (or `""` alone): no record.
                let empty = fields.isEmpty && (field.start < 0 || field.start == field.end)
                endField()
                return .success(empty ? nil : (recordLine, fields.count))
            }

            while index < count {
                let byte = bytes[index]
                index += 1
                seen = true
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if index < count, bytes[index] == UInt8(ascii: "\"") {
                            field.hasDoubledQuotes = true
                            index += 1
                        } else {
                            quoted = false
                            afterQuote = true
                            field.end = index - 1
                        }
                    } else {
                        // The run of bytes up to the next quote, a line counted at each LF.
                        var stop = index - 1
                        while stop < count, bytes[stop] != UInt8(ascii: "\"") {
                            if bytes[stop] == 0x0A { line += 1 }
                            stop += 1
                        }
                        index = stop
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: ","):
                    endField()
                case 0x0D where index < count && bytes[index] == 0x0A:
                    break  // the LF ends the record
                case 0x0D where index == count && !isLast:
                    return stopShort()  // an LF may follow in the next piece
                case 0x0A:
                    line += 1
                    return endRecord()
                case UInt8(ascii: "\""):
                    guard field.start < 0, !afterQuote else {
                        return .failure(
                            Failure(
                                message: "a quote inside an unquoted field (quote the field and double the quote)",
                                line: line))
                    }
                    quoted = true
                    field.start = index
                default:
                    guard !afterQuote else {
                        return .failure(Failure(message: "text after a closing quote", line: line))
                    }
                    // The run of plain bytes up to the next comma, quote or line end (a CR alone
                    // is text, and the run goes on after it).
                    var stop = index
                    while stop < count {
                        let next = bytes[stop]
                        if next == UInt8(ascii: ",") || next == UInt8(ascii: "\"") || next == 0x0A || next == 0x0D {
                            break
                        }
                        stop += 1
                    }
                    if field.start < 0 { field.start = index - 1 }
                    field.end = stop
                    index = stop
                }
            }
            if !isLast { return stopShort() }
            if quoted { return .failure(Failure(message: "a quoted field is not closed", line: recordLine)) }
            return seen ? endRecord() : .success(nil)
        }
    }
}
