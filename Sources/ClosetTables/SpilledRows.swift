import ClosetCore

/// Rows a transaction added to a table that was empty when it began, moved out of memory into a
/// scratch file (`ScratchFile`) once they are many: an import of a million rows held every one
/// decoded (about 130 bytes a wardrobe row, with its strings) until its commit. They are framed
/// as a snapshot's rows are (`RowFrame`), in the order they were added, and come before the
/// table's decoded rows. Only new rows are moved, so undoing one is dropping the last; whatever
/// else the table is asked to do with them (remove or replace one, hand over every row) reads
/// them back into memory first (`TablePasses.unspill`). Which keys they hold is told by
/// `SpilledKeys`, in a scratch file of its own. A class: each insert asks it about its key, and
/// a struct of arrays read out of the table's optional was copied (a retain and a release per
/// array) for every one.
@usableFromInline final class SpilledRows<Codec: TableCodec> {
    @usableFromInline typealias Key = Codec.Key
    @usableFromInline typealias Row = Codec.Row

    /// How many bytes of frames are read or written at once.
    @usableFromInline static var span: Int { 1 << 20 }
    /// A row whose frame's start is kept comes at least every this many rows, or bytes: the
    /// others are found by walking the frames from it. Every row's start (eight bytes) was
    /// 80 MB of a ten-million-row import.
    @usableFromInline static var checkpointRows: Int { 64 }
    @usableFromInline static var checkpointBytes: Int { 1 << 16 }

    @usableFromInline let file: ScratchFile
    @usableFromInline let tableName: String
    /// The rows whose frame starts are kept (`checkpointRows`), by row number, with those starts.
    @usableFromInline var checkpoints: [(ordinal: Int, start: Int)] = []
    /// Where each row of the last checkpoint's run starts (nil: not read yet), for undoing them.
    @usableFromInline var lastRunStarts: [Int]? = []
    @usableFromInline var count = 0
    /// Each row's place among them, by key.
    @usableFromInline var keys: SpilledKeys
    /// The bytes of the file in use (an undone row's bytes stay behind it, to be written over).
    @usableFromInline var length = 0
    /// What a snapshot's index keeps of each row (`SnapshotSection.Columns`: its bucket u8 and
    /// order key i64, when the table has an index), in scratch bytes of their own, and the blobs
    /// they name, taken as the rows move out: a commit then copies their frames without decoding
    /// them again.
    @usableFromInline let indexColumns: ScratchBytes
    @usableFromInline var blobNames = Set<String>()
    /// The last piece of `indexColumns` read, and the first row it holds.
    private var columnWindow: [UInt8] = []
    private var columnWindowFirst = 0

    /// `file` for the rows, `keysFile` for their keys, `columnsFile` for what the index keeps.
    @inlinable init(
        file: ScratchFile, keysFile: ScratchFile, columnsFile: ScratchFile?, tableName: String, expecting count: Int
    ) {
        self.file = file
        self.tableName = tableName
        keys = SpilledKeys(file: keysFile, expecting: count)
        indexColumns = ScratchBytes(file: columnsFile)
    }

