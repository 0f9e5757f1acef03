import ClosetCore

/// Store format 3: every header field checksummed, and the journal naming the snapshot it
/// follows, so a missing, older or swapped file is found instead of silently opening with
/// data gone. Checksums are CRC-32C (`StoreChecksum`). Integers are little-endian.
///
/// snapshot: header (32 bytes) | body
///           header = "CLOSETS3" | generation u64 | body length u64 | crc32c(body) u32
///                    | crc32c(header's first 28 bytes) u32   ← the snapshot's checksum
///           body   = table count u32 | (name length u8 | name | section)*
///                    (a section is the rows framed as `RowFrame` says, and an index of
///                    them: `SnapshotSection`; read in place from the mapped file)
/// journal:  header (36 bytes) | record*
///           header = "CLOSETJ3" | generation u64 | snapshot generation u64
///                    | snapshot checksum u32 | 0 u32 | crc32c(first 32 bytes) u32
///           record = length u32 | sequence u32 | crc32c(payload) u32
///                    | crc32c(record's first 12 bytes) u32 | payload
///           payload = operation count u32 | operation* (as format 2: `JournalFormat`)
///
/// A journal of generation G follows the snapshot it names (generation and checksum; 0 and 0
/// when there is none). A snapshot of generation G holds everything up to journal G: a
/// journal not newer than the snapshot is already inside it (a compaction between its two
/// renames) and is skipped. Records are numbered from 1, so one out of place is found too.
enum FormatThree {
    static let journalMagic = Array("CLOSETJ3".utf8)
    static let snapshotMagic = Array("CLOSETS3".utf8)
    static let journalHeaderSize = 36
    static let recordHeaderSize = 16
    static let snapshotHeaderSize = 32

    /// What a journal says of the snapshot under it.
    struct SnapshotLink: Equatable, CustomStringConvertible {
        var generation: UInt64
        var checksum: UInt32
        static let none = SnapshotLink(generation: 0, checksum: 0)

        var description: String {
            self == .none ? "no snapshot" : "snapshot generation \(generation) (checksum \(hex(checksum)))"
        }
    }

    static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    // MARK: journal

    struct JournalHeader: Equatable {
        var generation: UInt64
        var follows: SnapshotLink
    }

