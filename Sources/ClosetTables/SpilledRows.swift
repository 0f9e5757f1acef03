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

    @usableFromInline let file: ScratchFile
    @usableFromInline let tableName: String
    /// Where each row's frame starts in the file; it ends where the next starts (the last at
    /// `length`).
    @usableFromInline var starts: [Int] = []
    /// Each row's place among them, by key.
    @usableFromInline var keys: SpilledKeys
    /// The bytes of the file in use (an undone row's bytes stay behind it, to be written over).
    @usableFromInline var length = 0
    /// What a snapshot's index keeps of each row (`SnapshotSection.Columns`: its bucket and order
    /// key, when the table has an index) and the blobs they name, taken as the rows move out:
    /// a commit then copies their frames without decoding them again.
    @usableFromInline var buckets: [UInt8] = []
    @usableFromInline var orders: [Int64] = []
    @usableFromInline var blobNames = Set<String>()

    /// `file` for the rows, `keysFile` for their keys.
    @inlinable init(file: ScratchFile, keysFile: ScratchFile, tableName: String, expecting count: Int) {
        self.file = file
        self.tableName = tableName
        starts.reserveCapacity(count)
        keys = SpilledKeys(file: keysFile, expecting: count)
    }

    /// A key's hash for `keys`.
    @inlinable static func hash(_ key: Key) -> UInt64 { UInt64(bitPattern: Int64(key.hashValue)) }

    /// The place of the row with this key, or nil (`keys` rules most keys out unread; one it
    /// lets through is checked against the row's own).
    @inlinable func place(of key: Key) -> Int? {
        keys.place(of: Self.hash(key)) { place in place < starts.count && Codec.key(of: row(place)) == key }
    }

    @inlinable var count: Int { starts.count }

    /// Appends the rows of `slots` (every one new: keys neither spilled nor repeated) after the
    /// others; false, and nothing kept, when the file cannot take them (a full disk).
    @inlinable func append(_ slots: [(key: Key, row: Row)?], index: TableIndex<Codec>?) -> Bool {
        let first = starts.count
        var writer = ByteWriter()
        writer.reserve(Self.span + (Self.span >> 2))
        var flushed = length
        func flush() -> Bool {
            defer { writer.bytes.removeAll(keepingCapacity: true) }
            let wrote = writer.bytes.withUnsafeBytes { file.write($0, at: flushed) }
            flushed += writer.bytes.count
            return wrote
        }
        for case let entry? in slots {
            starts.append(flushed + writer.bytes.count)
            RowFrame.part16(&writer) { Codec.encode(key: entry.key, into: &$0) }
            RowFrame.part32(&writer) { Codec.encode(entry.row, into: &$0) }
            if writer.bytes.count >= Self.span, !flush() {
                starts.removeSubrange(first...)
                return false
            }
        }
        guard flush() else {
            starts.removeSubrange(first...)
            return false
        }
        var hashes: [(key: UInt64, value: Int)] = []
        hashes.reserveCapacity(starts.count - first)
        for case let entry? in slots { hashes.append((Self.hash(entry.key), first + hashes.count)) }
        guard keys.add(hashes) else {
            starts.removeSubrange(first...)
            return false
        }
        length = flushed
        for case let entry? in slots {
            if let index {
                buckets.append(UInt8(truncatingIfNeeded: index.bucket(entry.row)))
                orders.append(index.order(entry.row))
            }
            blobNames.formUnion(Codec.blobs(of: entry.row))
        }
        return true
    }

    /// Where row `ordinal`'s frame ends.
    @inlinable func end(of ordinal: Int) -> Int { ordinal + 1 < starts.count ? starts[ordinal + 1] : length }

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

    /// Every frame in order, read a span at a time: `body` gets each row's place, the span's
    /// bytes and where the frame lies in them.
    @inlinable func forEachFrame(_ body: (_ ordinal: Int, _ bytes: [UInt8], _ frame: Range<Int>) throws -> Void)
        rethrows
    {
        var ordinal = 0
        while ordinal < starts.count {
            let start = starts[ordinal]
            var last = ordinal + 1
            while last < starts.count, end(of: last) - start <= Self.span { last += 1 }
            let bytes = read(start..<end(of: last - 1))
            for number in ordinal..<last {
                try body(number, bytes, (starts[number] - start)..<(end(of: number) - start))
            }
            ordinal = last
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

    /// Row `ordinal`, read back and decoded.
    @inlinable func row(_ ordinal: Int) -> Row {
        let bytes = read(starts[ordinal]..<end(of: ordinal))
        return decode(bytes, bytes.indices)
    }

    /// Drops the last row (an undone insert).
    @inlinable func removeLast() {
        guard let start = starts.last else { return }
        keys.removed(from: starts.count - 1)
        // A blob belongs to one row (its name holds its owner's id). Read back only when any
        // moved row names one: a failed import of millions undoes them all.
        if !blobNames.isEmpty { blobNames.subtract(Codec.blobs(of: row(starts.count - 1))) }
        if !buckets.isEmpty {
            buckets.removeLast()
            orders.removeLast()
        }
        starts.removeLast()
        length = start
    }
}
