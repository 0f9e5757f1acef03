import ClosetCore

/// A CSV file's records read from the file a piece at a time (`FilePieces`): a record a piece
/// ends inside is read again whole from the next.
final class CSVFileCursor {
    private let pieces: FilePieces
    /// The line the next record starts on.
    private var line = 1

    init(_ file: any FileReading, pieceSize: Int, longestRecord: Int) throws(ImportFileProblem) {
        pieces = try FilePieces(file, pieceSize: pieceSize, longestRecord: longestRecord)
    }

    /// The piece the last record's fields are places in.
    var bytes: [UInt8] { pieces.bytes }

    /// How many bytes the file has, when its reader knows.
    var fileSize: Int? { pieces.fileSize }

    /// Whether the piece read reaches the file's end.
    var holdsTheRest: Bool { pieces.atEnd }

    /// The next record's starting line and number of fields, its fields (places in `bytes`)
    /// put in `fields`; nil at the file's end.
    func next(_ fields: inout [CSVReader.Field]) throws(ImportFileProblem) -> (line: Int, count: Int)? {
        while true {
            switch try step(&fields) {
            case .record(let line, let count): return (line, count)
            case .pieceEnd: try readNextPiece()
            case .fileEnd: return nil
            }
        }
    }

    /// What `step` met.
    enum Step {
        /// A record, its fields put in `fields`.
        case record(line: Int, count: Int)
        /// No more whole records in the piece: `readNextPiece` reads on.
        case pieceEnd
        case fileEnd
    }

    /// The piece's next record, if it holds one whole. A reader that keeps the records of a
    /// piece keeps `bytes` (the next piece is then read into a buffer of its own).
    func step(_ fields: inout [CSVReader.Field]) throws(ImportFileProblem) -> Step {
        let (filled, position, line, atEnd) = (pieces.filled, pieces.position, self.line, pieces.atEnd)
        let (result, cursor) = pieces.bytes.withUnsafeBufferPointer { all in
            var cursor = CSVReader.Cursor(
                piece: UnsafeBufferPointer(rebasing: all[..<filled]), from: position, line: line, isLast: atEnd)
            return (cursor.next(&fields), cursor)
        }
        pieces.position = cursor.index
        self.line = cursor.line
        switch result {
        case .failure(let failure): throw .syntax(message: failure.message, line: failure.line)
        case .success(let record?): return .record(line: record.line, count: record.count)
        case .success(nil): return atEnd ? .fileEnd : .pieceEnd
        }
    }

    /// Reads the next piece (after `step` met the end of this one).
    func readNextPiece() throws(ImportFileProblem) {
        try pieces.readMore(line: line)
    }

    /// Reads the file from its start again.
    func rewind() throws(ImportFileProblem) {
        try pieces.rewind()
        line = 1
    }
}
