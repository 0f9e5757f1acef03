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
            var fields: [String] = []
            while true {
                switch cursor.next(&fields) {
                case .success(let record?): records.append((record.line, fields))
                case .success(nil): return .success(records)
                case .failure(let failure): return .failure(failure)
                }
            }
        }.get()
    }

    /// Reads a file's records one at a time from its bytes, which the caller keeps in place:
    /// an import checks the whole file's shape first (`fields: nil`: nothing made), then makes
    /// each record's fields as it adds the row, so a million rows are never held at once.
    package struct Cursor {
        /// The file's bytes, less a spreadsheet's BOM (it is not text).
        private let bytes: UnsafeBufferPointer<UInt8>
        private var index = 0
        private var line = 1

        package init(_ all: UnsafeBufferPointer<UInt8>) {
            bytes = all.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: all[3...]) : all
        }

        /// The next record's starting line and number of fields, its fields put in `fields`
        /// (`making: false`: only counted); nil at the end. A line with nothing on it is no record.
        /// A field's text is made from the bytes where they lie: one run of the file's bytes
        /// unless it has a doubled quote (copying every byte into a buffer was most of reading
        /// a 100,000-row file).
        package mutating func next(_ fields: inout [String], making: Bool = true) -> Result<
            (line: Int, count: Int)?, Failure
        > {
            while index < bytes.count {
                let record = readRecord(&fields, making: making)
                if case .success(nil) = record { continue }  // an empty line
                return record
            }
            return .success(nil)
        }

        /// One line's record: nil when the line is empty.
        private mutating func readRecord(_ fields: inout [String], making: Bool) -> Result<
            (line: Int, count: Int)?, Failure
        > {
            let bytes = self.bytes
            let count = bytes.count
            if making { fields.removeAll(keepingCapacity: true) }
            var fieldCount = 0
            // The field so far: bytes[start..<end] while it is one run, else `copied`.
            var start = -1
            var end = -1
            var copied: [UInt8]?
            let recordLine = line
            var quoted = false
            var afterQuote = false
            // Whether anything of the record has been read (an empty line is no record).
            var seen = false

            // Appends bytes[from..<to] to the field.
            func append(_ from: Int, _ to: Int) {
                guard making else {
                    start = from
                    return
                }
                if copied != nil {
                    copied?.append(contentsOf: bytes[from..<to])
                } else if start < 0 {
                    (start, end) = (from, to)
                } else if end == from {
                    end = to
                } else {
                    copied = Array(bytes[start..<end]) + bytes[from..<to]
                }
            }
            func endField() {
                fieldCount += 1
                if making {
                    if let copied {
                        fields.append(String(decoding: copied, as: UTF8.self))
                    } else if start < 0 {
                        fields.append("")
                    } else {
                        fields.append(
                            String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
                    }
                }
                (start, end, copied) = (-1, -1, nil)
                afterQuote = false
            }
            func endRecord() -> Result<(line: Int, count: Int)?, Failure> {
                // A record of one empty field is an empty line (or `""` alone): no record.
                let empty = fieldCount == 0 && start < 0 && copied == nil
                endField()
                return .success(empty ? nil : (recordLine, fieldCount))
            }

            while index < count {
                let byte = bytes[index]
                index += 1
                seen = true
                if quoted {
                    if byte == UInt8(ascii: "\"") {
                        if index < count, bytes[index] == UInt8(ascii: "\"") {
                            append(index - 1, index)
                            index += 1
                        } else {
                            quoted = false
                            afterQuote = true
                        }
                    } else {
                        // The run of bytes up to the next quote, a line counted at each LF.
                        var stop = index - 1
                        while stop < count, bytes[stop] != UInt8(ascii: "\"") {
                            if bytes[stop] == 0x0A { line += 1 }
                            stop += 1
                        }
                        append(index - 1, stop)
                        index = stop
                    }
                    continue
                }
                switch byte {
                case UInt8(ascii: ","):
                    endField()
                case 0x0D where index < count && bytes[index] == 0x0A:
                    break  // the LF ends the record
                case 0x0A:
                    line += 1
                    return endRecord()
                case UInt8(ascii: "\""):
                    guard start < 0, !afterQuote else {
                        return .failure(
                            Failure(
                                message: "a quote inside an unquoted field (quote the field and double the quote)",
                                line: line))
                    }
                    quoted = true
                default:
                    guard !afterQuote else {
                        return .failure(Failure(message: "text after a closing quote", line: line))
                    }
                    // The run of plain bytes up to the next comma, quote or line end (a CR alone is text).
                    var stop = index
                    while stop < count {
                        let next = bytes[stop]
                        if next == UInt8(ascii: ",") || next == UInt8(ascii: "\"") || next == 0x0A || next == 0x0D {
                            break
                        }
                        stop += 1
                    }
                    append(index - 1, stop)
                    index = stop
                }
            }
            if quoted { return .failure(Failure(message: "a quoted field is not closed", line: recordLine)) }
            return seen ? endRecord() : .success(nil)
        }
    }
}
