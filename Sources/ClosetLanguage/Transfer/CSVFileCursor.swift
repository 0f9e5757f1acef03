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

    /// The next record's starting line and number of fields, its fields (places in `bytes`)
    /// put in `fields`; nil at the file's end.
    func next(_ fields: inout [CSVReader.Field]) throws(ImportFileProblem) -> (line: Int, count: Int)? {
        while true {
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
            case .success(let record?): return record
            case .success(nil):
                if atEnd { return nil }
                try pieces.readMore(line: self.line)
            }
        }
    }

    /// Reads the file from its start again.
    func rewind() throws(ImportFileProblem) {
        try pieces.rewind()
        line = 1
    }
}
