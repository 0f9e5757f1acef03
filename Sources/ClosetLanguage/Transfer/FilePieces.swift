import ClosetCore

/// What reading an imported file a piece at a time can meet.
enum ImportFileProblem: Error {
    /// The file is not the format it says (a quote not closed, a JSON array not closed).
    case syntax(message: String, line: Int)
    /// The file's offset of its first byte that is not UTF-8.
    case notUTF8(offset: Int)
    case cannotRead(Diagnostic)
    /// A file read again is not what it was: the problem is listed as a bad row's.
    case changedWhileRead(TransferFiles.RowProblem)
}

/// An imported text file read from the host a piece at a time (a megabyte; more only while a
/// record longer than that is read): a file of any size is held as one piece, never whole.
/// Each piece is checked to be UTF-8 before it is read (so bytes that are not are met before
/// another problem in their piece); what a reader has not yet taken is kept, moved to the start
/// of the next piece.
final class FilePieces {
    private let file: any FileReading
    /// The piece: `bytes[..<filled]` are the file's from `pieceOffset`. Rows read from it share
    /// it (not copied unless one is kept past the next piece).
    private(set) var bytes: [UInt8]
    private(set) var filled = 0
    private var pieceOffset = 0
    /// Where the reader's next byte is: the bytes before it are dropped at the next piece.
    var position = 0
    /// Whether the piece reaches the file's end.
    private(set) var atEnd = false
    /// The piece's bytes checked to be UTF-8 (all but a character the piece ends inside).
    private var checked = 0
    /// A record may be no longer than this (a quote never closed would otherwise make the rest
    /// of the file one record, held whole).
    let longestRecord: Int
    static let longestRecord = 256 << 20

    /// How many bytes the file has, when its reader knows.
    var fileSize: Int? { file.byteCount }

    init(_ file: any FileReading, pieceSize: Int, longestRecord: Int) throws(ImportFileProblem) {
        self.file = file
        self.longestRecord = longestRecord
        bytes = [UInt8](repeating: 0, count: max(pieceSize, 4))
        try start()
    }

    /// Reads the file from its start again.
    func rewind() throws(ImportFileProblem) {
        do {
            try file.rewind()
        } catch {
            throw .cannotRead(Self.diagnostic(error))
        }
        (filled, pieceOffset, position, checked, atEnd) = (0, 0, 0, 0, false)
        try start()
    }

    /// The first piece, its BOM passed over (as spreadsheets write it: it is not text).
    private func start() throws(ImportFileProblem) {
        try readMore(line: 1)
        if bytes[..<filled].starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
    }

    /// Keeps the unread bytes (from `position`), moved to the piece's start, and fills the rest
    /// from the file (a piece twice as long when they fill it). `line` is where the reader is,
    /// for the error of a record too long.
    func readMore(line: Int) throws(ImportFileProblem) {
        let kept = filled - position
        if kept == bytes.count {
            guard kept < longestRecord else {
                throw .syntax(
                    message: "a record longer than \(ByteSize.format(longestRecord)) (is a quote not closed?)",
                    line: line)
            }
            bytes.append(contentsOf: repeatElement(0, count: bytes.count))
        }
        let (file, position) = (self.file, self.position)
        let read = bytes.withUnsafeMutableBytes { piece -> Result<(count: Int, atEnd: Bool), ImportFileProblem> in
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
        filled = count
        self.atEnd = atEnd
        try checkUTF8()
    }

    /// Checks the piece's new bytes, up to a character it ends in the middle of (at the file's
    /// end, to its end).
    private func checkUTF8() throws(ImportFileProblem) {
        let (start, filled, atEnd) = (checked, self.filled, self.atEnd)
        let invalid = bytes.withUnsafeBufferPointer { all -> (offset: Int?, end: Int) in
            var end = filled
            if !atEnd {
                // Back over continuation bytes to the character's first byte: kept when the
                // character needs more bytes than the piece has.
                var first = filled - 1
                while first > start, filled - first < 4, all[first] & 0xC0 == 0x80 { first -= 1 }
                if first >= start, all[first] >= 0xC0 {
                    let length = all[first] >= 0xF0 ? 4 : all[first] >= 0xE0 ? 3 : 2
                    if filled - first < length { end = first }
                }
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
