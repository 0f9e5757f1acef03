import ClosetCore

/// A CSV file's records read from the file a piece at a time (a megabyte, more only for a
/// record longer than that): an import of a file of any size holds one piece of it, never the
/// whole. Each piece is checked to be UTF-8 before its records are read; a record a piece ends
/// inside is read again whole from the next.
final class CSVFileCursor {
    enum Problem: Error {
        case csv(CSVReader.Failure)
        /// The file's offset of its first byte that is not UTF-8.
        case notUTF8(offset: Int)
        case cannotRead(Diagnostic)
    }

    /// A record may be no longer than this (a quote never closed would otherwise make the
    /// whole file one record, held whole).
    static let longestRecord = 256 << 20

    private let file: any FileReading
    /// The piece: `bytes[..<filled]` are the file's from `pieceOffset`. Rows share it (not
    /// copied unless one is kept past the next piece).
    private(set) var bytes: [UInt8]
    private var filled = 0
    private var pieceOffset = 0
    /// Where the next record starts in the piece, and its line.
    private var position = 0
    private var line = 1
    /// The piece's bytes checked to be UTF-8 (a character never holds an LF: the checked
    /// part ends after one).
    private var checked = 0
    /// Whether the piece reaches the file's end.
    private var atEnd = false

    private let longestRecord: Int

    init(_ file: any FileReading, pieceSize: Int = 1 << 20, longestRecord: Int = longestRecord) throws(Problem) {
        self.file = file
        self.longestRecord = longestRecord
        bytes = [UInt8](repeating: 0, count: max(pieceSize, 4))
        try readPiece()
        // A spreadsheet's BOM is passed over: it is not text.
        if bytes[..<filled].starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// The next record's starting line and number of fields, its fields (places in `bytes`)
    /// put in `fields`; nil at the file's end.
    func next(_ fields: inout [CSVReader.Field]) throws(Problem) -> (line: Int, count: Int)? {
        while true {
            let (filled, position, line, atEnd) = (self.filled, self.position, self.line, self.atEnd)
            let (result, cursor) = bytes.withUnsafeBufferPointer { all in
                var cursor = CSVReader.Cursor(
                    piece: UnsafeBufferPointer(rebasing: all[..<filled]), from: position, line: line, isLast: atEnd)
                return (cursor.next(&fields), cursor)
            }
            self.position = cursor.index
            self.line = cursor.line
            switch result {
            case .failure(let failure): throw .csv(failure)
            case .success(let record?): return record
            case .success(nil):
                if atEnd { return nil }
                try readPiece()
            }
        }
    }

    /// Reads the file from its start again.
    func rewind() throws(Problem) {
        do {
            try file.rewind()
        } catch {
            throw .cannotRead(Self.diagnostic(error))
        }
        (filled, pieceOffset, position, line, checked, atEnd) = (0, 0, 0, 1, 0, false)
        try readPiece()
        if bytes[..<filled].starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Reads and checks the rest of the file (after a record that cannot be read: a file that
    /// is not UTF-8 is reported as that first, wherever it is).
    func checkRest() throws(Problem) {
        while !atEnd {
            position = checked  // what is not yet checked is kept for the next piece
            try readPiece()
        }
    }

    /// Keeps the unread record's bytes, moved to the piece's start, and fills the rest from
    /// the file (a piece twice as long when the record fills it).
    private func readPiece() throws(Problem) {
        let kept = filled - position
        if kept == bytes.count {
            guard kept < longestRecord else {
                throw .csv(
                    CSVReader.Failure(
                        message: "a record longer than \(ByteSize.format(longestRecord)) (is a quote not closed?)",
                        line: line))
            }
            bytes.append(contentsOf: repeatElement(0, count: bytes.count))
        }
        let position = self.position
        let read = bytes.withUnsafeMutableBytes { piece -> Result<(count: Int, atEnd: Bool), Problem> in
            if kept > 0, position > 0, let start = piece.baseAddress {
                start.copyMemory(from: start + position, byteCount: kept)  // (a memmove: they may overlap)
            }
            var count = kept
            while count < piece.count {
                let got: Int
                do {
                    got = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: piece[count...]))
                } catch {
                    return .failure(.cannotRead(Self.diagnostic(error)))
                }
                if got == 0 { return .success((count, true)) }
                count += got
            }
            return .success((count, false))
        }
        let (count, atEnd) = try read.get()
        pieceOffset += position
        checked = max(0, checked - position)
        self.position = 0
        self.filled = count
        self.atEnd = atEnd
        try checkUTF8()
    }

    /// Checks the piece's new bytes up to its last LF (to its end, at the file's end).
    private func checkUTF8() throws(Problem) {
        let (start, filled, atEnd) = (checked, self.filled, self.atEnd)
        let invalid = bytes.withUnsafeBufferPointer { all -> (offset: Int?, end: Int) in
            var end = filled
            if !atEnd {
                while end > start, all[end - 1] != 0x0A { end -= 1 }
            }
            return (UTF8Text.firstInvalidOffset(in: UnsafeBufferPointer(rebasing: all[start..<end])), end)
        }
        if let offset = invalid.offset { throw .notUTF8(offset: pieceOffset + start + offset) }
        checked = invalid.end
    }

    private static func diagnostic(_ error: any Error) -> Diagnostic {
        error as? Diagnostic ?? .cannotRead("the file", because: "\(error)")
    }
}
