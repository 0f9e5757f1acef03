import ClosetCore

/// A JSON file's rows — the elements of its one top-level array — read from the file a piece
/// at a time (`FilePieces`), each element read whole (`JSONReader`) once the piece holds all of
/// it, with the line it starts on. An empty file (or only blanks) is not JSON, and refused: a
/// truncated export must not import as nothing (`[]` is the file of no rows).
final class JSONFileCursor {
    private let pieces: FilePieces
    private var line = 1
    private enum State { case first, afterElement, finished }
    private var state = State.first

    init(_ file: any FileReading, pieceSize: Int, longestRecord: Int) throws(ImportFileProblem) {
        pieces = try FilePieces(file, pieceSize: pieceSize, longestRecord: longestRecord)
        try open()
    }

    /// Reads the file from its start again.
    func rewind() throws(ImportFileProblem) {
        try pieces.rewind()
        line = 1
        try open()
    }

    /// Passes over the array's `[`.
    private func open() throws(ImportFileProblem) {
        state = .first
        guard let first = try peekPastBlanks() else {
            throw .syntax(message: "the file is empty; a JSON file of no rows is []", line: line)
        }
        guard first == UInt8(ascii: "[") else { throw .syntax(message: "expected a JSON array of objects", line: line) }
        pieces.position += 1
    }

    /// The next element and the line it starts on; nil after the array's `]` (and nothing but
    /// blanks after it).
    func next() throws(ImportFileProblem) -> (line: Int, value: JSONValue)? {
        switch state {
        case .finished: return nil
        case .first:
            if try peekPastBlanks() == UInt8(ascii: "]") {
                pieces.position += 1
                try finish()
                return nil
            }
        case .afterElement:
            guard let next = try peekPastBlanks() else {
                throw .syntax(message: "the array is not closed", line: line)
            }
            pieces.position += 1
            if next == UInt8(ascii: "]") {
                try finish()
                return nil
            }
            guard next == UInt8(ascii: ",") else { throw .syntax(message: "expected ',' or ']'", line: line) }
        }
        guard try peekPastBlanks() != nil else { throw .syntax(message: "the array is not closed", line: line) }
        let start = line
        let (end, lines) = try wholeValue()
        let element = Array(pieces.bytes[pieces.position..<end])
        do throws(JSONReader.Failure) {
            let value = try JSONReader.value(element)
            pieces.position = end
            line += lines
            state = .afterElement
            return (start, value)
        } catch {
            throw .syntax(message: error.message, line: start + error.line - 1)
        }
    }

    /// Nothing but blanks may follow the array.
    private func finish() throws(ImportFileProblem) {
        state = .finished
        guard try peekPastBlanks() == nil else {
            throw .syntax(message: "unexpected text after the array", line: line)
        }
    }

    /// The next byte that is not a blank (lines counted), read into the piece; nil at the file's end.
    private func peekPastBlanks() throws(ImportFileProblem) -> UInt8? {
        while true {
            let (filled, atEnd) = (pieces.filled, pieces.atEnd)
            var position = pieces.position
            var lines = 0
            let found = pieces.bytes.withUnsafeBufferPointer { bytes -> UInt8? in
                while position < filled {
                    let byte = bytes[position]
                    guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return byte }
                    if byte == 0x0A { lines += 1 }
                    position += 1
                }
                return nil
            }
            pieces.position = position
            line += lines
            if found != nil || atEnd { return found }
            try pieces.readMore(line: line)
        }
    }

    /// Where the value at the reader's position ends, and how many lines it spans, once the
    /// piece holds all of it: its brackets matched outside strings, or a scalar's next
    /// delimiter read. At the file's end, wherever the bytes stop (the reader then says what
    /// is missing).
    private func wholeValue() throws(ImportFileProblem) -> (end: Int, lines: Int) {
        while true {
            let (filled, atEnd, position) = (pieces.filled, pieces.atEnd, pieces.position)
            let found = pieces.bytes.withUnsafeBufferPointer { bytes -> (end: Int, lines: Int)? in
                var depth = 0
                var inString = false
                var escaped = false
                var lines = 0
                var index = position
                while index < filled {
                    if inString, !escaped {
                        // A string's plain run, to its next quote or backslash.
                        while index < filled, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                            index += 1
                        }
                        guard index < filled else { break }
                    }
                    let byte = bytes[index]
                    index += 1
                    if byte == 0x0A { lines += 1 }
                    if inString {
                        if escaped {
                            escaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            escaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            inString = false
                            if depth == 0 { return (index, lines) }
                        }
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "\""): inString = true
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        // A bracket closing none opened here ends a scalar before it.
                        if depth == 0 { return (index - 1, lines) }
                        depth -= 1
                        if depth == 0 { return (index, lines) }
                    case UInt8(ascii: ","), 0x20, 0x09, 0x0A, 0x0D:
                        if depth == 0 { return (index - 1, lines - (byte == 0x0A ? 1 : 0)) }
                    default: break
                    }
                }
                return nil
            }
            if let found { return found }
            if atEnd {
                let lines = pieces.bytes[position..<filled].reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                return (filled, lines)
            }
            try pieces.readMore(line: line)
        }
    }
}