    static func journalHeader(_ header: JournalHeader) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = journalMagic
        writer.u64(header.generation)
        writer.u64(header.follows.generation)
        writer.u32(header.follows.checksum)
        writer.u32(0)
        writer.u32(StoreChecksum.crc32c(writer.bytes))
        return writer.bytes
    }

    /// The header, or nil when it fails its checksum (or the file is too short to hold one).
    static func readJournalHeader(_ bytes: [UInt8]) -> JournalHeader? {
        guard bytes.count >= journalHeaderSize, Array(bytes[0..<8]) == journalMagic else { return nil }
        var reader = ByteReader(bytes, from: 8, to: journalHeaderSize)
        guard let generation = try? reader.u64(), let linked = try? reader.u64(), let checksum = try? reader.u32(),
            let reserved = try? reader.u32(), let stored = try? reader.u32(),
            stored == StoreChecksum.crc32c(bytes[0..<32]), reserved == 0
        else { return nil }
        return JournalHeader(generation: generation, follows: SnapshotLink(generation: linked, checksum: checksum))
    }

    /// One commit's record, numbered `sequence` in its journal.
    static func record(_ frames: PendingFrames, sequence: UInt32) -> [UInt8] {
        seal(JournalFormat.payload(frames).bytes, sequence: sequence)
    }

    /// A record of operations (tools, recovery, tests): the same bytes as from their frames.
    static func record(_ operations: [EncodedOperation], sequence: UInt32) -> [UInt8] {
        seal(JournalFormat.payload(operations).bytes, sequence: sequence)
    }

    /// A payload with its record header in front.
    static func seal(_ payload: [UInt8], sequence: UInt32) -> [UInt8] {
        var header = ByteWriter()
        header.bytes.reserveCapacity(recordHeaderSize + payload.count)
        header.u32(UInt32(clamping: payload.count))
        header.u32(sequence)
        header.u32(StoreChecksum.crc32c(payload))
        header.u32(StoreChecksum.crc32c(header.bytes))
        header.bytes += payload
        return header.bytes
    }

    /// A record header that passes its own checksum.
    struct RecordHeader {
        var length: Int
        var sequence: UInt32
        var payloadChecksum: UInt32
    }

    static func readRecordHeader(_ bytes: [UInt8], at position: Int) -> RecordHeader? {
        guard position >= 0, bytes.count - position >= recordHeaderSize else { return nil }
        var reader = ByteReader(bytes, from: position, to: position + recordHeaderSize)
        guard let length = try? reader.u32(), let sequence = try? reader.u32(), let payload = try? reader.u32(),
            let stored = try? reader.u32(), stored == StoreChecksum.crc32c(bytes[position..<(position + 12)])
        else { return nil }
        return RecordHeader(length: Int(length), sequence: sequence, payloadChecksum: payload)
    }

    /// How reading a journal's records ended.
    enum RecordsEnd: Equatable {
        /// Every byte was a whole, valid record.
        case clean
        /// The last record is incomplete or fails its checksum and nothing valid follows it: a
        /// commit that never finished (or one being written right now by another process).
        case tornTail(at: Int, reason: String)
        /// A record that is not the last one is damaged: committed transactions would be lost.
        case damaged(at: Int, reason: String)
    }

    struct Records {
        /// Where the valid records end: the next append goes here.
        var validLength: Int
        var transactions: Int
        var nextSequence: UInt32
        var end: RecordsEnd
    }

    /// A record that passes its checksums but cannot be decoded: it was committed, so it is
    /// never cut off; the store refuses to open instead.
    struct UnreadableRecord: Error {
        var offset: Int
    }

    /// Reads records from `start` (numbered from `sequence`), handing each valid record's
    /// operation count and a reader at its first operation to `apply`.
    static func readRecords(
        _ bytes: [UInt8], from start: Int, sequence: UInt32,
        apply: (Int, inout ByteReader) throws(ByteReader.Malformed) -> Void
    ) throws(UnreadableRecord) -> Records {
        var records = Records(validLength: start, transactions: 0, nextSequence: sequence, end: .clean)
        var position = start
        while position < bytes.count {
            let failure: String
            if let header = readRecordHeader(bytes, at: position) {
                let (end, overflow) = (position + recordHeaderSize).addingReportingOverflow(header.length)
                if overflow || end > bytes.count {
                    failure = "an incomplete transaction"
                } else if header.sequence != records.nextSequence {
                    return damaged(
                        records, at: position,
                        "a record numbered \(header.sequence) where \(records.nextSequence) belongs")
                } else if StoreChecksum.crc32c(bytes[(position + recordHeaderSize)..<end]) != header.payloadChecksum {
                    failure = "a transaction whose checksum does not match"
                } else {
                    var reader = ByteReader(bytes, from: position + recordHeaderSize, to: end)
                    do {
                        try apply(Int(try reader.u32()), &reader)
                        guard reader.isAtEnd else { throw ByteReader.Malformed() }
                    } catch {
                        throw UnreadableRecord(offset: position)
                    }
                    records.transactions += 1
                    records.nextSequence &+= 1
                    position = end
                    records.validLength = end
                    continue
                }
            } else {
                failure =
                    bytes.count - position < recordHeaderSize
                    ? "an incomplete record header" : "a record header whose checksum does not match"
            }
            // The last record may be torn; one with intact records after it is damage.
            if let later = validRecord(after: position, in: bytes, sequence: records.nextSequence) {
                return damaged(
                    records, at: position, "\(failure), with an intact transaction at byte \(later) after it")
            }
            records.end = .tornTail(at: position, reason: failure)
            return records
        }
        return records
    }

    private static func damaged(_ records: Records, at position: Int, _ reason: String) -> Records {
        var records = records
        records.end = .damaged(at: position, reason: reason)
        return records
    }

    /// The first whole, valid record starting after `position`, numbered at least `sequence`
    /// when one is given (a record header is 16 bytes ending in its own checksum: chance finds
    /// one in about four billion positions, and its payload must then pass its checksum too).
    static func validRecord(after position: Int, in bytes: [UInt8], sequence: UInt32?) -> Int? {
        var candidate = position + 1
        while candidate + recordHeaderSize <= bytes.count {
            if let header = readRecordHeader(bytes, at: candidate),
                sequence.map({ header.sequence &- $0 < 1 << 24 }) ?? true
            {
                let end = candidate + recordHeaderSize + header.length
                if end <= bytes.count,
                    StoreChecksum.crc32c(bytes[(candidate + recordHeaderSize)..<end]) == header.payloadChecksum
                {
                    return candidate
                }
            }
            candidate += 1
        }
        return nil
    }

    // MARK: snapshot

    struct SnapshotHeader: Equatable {
        var generation: UInt64
        var bodyLength: Int
        var bodyChecksum: UInt32
        /// The header's own checksum: what a journal names the snapshot by.
        var checksum: UInt32
        var link: SnapshotLink { SnapshotLink(generation: generation, checksum: checksum) }
    }

    /// Writes every table's section (committed rows only when `committed`).
    static func snapshot(_ tables: [StoredTable], generation: UInt64, committed: Bool) -> (
        bytes: [UInt8], header: SnapshotHeader
    ) {
        var writer = ByteWriter()
        for _ in 0..<snapshotHeaderSize { writer.u8(0) }
        writer.u32(UInt32(tables.count))
        for table in tables {
            let name = Array(table.name.utf8.prefix(255))
            writer.u8(UInt8(name.count))
            writer.bytes += name
            table.writeSnapshotSection(committed: committed, into: &writer)
        }
        let bodyLength = writer.bytes.count - snapshotHeaderSize
        var header = ByteWriter()
        header.bytes = snapshotMagic
        header.u64(generation)
        header.u64(UInt64(bodyLength))
        let bodyChecksum = StoreChecksum.crc32c(writer.bytes[snapshotHeaderSize...])
        header.u32(bodyChecksum)
        let checksum = StoreChecksum.crc32c(header.bytes)
        header.u32(checksum)
        writer.bytes.replaceSubrange(0..<snapshotHeaderSize, with: header.bytes)
        return (
            writer.bytes,
            SnapshotHeader(
                generation: generation, bodyLength: bodyLength, bodyChecksum: bodyChecksum, checksum: checksum)
        )
    }

    enum SnapshotProblem: Error, Equatable {
        case header
        case body
        case length
    }

    /// Checks a format-3 snapshot's header and body checksums.
    static func verifySnapshot(_ bytes: [UInt8]) throws(SnapshotProblem) -> SnapshotHeader {
        let result: Result<SnapshotHeader, SnapshotProblem> = bytes.withUnsafeBytes { memory in
            do throws(SnapshotProblem) {
                return .success(try verifySnapshot(memory: memory))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Checks the header alone; `bodyChecksum` computes the body's CRC-32C when the header
    /// holds (the whole mapping by default).
    static func verifySnapshot(
        memory: UnsafeRawBufferPointer,
        bodyChecksum: (() -> UInt32?)? = nil
    ) throws(SnapshotProblem) -> SnapshotHeader {
        guard memory.count >= snapshotHeaderSize, Array(memory[0..<8]) == snapshotMagic else { throw .header }
        func load<T: FixedWidthInteger>(_ type: T.Type, _ at: Int) -> T {
            T(littleEndian: memory.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        let generation = load(UInt64.self, 8)
        let length = load(UInt64.self, 16)
        let body = load(UInt32.self, 24)
        let stored = load(UInt32.self, 28)
        guard stored == StoreChecksum.crc32c(UnsafeRawBufferPointer(rebasing: memory[0..<28])) else { throw .header }
        guard length == UInt64(memory.count - snapshotHeaderSize) else { throw .length }
        let computed =
            bodyChecksum.map { $0() }
            ?? StoreChecksum.crc32c(UnsafeRawBufferPointer(rebasing: memory[snapshotHeaderSize...]))
        guard computed == body else { throw .body }
        return SnapshotHeader(generation: generation, bodyLength: Int(length), bodyChecksum: body, checksum: stored)
    }

    /// Hands each table its section (the snapshot was verified first, so nothing is applied
    /// from a damaged one). With `owner` (the mapping that keeps `memory` valid), tables that
    /// can read their rows in place do; the others, and every table without an owner, decode
    /// their rows now.
    static func loadSnapshot(memory: UnsafeRawBufferPointer, owner: AnyObject?, into tables: Tables) throws(ByteReader
        .Malformed)
    {
        var position = snapshotHeaderSize
        guard memory.count >= position + 4 else { throw ByteReader.Malformed() }
        let count = UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        position += 4
        for _ in 0..<count {
            guard position < memory.count else { throw ByteReader.Malformed() }
            let nameLength = Int(memory[position])
            guard memory.count - position - 1 >= nameLength else { throw ByteReader.Malformed() }
            let name = String(
                decoding: UnsafeRawBufferPointer(rebasing: memory[(position + 1)..<(position + 1 + nameLength)]),
                as: UTF8.self)
            position += 1 + nameLength
            let fetch = (owner as? MappedFile).map { file in { (range: Range<Int>) in file.read(range) } }
            guard let section = SnapshotRows(memory: memory, owner: owner ?? Tables(), start: position, fetch: fetch)
            else {
                throw ByteReader.Malformed()
            }
            let table = tables.table(named: name)
            if owner == nil || !table.attach(section) {
                let rows = section.copyRows()
                var reader = ByteReader(rows)
                try table.loadSnapshotRows(count: section.count, from: &reader)
                guard reader.isAtEnd else { throw ByteReader.Malformed() }
            }
            position = section.end
        }
        guard position == memory.count else { throw ByteReader.Malformed() }
    }

    static func loadSnapshot(_ bytes: [UInt8], into tables: Tables) throws(ByteReader.Malformed) {
        let result: Result<Void, ByteReader.Malformed> = bytes.withUnsafeBytes { memory in
            do throws(ByteReader.Malformed) {
                return .success(try loadSnapshot(memory: memory, owner: nil, into: tables))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}
