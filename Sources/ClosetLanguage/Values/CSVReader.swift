/// RFC 4180 reading for `import`: quoted fields (with doubled quotes, commas and line breaks
/// inside), CRLF or LF line ends, and the line each record starts on.
package enum CSVReader {
    public struct Failure: Error, Equatable {
        public var message: String
        public var line: Int
    }

    public static func records(_ text: String) throws(Failure) -> [(line: Int, fields: [String])] {
        var records: [(line: Int, fields: [String])] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var recordLine = 1
        var quoted = false
        var afterQuote = false
        var bytes = Array(text.utf8)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }  // a spreadsheet's BOM
        var index = 0

        func endField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            afterQuote = false
        }
        func endRecord() {
            endField()
            if !(fields.count == 1 && fields[0].isEmpty) { records.append((recordLine, fields)) }
            fields.removeAll()
        }

        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if quoted {
                if byte == UInt8(ascii: "\"") {
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
                        field.append(byte)
                        index += 1
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if byte == 0x0A { line += 1 }
                    field.append(byte)
                }
                continue
            }
            switch byte {
            case UInt8(ascii: ","):
                endField()
            case 0x0D where index < bytes.count && bytes[index] == 0x0A:
                break  // the LF ends the record
            case 0x0A:
                endRecord()
                line += 1
                recordLine = line
            case UInt8(ascii: "\""):
                guard field.isEmpty, !afterQuote else {
                    throw Failure(
                        message: "a quote inside an unquoted field (quote the field and double the quote)", line: line)
                }
                quoted = true
            default:
                guard !afterQuote else { throw Failure(message: "text after a closing quote", line: line) }
                field.append(byte)
            }
        }
        if quoted { throw Failure(message: "a quoted field is not closed", line: recordLine) }
        if !field.isEmpty || !fields.isEmpty || afterQuote { endRecord() }
        return records
    }
}
