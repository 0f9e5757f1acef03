import ClosetCore
import ClosetTables

/// Store formats 1 and 2, read (and rewritten as format 3 by the first commit), and the
/// operation encoding format 3 kept. Format 2 names each operation's table and carries each
/// part's length, so a build carries rows of a table it does not know instead of failing on
/// them:
///
/// journal:  "CLOSETJ2" | generation u64 | record*
///           record = length u32 | crc32(payload) u32 | payload      (one record = one commit)
///           payload = operation count u32 | operation*
///           operation = name length u8 | table name | kind u8 (1 put, 2 delete)
///                       | key length u16 | key | (put:) row length u32 | row
/// snapshot: "CLOSETS2" | generation u64 | table count u32
///           | (name length u8 | name | row count u64 | (key length u16 | key | row length u32 | row)*)*
///           | crc32(all before) u32
///
/// Format 1 ("CLOSETJ1", "CLOSETS1") had one tag byte per operation and the row straight
/// after it; it is read through the tables' `formatOneTags`.
///
/// A snapshot of generation G holds everything up to and including journal generation G; a
/// journal whose generation is not newer than the snapshot's is already inside it (a crash
/// between writing a snapshot and starting the next journal) and is skipped.
enum JournalFormat {
    static let journalMagic = Array("CLOSETJ2".utf8)
    static let snapshotMagic = Array("CLOSETS2".utf8)
    static let formatOneJournalMagic = Array("CLOSETJ1".utf8)
    static let formatOneSnapshotMagic = Array("CLOSETS1".utf8)
    static let journalHeaderSize = 16
    /// A record longer than this is garbage, not a transaction (a corrupt length field).
    static let maximumRecordSize = 1 << 31

    /// Which layout a file's magic names; nil for a file that is not ours.
    enum Layout {
        case formatOne, formatTwo
        /// "CLOSETJ3" and later: a newer closet wrote it.
        case newer
    }

    static func layout(_ bytes: [UInt8], journal: Bool) -> Layout? {
        guard bytes.count >= 8 else { return nil }
        let magic = Array(bytes[0..<8])
        if magic == (journal ? journalMagic : snapshotMagic) { return .formatTwo }
        if magic == (journal ? formatOneJournalMagic : formatOneSnapshotMagic) { return .formatOne }
        let prefix = Array((journal ? "CLOSETJ" : "CLOSETS").utf8)
        if Array(magic[0..<7]) == prefix, (UInt8(ascii: "3")...UInt8(ascii: "9")).contains(magic[7]) { return .newer }
        return nil
    }

    /// A record's payload (operation count, then each operation as above), which format 3
    /// keeps: only the framing around it changed.
    static func payload(_ operations: [EncodedOperation]) -> ByteWriter {
        var payload = ByteWriter()
        payload.u32(UInt32(operations.count))
        for operation in operations { encode(operation, into: &payload) }
        return payload
    }

    /// The same from framed operations (the tables wrote their rows straight into buffers).
    /// Unless the journal `marksInserts` (format 5), an insert is written as the put it is.
    static func payload(_ frames: PendingFrames, marksInserts: Bool) -> ByteWriter {
        var payload = ByteWriter()
        payload.bytes.reserveCapacity(
            frames.tables.reduce(8) { $0 + $1.framed.bytes.bytes.count + 16 * $1.framed.operations.count })
        payload.u32(UInt32(frames.order.count))
        let names = frames.tables.map { Array($0.name.utf8.prefix(255)) }
        for (table, operation) in frames.order {
            payload.u8(UInt8(names[table].count))
            payload.bytes += names[table]
            let framed = frames.tables[table].framed
            let kindAt = payload.bytes.count
            payload.bytes += framed.bytes.bytes[framed.operations[operation].range]
            if !marksInserts, payload.bytes[kindAt] == RowFrame.insert { payload.bytes[kindAt] = RowFrame.put }
        }
        return payload
    }

    static func encode(_ operation: EncodedOperation, into writer: inout ByteWriter) {
        name(operation.table, into: &writer)
        writer.u8(operation.row == nil ? 2 : 1)
        writer.u16(UInt16(clamping: operation.key.count))
        writer.bytes += operation.key
        if let row = operation.row {
            writer.u32(UInt32(clamping: row.count))
            writer.bytes += row
        }
    }

    private static func name(_ table: String, into writer: inout ByteWriter) {
        let utf8 = Array(table.utf8.prefix(255))
        writer.u8(UInt8(utf8.count))
        writer.bytes += utf8
    }

    /// Reads `count` format-2 operations and applies them (`JournalApplier`, for one record).
    static func applyOperations(
        _ count: Int, from reader: inout ByteReader, to tables: Tables, inserts: JournalApplier.Inserts
    ) throws(ByteReader.Malformed) {
        var applier = JournalApplier(tables, inserts: inserts)
        try applier.apply(count, from: &reader)
    }

