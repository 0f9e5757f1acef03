import ClosetCore

/// The bytes of an export, written a row at a time: a JSON array of the records' objects (one
/// per line) or RFC 4180 CSV of their data columns. Rows go into one buffer the caller takes
/// each time it passes a megabyte (`isFull`), so a whole table is never one string or a grid
/// of cells.
/// The same bytes as `JSONRenderer` and `CSVRenderer` give for the whole listing.
@usableFromInline struct ExportWriter {
    @usableFromInline let format: TransferFiles.FileFormat
    let columns: [String]
    private var buffer: [UInt8] = []
    private var rows = 0
    static let pieceSize = 1 << 20

    init(format: TransferFiles.FileFormat, columns: [String]) {
        self.format = format
        self.columns = columns
        buffer.reserveCapacity(Self.pieceSize + 64 << 10)
    }

    mutating func begin() {
        switch format {
        case .json: break
        case .csv:
            for (number, column) in columns.enumerated() {
                if number > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.appendCSV(column, to: &buffer)
            }
            buffer += [0x0D, 0x0A]
        }
    }

    /// The parts of a record `add` reads: a listing exported makes only those.
    var recordParts: Record.Parts {
        switch format {
        case .json: .fields
        case .csv: .data
        }
    }

    mutating func add(_ record: Record) {
        switch format {
        case .json: add(json: record.fields)
        case .csv: add(data: record.data)
        }
    }

    /// A row of a JSON export: its object.
    @usableFromInline mutating func add(json fields: [Field]) {
        buffer += rows == 0 ? [UInt8(ascii: "["), 0x0A] : [UInt8(ascii: ","), 0x0A]
        JSONRenderer.write(fields, into: &buffer)
        rows += 1
    }

    /// A row of a CSV export: its data columns' values.
    @usableFromInline mutating func add(data values: [FieldValue]) {
        for (number, value) in values.enumerated() {
            if number > 0 { buffer.append(UInt8(ascii: ",")) }
            switch value {
            case .text(let text), .marked(let text, _), .localized(let text, _): Self.appendCSV(text, to: &buffer)
            case .integer(let number): buffer += String(number).utf8
            case .null: break
            // Written where they go, no string between (a string each was a tenth of a
            // listing): neither text holds a comma, a quote or a line break.
            case .date(let date): Timestamp.append(date, to: &buffer)
            case .key(.uuid(let id)): id.appendText(to: &buffer)
            case .decimal, .bool, .key, .object, .list:
                Self.appendCSV(RecordGrid.cell(value, forPeople: false), to: &buffer)
            }
        }
        buffer += [0x0D, 0x0A]
        rows += 1
    }

    /// Whether the bytes so far make a piece to write.
    var isFull: Bool { buffer.count >= Self.pieceSize }

    /// The bytes so far, handed over.
    mutating func take() -> [UInt8] {
        defer { buffer.removeAll(keepingCapacity: true) }
        return buffer
    }

    mutating func end() {
        if case .json = format { buffer += rows == 0 ? Array("[]\n".utf8) : Array("\n]\n".utf8) }
    }

    /// A CSV field: as it is, or in quotes (quotes doubled) when it holds a comma, a quote, CR
    /// or LF.
    static func appendCSV(_ text: String, to buffer: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes in
            let special = bytes.contains {
                $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
            }
            guard special else {
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.append(UInt8(ascii: "\""))
            for byte in bytes {
                if byte == UInt8(ascii: "\"") { buffer.append(byte) }
                buffer.append(byte)
            }
            buffer.append(UInt8(ascii: "\""))
        }
    }
}

/// An export's writer and the file it fills: each row added, full pieces written as they come.
@usableFromInline final class ExportSink {
    @usableFromInline private(set) var writer: ExportWriter
    private(set) var count = 0
    private let write: ([UInt8]) throws -> Void

    init(_ writer: ExportWriter, write: @escaping ([UInt8]) throws -> Void) {
        self.writer = writer
        self.write = write
        self.writer.begin()
    }

    /// One row, added by `body`.
    @usableFromInline func add(_ body: (inout ExportWriter) -> Void) throws {
        body(&writer)
        count += 1
        if writer.isFull { try write(writer.take()) }
    }

    func finish() throws {
        writer.end()
        try write(writer.take())
    }
}