    /// A key's hash for `keys`.
    @inlinable static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }

    /// The place of the row with this key, or nil (`keys` rules most keys out unread; one it
    /// lets through is checked against the row's own).
    @inlinable func place(of key: Key) -> Int? {
        keys.restoreFilter()
        return keys.place(of: Self.hash(key)) { place in place < count && Codec.key(of: row(place)) == key }
    }

    /// Appends the rows of `slots` (every one new: keys neither spilled nor repeated) after the
    /// others; false, and nothing kept, when the file cannot take them (a full disk).
    @inlinable func append(_ slots: [(key: Key, row: Row)?], index: TableIndex<Codec>?) -> Bool {
        var writer = ByteWriter()
        writer.reserve(Self.span + (Self.span >> 2))
        var flushed = length
        var starts: [Int] = []
        starts.reserveCapacity(slots.count)
        func flush() -> Bool {
            defer { writer.bytes.removeAll(keepingCapacity: true) }
            let wrote = writer.bytes.withUnsafeBytes { file.write($0, at: flushed) }
            flushed += writer.bytes.count
            return wrote
        }
        // One pass over the rows (each copied out of its slot once: three passes copied a
        // 1,000,000-row import's rows three times), what it finds kept until the file took them.
        var hashes: [(key: UInt64, value: Int)] = []
        hashes.reserveCapacity(slots.count)
        var columns: [(bucket: UInt8, order: Int64)] = []
        if index != nil { columns.reserveCapacity(slots.count) }
        var blobs = Set<String>()
        for case let entry? in slots {
            starts.append(flushed + writer.bytes.count)
            RowFrame.part16(&writer) { Codec.encode(key: entry.key, into: &$0) }
            RowFrame.part32(&writer) { Codec.encode(entry.row, into: &$0) }
            hashes.append((Self.hash(entry.key), count + hashes.count))
            if let index {
                columns.append((UInt8(truncatingIfNeeded: index.bucket(entry.row)), index.order(entry.row)))
            }
            blobs.formUnion(Codec.blobs(of: entry.row))
            if writer.bytes.count >= Self.span, !flush() { return false }
        }
        guard flush(), keys.add(hashes) else { return false }
        for start in starts { noteStart(start) }
        length = flushed
        for column in columns {
            indexColumns.append(littleEndian: column.bucket)
            indexColumns.append(littleEndian: column.order)
        }
        blobNames.formUnion(blobs)
        return true
    }

    /// Counts a new row whose frame starts at `start`, a checkpoint if due.
    @inlinable func noteStart(_ start: Int) {
        if let last = checkpoints.last, count - last.ordinal < Self.checkpointRows,
            start - last.start < Self.checkpointBytes
        {
            lastRunStarts?.append(start)
        } else {
            checkpoints.append((count, start))
            lastRunStarts = [start]
        }
        count += 1
    }

    /// The file's bytes in `range`; a scratch file that cannot give back what it took is
    /// damage like an unreadable snapshot row (`UnreadableRow`).
    @inlinable func read(_ range: Range<Int>) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: range.count)
        let read = bytes.withUnsafeMutableBytes { file.read(into: $0, at: range.lowerBound) }
        guard read else {
            UnreadableRow.found("table '\(tableName)': rows held in a scratch file could not be read back")
        }
        return bytes
    }

    /// The length of the frame at `local` in `bytes`, or nil when they do not hold all of it.
    @inlinable static func frameLength(in bytes: [UInt8], at local: Int) -> Int? {
        guard local + 2 <= bytes.count else { return nil }
        let keyLength = Int(bytes[local]) | Int(bytes[local + 1]) << 8
        let rowAt = local + 2 + keyLength
        guard rowAt + 4 <= bytes.count else { return nil }
        let rowLength = (0..<4).reduce(0) { $0 | Int(bytes[rowAt + $1]) << (8 * $1) }
        return rowAt + 4 + rowLength <= bytes.count ? 2 + keyLength + 4 + rowLength : nil
    }

    /// The length of the frame starting at `start` in the file, read from its two lengths.
    @inlinable func frameLength(at start: Int) -> Int {
        let keyLength = read(start..<(start + 2)).enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        let rowLength = read((start + 2 + keyLength)..<(start + 6 + keyLength)).enumerated()
            .reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
        return 2 + keyLength + 4 + rowLength
    }

    /// Every frame in order, read a span at a time: `body` gets each row's place, the bytes read
    /// and where the frame lies in them.
    @inlinable func forEachFrame(_ body: (_ ordinal: Int, _ bytes: [UInt8], _ frame: Range<Int>) throws -> Void)
        rethrows
    {
        var ordinal = 0
        var offset = 0
        while ordinal < count, offset < length {
            var bytes = read(offset..<min(length, offset + Self.span))
            if Self.frameLength(in: bytes, at: 0) == nil {
                // A frame longer than a span: read whole.
                bytes = read(offset..<min(length, offset + frameLength(at: offset)))
            }
            var local = 0
            while ordinal < count, let frame = Self.frameLength(in: bytes, at: local) {
                try body(ordinal, bytes, local..<(local + frame))
                ordinal += 1
                local += frame
            }
            // Not even one frame where one was due: the file is damaged (never loop on it).
            guard local > 0 else { break }
            offset += local
        }
        guard ordinal == count else {
            UnreadableRow.found("table '\(tableName)': rows held in a scratch file do not add up")
        }
    }

    /// Every row in order, decoded.
    @inlinable func forEachRow(_ body: (Key, Row) throws -> Void) rethrows {
        try forEachFrame { _, bytes, frame in
            let row = decode(bytes, frame)
            try body(Codec.key(of: row), row)
        }
    }

    /// The row whose frame lies at `frame` in `bytes`.
    @inlinable func decode(_ bytes: [UInt8], _ frame: Range<Int>) -> Row {
        var reader = ByteReader(bytes, from: frame.lowerBound, to: frame.upperBound)
        var row: Row?
        do throws(ByteReader.Malformed) {
            try RowFrame.forEachSnapshotRow(1, in: &reader) { reader throws(ByteReader.Malformed) in
                row = try Codec.decodeRow(from: &reader)
            }
        } catch {
            row = nil
        }
        guard let row, reader.isAtEnd else {
            UnreadableRow.found("table '\(tableName)': a row held in a scratch file cannot be read")
        }
        return row
    }

    /// The run of frames from the checkpoint `number` to the next (or the end), read whole.
    @inlinable func checkpointRun(_ number: Int) -> [UInt8] {
        let end = number + 1 < checkpoints.count ? checkpoints[number + 1].start : length
        return read(checkpoints[number].start..<end)
    }

    /// Row `ordinal`, read back and decoded: found from the checkpoint before it.
    @inlinable func row(_ ordinal: Int) -> Row {
        var low = 0
        var high = checkpoints.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if checkpoints[middle].ordinal <= ordinal { low = middle } else { high = middle - 1 }
        }
        let bytes = checkpointRun(low)
        var local = 0
        for _ in checkpoints[low].ordinal..<ordinal { local += Self.frameLength(in: bytes, at: local) ?? bytes.count }
        guard let frame = Self.frameLength(in: bytes, at: local) else {
            UnreadableRow.found("table '\(tableName)': a row held in a scratch file cannot be found")
        }
        return decode(bytes, local..<(local + frame))
    }

    /// Row `ordinal`'s bucket and order key, read in order a piece at a time (a commit's index).
    @usableFromInline func indexEntry(_ ordinal: Int) -> (bucket: UInt8, order: Int64) {
        var local = (ordinal - columnWindowFirst) * 9
        if ordinal < columnWindowFirst || local + 9 > columnWindow.count {
            let rows = min(ScratchBytes.pieceSize / 9, indexColumns.count / 9 - ordinal)
            columnWindow = [UInt8](repeating: 0, count: max(0, rows) * 9)
            columnWindow.withUnsafeMutableBytes { indexColumns.read(into: $0, at: ordinal * 9) }
            columnWindowFirst = ordinal
            local = 0
        }
        guard local + 9 <= columnWindow.count else { return (0, 0) }
        return columnWindow.withUnsafeBytes { bytes in
            (bytes[local], Int64(littleEndian: bytes.loadUnaligned(fromByteOffset: local + 1, as: Int64.self)))
        }
    }

    /// Drops the last row (an undone insert).
    @inlinable func removeLast() {
        guard count > 0, let checkpoint = checkpoints.last else { return }
        if lastRunStarts == nil {
            // Undone past the run its rows were counted into: read the run's starts once.
            let bytes = checkpointRun(checkpoints.count - 1)
            var starts: [Int] = []
            var local = 0
            while checkpoint.ordinal + starts.count < count, let frame = Self.frameLength(in: bytes, at: local) {
                starts.append(checkpoint.start + local)
                local += frame
            }
            lastRunStarts = starts
        }
        keys.removed(from: count - 1)
        // A blob belongs to one row (its name holds its owner's id). Read back only when any
        // moved row names one: a failed import of millions undoes them all.
        if !blobNames.isEmpty { blobNames.subtract(Codec.blobs(of: row(count - 1))) }
        count -= 1
        indexColumns.truncate(to: min(indexColumns.count, count * 9))
        length = lastRunStarts?.popLast() ?? checkpoint.start
        if count == checkpoint.ordinal {
            checkpoints.removeLast()
            lastRunStarts = nil
        }
    }
}