    static func decodeOperation(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> EncodedOperation {
        let table = String(decoding: try reader.raw(Int(try reader.u8())), as: UTF8.self)
        let kind = try reader.u8()
        let key = try reader.raw(Int(try reader.u16()))
        switch kind {
        case 1: return EncodedOperation(table: table, key: key, row: try reader.raw(Int(try reader.u32())))
        case 2: return EncodedOperation(table: table, key: key, row: nil)
        default: throw ByteReader.Malformed()
        }
    }

    // MARK: journals

    struct JournalContents {
        var layout: Layout
        var generation: UInt64
        var transactions = 0
        /// Bytes of complete, valid records (header included): where the next append goes.
        var validLength: Int
        /// Why reading stopped before the end of the file, if it did.
        var damage: String?
    }

    /// A record that is complete and passes its checksum but cannot be decoded: it was
    /// committed, so it is never cut off. The store refuses to open instead.
    struct UnreadableRecord: Error {
        /// Where the record starts in the journal file.
        var offset: Int
    }

    /// Reads records until the first torn one, handing each record's operations (their
    /// count, then a reader at the first) to `apply` once its checksum holds. A bad tail (incomplete, or failing its checksum: a commit
    /// that never finished) is not an error: what is complete is kept, and `damage` says what
    /// was not. A complete, checksum-valid record that `apply` cannot decode is a committed
    /// transaction this build cannot read: that throws, and nothing is dropped.
    static func readJournal(
        _ bytes: [UInt8], apply: (Layout, Int, inout ByteReader) throws(ByteReader.Malformed) -> Void
    ) throws(UnreadableRecord) -> JournalContents? {
        guard bytes.count >= journalHeaderSize, let layout = layout(bytes, journal: true) else { return nil }
        var header = ByteReader(bytes, from: 8, to: 16)
        let generation = (try? header.u64()) ?? 0
        var contents = JournalContents(layout: layout, generation: generation, validLength: journalHeaderSize)
        if layout == .newer { return contents }
        var position = journalHeaderSize
        while position < bytes.count {
            var reader = ByteReader(bytes, from: position)
            guard let length = try? reader.u32(), let checksum = try? reader.u32() else {
                contents.damage = "an incomplete record header"
                break
            }
            let start = position + 8
            guard Int(length) <= maximumRecordSize, start + Int(length) <= bytes.count else {
                contents.damage = "an incomplete transaction"
                break
            }
            let end = start + Int(length)
            guard Checksum.crc32(bytes[start..<end]) == checksum else {
                contents.damage = "a transaction whose checksum does not match"
                break
            }
            var payload = ByteReader(bytes, from: start, to: end)
            do {
                try apply(layout, Int(try payload.u32()), &payload)
                guard payload.isAtEnd else { throw ByteReader.Malformed() }
            } catch {
                throw UnreadableRecord(offset: position)
            }
            contents.transactions += 1
            position = end
            contents.validLength = end
        }
        return contents
    }

    /// The first whole record (length, CRC-32, payload passing it) after `position`: a
    /// failed record with intact ones after it is damage, not a torn tail.
    static func validRecord(after position: Int, in bytes: [UInt8]) -> Int? {
        var candidate = position + 1
        while candidate + 8 <= bytes.count {
            var reader = ByteReader(bytes, from: candidate)
            if let length = try? reader.u32(), let checksum = try? reader.u32(), length >= 4,
                Int(length) <= bytes.count - candidate - 8,
                Checksum.crc32(bytes[(candidate + 8)..<(candidate + 8 + Int(length))]) == checksum
            {
                return candidate
            }
            candidate += 1
        }
        return nil
    }

    // MARK: snapshots

    /// Writes a format-2 snapshot (committed rows only when `committed`): no longer written by
    /// the store, kept so tests can make the stores older builds made.
    static func snapshot(_ tables: [StoredTable], generation: UInt64, committed: Bool) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = snapshotMagic
        writer.u64(generation)
        writer.u32(UInt32(tables.count))
        for table in tables {
            name(table.name, into: &writer)
            let countAt = writer.bytes.count
            writer.u64(0)
            let count = UInt64(table.writeSnapshot(committed: committed, into: &writer))
            for shift in 0..<8 {
                writer.bytes[countAt + shift] = UInt8(truncatingIfNeeded: count >> (8 * UInt64(shift)))
            }
        }
        writer.u32(Checksum.crc32(writer.bytes))
        return writer.bytes
    }

    /// Why a snapshot is refused.
    enum SnapshotProblem: Error {
        case damaged
        case newer
    }

    /// Verifies the checksum over the whole file first, so nothing is applied from a bad
    /// one, then hands each row to its table. A snapshot is replaced atomically, so a bad one
    /// is real damage.
    static func readSnapshot(
        _ bytes: [UInt8], tables: Tables, formatOne schemas: [AnyTableSchema]
    ) throws(SnapshotProblem) -> UInt64 {
        guard bytes.count >= 8, let layout = layout(bytes, journal: false) else { throw .damaged }
        if layout == .newer { throw .newer }
        guard bytes.count >= 20 + 4 else { throw .damaged }
        let bodyEnd = bytes.count - 4
        var tail = ByteReader(bytes, from: bodyEnd)
        guard let stored = try? tail.u32(), stored == Checksum.crc32(bytes[0..<bodyEnd]) else { throw .damaged }
        var reader = ByteReader(bytes, from: 8, to: bodyEnd)
        do {
            let generation = try reader.u64()
            switch layout {
            case .formatOne:
                let count = try reader.u64()
                for _ in 0..<count {
                    guard let (table, put) = tables.table(formatOneTag: try reader.u8(), schemas: schemas) else {
                        throw ByteReader.Malformed()
                    }
                    try table.applyFormatOne(put: put, from: &reader)
                }
            case .formatTwo:
                for _ in 0..<(try reader.u32()) {
                    let name = String(decoding: try reader.raw(Int(try reader.u8())), as: UTF8.self)
                    let table = tables.table(named: name)
                    let count = try reader.u64()
                    guard count <= UInt64(bytes.count) else { throw ByteReader.Malformed() }
                    try table.loadSnapshotRows(count: Int(count), from: &reader)
                }
            case .newer:
                throw SnapshotProblem.newer
            }
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
            return generation
        } catch let problem as SnapshotProblem {
            throw problem
        } catch {
            throw .damaged
        }
    }
}
