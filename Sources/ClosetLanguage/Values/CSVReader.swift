/// RFC 4180 reading for `import`: quoted fields (with doubled quotes, commas and line breaks
/// inside), CRLF or LF line ends, and the line each record starts on.
package enum CSVReader {
    public struct Failure: Error, Equatable {
        public var message: String
        public var line: Int
    }

    public static func records(_ text: String) throws(Failure) -> [(line: Int, fields: [String])] {
        var text = text
        return try text.withUTF8 { records(in: $0) }.get()
    }

    /// A field's text is made from the bytes where they lie: a field is one run of the file's
    /// bytes unless it has a doubled quote (copying every byte into a buffer was most of
    /// reading a 100,000-row file).
    private static func records(in all: UnsafeBufferPointer<UInt8>) -> Result<[(line: Int, fields: [String])], Failure>
    {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        // The field so far: bytes[start..<end] while it is one run, else `copied`.
        var start = -1
        var end = -1
        var copied: [UInt8]?
        var line = 1
        var recordLine = 1
        var quoted = false
        var afterQuote = false
        // A spreadsheet's BOM is not text.
        let bytes = all.starts(with: [0xEF, 0xBB, 0xBF]) ? UnsafeBufferPointer(rebasing: all[3...]) : all
        var index = 0

        // Appends bytes[from..<to] to the field.
        func append(_ from: Int, _ to: Int) {
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
            if let copied {
                fields.append(String(decoding: copied, as: UTF8.self))
            } else if start < 0 {
                fields.append("")
            } else {
                fields.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self))
            }
            (start, end, copied) = (-1, -1, nil)
            afterQuote = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            let width = fields.count
            fields = []
            fields.reserveCapacity(width)
        }

        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            index += 1
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
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard start < 0, !afterQuote else {
                    return .failure(
                        Failure(
                            message: "a quote inside an unquoted field (quote the field and double the quote)",
                            line: line))
                }
                quoted = true
            default:
                guard !afterQuote else { return .failure(Failure(message: "text after a closing quote", line: line)) }
                // The run of plain bytes up to the next comma, quote or line end (a CR alone is text).
                var stop = index
                while stop < count {
                    let next = bytes[stop]
                    if next == UInt8(ascii: ",") || next == UInt8(ascii: "\"") || next == 0x0A || next == 0x0D { break }
                    stop += 1
                }
                append(index - 1, stop)
                index = stop
            }
        }
        if quoted { return .failure(Failure(message: "a quoted field is not closed", line: recordLine)) }
        if start >= 0 || !fields.isEmpty || afterQuote { endRecord() }
        return .success(records)
    }
}
