import ClosetCore
import ClosetTables

/// Store format 5 (formats 3 and 4 are read): every header field checksummed, the journal naming the
/// snapshot it follows, the journal recording how far its commits reach, and the snapshot
/// checksummed block by block. So a missing, older, swapped or shortened file is found instead
/// of silently opening with data gone, and recovery keeps every intact block. Checksums are
/// CRC-32C (`StoreChecksum`). Integers are little-endian.
///
/// snapshot: header (32 bytes) | body | trailer
///           header = "CLOSETS5" | generation u64 | body length u64 | crc32c(trailer) u32
///                    | crc32c(header's first 28 bytes) u32   ← the snapshot's checksum
///           body   = table count u32 | (name length u8 | name | section)*
///                    (a section is row count u64 | rows length u64 | the rows framed as
///                    `RowFrame` says | index length u64 | an index of them: `SnapshotSection`;
///                    read in place from the mapped file)
///           trailer = block checksums | directory | directory length u32
///           block checksums = crc32c of each `blockSize` bytes of the body (the last one
///                    shorter) u32 × ⌈body length / blockSize⌉
///           directory = table count u32 | (name length u8 | name | section start u64
///                    | row count u64 | rows length u64 | index length u64)*
///                    (where each section lies, again: recovery finds the rows of every
///                    table even when the block holding a section's start is damaged)
/// journal:  header (36 bytes) | commit point A (24) | commit point B (24) | record*
///           header = "CLOSETJ6" | generation u64 | snapshot generation u64
///                    | snapshot checksum u32 | 0 u32 | crc32c(first 32 bytes) u32
///           commit point = transactions u64 | end u64
///                    | crc32c(those 16 bytes, then the generation u64) u32 | 0 u32
///           record = length u32 | sequence u32 | crc32c(payload) u32
///                    | crc32c(record's first 12 bytes) u32 | payload
///           payload = operation count u32 | operation* (as format 2: `JournalFormat`, with
///                    one kind more: 3, a put of a key that had no row before the commit)
///
/// A journal of generation G follows the snapshot it names (generation and checksum; 0 and 0
/// when there is none). A snapshot of generation G holds everything up to journal G: a
/// journal of its generation is already inside it (a compaction between its two renames) and
/// is skipped, if it is exactly the journal the snapshot records it was made from
/// (`CompactedJournal`, a derived section); an older one was put back, and is damage. Records are numbered from 1, so one out of place is found too.
///
/// The commit points say how many transactions were committed and where they end. After a
/// record is synced, the writer records that in the point the new count selects (count mod 2),
/// so a point never names a record that is not durable, and a point torn by a crash leaves the
/// other one, a commit behind. A journal whose whole records end before its point is cut
/// short: damage, never an older store. Records after the point are whole commits whose point
/// was not written yet, or the torn tail of one that never finished.
///
/// A journal that follows a delta (`DeltaFile`) says so by its magic, "CLOSETJ7". An insert
/// (operation kind 3) is a put the writer knew to be of a new key: opening places it without
/// looking for the key in the snapshot or the delta (their key filters, their blocks). Journal
/// format 4 ("CLOSETJ4", "CLOSETJ5" after a delta) is the same without inserts: such a journal
/// is read, and appended to without them until the next compaction starts a new one; older
/// builds refuse a format-5 journal as a newer closet's rather than misread its inserts.
///
/// Format 4 ("CLOSETS4") had an index without key prefixes and with bucket lists of ordinals
/// alone (`SnapshotSection.Layout`). Format 3 had the same journal header and records under
/// "CLOSETJ3" without commit points, and one checksum over the snapshot's body instead of one
/// per block.
enum StoreFormat {
    /// The format written now: the marker's and the snapshot's. Format 5 changed only the
    /// snapshot sections' index (`SnapshotSection`).
    static let currentFormat = 5
    /// The journal format a new journal is written in (format 4's, with inserts).
    static let journalFormat = 5
    /// A generation past this is damage, not history: no arithmetic on it can overflow.
    static let maximumGeneration: UInt64 = 1 << 62
    static let journalMagic = Array("CLOSETJ6".utf8)
    /// A journal that follows a delta (`DeltaFile`).
    static let deltaJournalMagic = Array("CLOSETJ7".utf8)
    static let formatFourJournalMagic = Array("CLOSETJ4".utf8)
    /// A format-4 journal that follows a delta: an older build, which would read the snapshot
    /// without the delta, refuses it as a newer closet's.
    static let formatFourDeltaJournalMagic = Array("CLOSETJ5".utf8)
    static let snapshotMagic = Array("CLOSETS5".utf8)
    static let formatFourSnapshotMagic = Array("CLOSETS4".utf8)
    static let formatThreeJournalMagic = Array("CLOSETJ3".utf8)
    static let formatThreeSnapshotMagic = Array("CLOSETS3".utf8)
    static let journalHeaderSize = 36
    static let commitPointSize = 24
    /// Where a format-4 journal's records start: after the header and both commit points.
    static let recordsStart = journalHeaderSize + 2 * commitPointSize
    static let recordHeaderSize = 16
    static let snapshotHeaderSize = 32
    /// The snapshot's body is checksummed in blocks of this many bytes: a damaged block costs
    /// recovery the rows in it, not the whole snapshot.
    static let blockSize = 32 << 10

    /// What a journal says of the snapshot under it (or of the level below the snapshot,
    /// `DeltaFile`, when there is one: the journal follows that).
    struct SnapshotLink: Equatable, CustomStringConvertible {
        var generation: UInt64
        var checksum: UInt32
        /// Whether it names the level below the snapshot (a journal saying so has its own
        /// magic, `deltaJournalMagic`, which older builds refuse as newer).
        var ofDelta = false
        static let none = SnapshotLink(generation: 0, checksum: 0)

        var description: String {
            self == .none
                ? "no snapshot"
                : "\(ofDelta ? "delta" : "snapshot") generation \(generation) (checksum \(hex(checksum)))"
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
        /// 5; 4 for a journal an earlier build wrote (no inserts), 3 for one without commit
        /// points either.
        var format = StoreFormat.journalFormat
        /// Where its records start.
        var recordsStart: Int { format == 3 ? journalHeaderSize : StoreFormat.recordsStart }
        var hasCommitPoints: Bool { format >= 4 }
        /// Whether its records may hold inserts (operation kind 3).
        var marksInserts: Bool { format >= 5 }
    }

    /// A journal's magic for its format and what it follows.
    static func journalMagic(format: Int, ofDelta: Bool) -> [UInt8] {
        switch format {
        case 3: formatThreeJournalMagic
        case 4: ofDelta ? formatFourDeltaJournalMagic : formatFourJournalMagic
        default: ofDelta ? deltaJournalMagic : journalMagic
        }
    }

    /// Every journal magic this build reads: the format it names, and whether the journal
    /// follows a delta (format 3 had no deltas).
    static let journalLayouts: [(magic: [UInt8], format: Int, ofDelta: Bool)] = [
        (formatThreeJournalMagic, 3, false), (formatFourJournalMagic, 4, false), (formatFourDeltaJournalMagic, 4, true),
        (journalMagic, 5, false), (deltaJournalMagic, 5, true),
    ]

    /// The format a journal's magic names, and whether the journal follows a delta; nil for
    /// a magic that is no format-3, 4 or 5 journal's.
    static func journalLayout(magic: some Collection<UInt8>) -> (format: Int, ofDelta: Bool)? {
        let bytes = Array(magic)
        return journalLayouts.first { $0.magic == bytes }.map { ($0.format, $0.ofDelta) }
    }

    /// A new journal's first bytes: its header and, from format 4 on, both commit points at
    /// "nothing committed yet".
    static func journalHeader(_ header: JournalHeader) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = journalMagic(format: header.format, ofDelta: header.follows.ofDelta)
        writer.u64(header.generation)
        writer.u64(header.follows.generation)
        writer.u32(header.follows.checksum)
        writer.u32(0)
        writer.u32(StoreChecksum.crc32c(writer.bytes))
        guard header.format != 3 else { return writer.bytes }
        let empty = commitPoint(CommitPoint(transactions: 0, end: recordsStart), generation: header.generation)
        return writer.bytes + empty + empty
    }

    /// The header, or nil when it fails its checksum (or the file is too short to hold one).
    static func readJournalHeader(_ bytes: [UInt8]) -> JournalHeader? {
        guard bytes.count >= journalHeaderSize else { return nil }
        guard let (format, ofDelta) = journalLayout(magic: bytes[0..<8]) else { return nil }
        var reader = ByteReader(bytes, from: 8, to: journalHeaderSize)
        guard let generation = try? reader.u64(), let linked = try? reader.u64(), let checksum = try? reader.u32(),
            let reserved = try? reader.u32(), let stored = try? reader.u32(),
            stored == StoreChecksum.crc32c(bytes[0..<32]), reserved == 0
        else { return nil }
        return JournalHeader(
            generation: generation, follows: SnapshotLink(generation: linked, checksum: checksum, ofDelta: ofDelta),
            format: format)
    }

    /// How far a journal's commits reach.
    struct CommitPoint: Equatable {
        var transactions: Int
        var end: Int
    }

    /// A commit point's 24 bytes; its checksum takes in the journal's generation, so a point
    /// copied from another journal does not pass.
    static func commitPoint(_ point: CommitPoint, generation: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.u64(UInt64(point.transactions))
        writer.u64(UInt64(point.end))
        var generationBytes = ByteWriter()
        generationBytes.u64(generation)
        writer.u32(StoreChecksum.crc32c(generationBytes.bytes, continuing: StoreChecksum.crc32c(writer.bytes)))
        writer.u32(0)
        return writer.bytes
    }

    /// Where the point for a journal's `transactions`-th commit goes.
    static func commitPointOffset(transactions: Int) -> Int {
        journalHeaderSize + (transactions % 2) * commitPointSize
    }

    /// The newer of the two points that pass their checksums; nil when neither does (or the
    /// file is too short to hold them).
    static func readCommitPoint(_ bytes: [UInt8], generation: UInt64) -> CommitPoint? {
        guard bytes.count >= recordsStart else { return nil }
        var best: CommitPoint?
        for slot in 0..<2 {
            let start = journalHeaderSize + slot * commitPointSize
            var reader = ByteReader(bytes, from: start, to: start + commitPointSize)
            guard let transactions = try? reader.u64(), let end = try? reader.u64(), transactions < 1 << 40,
                end < 1 << 56, end >= UInt64(recordsStart)
            else { continue }
            let point = CommitPoint(transactions: Int(transactions), end: Int(end))
            // The whole point written again must be the bytes found: checksum and reserved word.
            guard commitPoint(point, generation: generation) == Array(bytes[start..<(start + commitPointSize)])
            else { continue }
            if best.map({ point.transactions > $0.transactions }) ?? true { best = point }
        }
        return best
    }

    /// The commit point slots (0, 1) whose bytes are not a point written for this journal:
    /// damage, or a point whose write a crash cut.
    static func failingCommitPoints(_ bytes: [UInt8], generation: UInt64) -> [Int] {
        guard bytes.count >= recordsStart else { return [0, 1] }
        return (0..<2).filter { slot in
            let start = journalHeaderSize + slot * commitPointSize
            var reader = ByteReader(bytes, from: start, to: start + commitPointSize)
            guard let transactions = try? reader.u64(), let end = try? reader.u64(), transactions < 1 << 40,
                end < 1 << 56, end >= UInt64(recordsStart)
            else { return true }
            let point = CommitPoint(transactions: Int(transactions), end: Int(end))
            return commitPoint(point, generation: generation) != Array(bytes[start..<(start + commitPointSize)])
        }
    }

    /// One commit's record, numbered `sequence` in its journal.
    static func record(_ frames: PendingFrames, sequence: UInt32, marksInserts: Bool) -> [UInt8] {
        seal(JournalFormat.payload(frames, marksInserts: marksInserts).bytes, sequence: sequence)
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

    /// Whole records (`bytes[range]`, each passing its checksums) numbered again from 1, for a
    /// new journal that carries them; nil if one does not pass (nothing is carried then).
    static func renumbered(_ bytes: [UInt8], _ range: Range<Int>) -> (records: [UInt8], count: Int)? {
        var records: [UInt8] = []
        records.reserveCapacity(range.count)
        var position = range.lowerBound
        var count = 0
        while position < range.upperBound {
            guard let header = readRecordHeader(bytes, at: position),
                header.length <= range.upperBound - position - recordHeaderSize
            else { return nil }
            let payload = (position + recordHeaderSize)..<(position + recordHeaderSize + header.length)
            guard StoreChecksum.crc32c(bytes[payload]) == header.payloadChecksum else { return nil }
            count += 1
            var sealed = ByteWriter()
            sealed.u32(UInt32(header.length))
            sealed.u32(UInt32(truncatingIfNeeded: count))
            sealed.u32(header.payloadChecksum)
            sealed.u32(StoreChecksum.crc32c(sealed.bytes))
            records += sealed.bytes
            records += bytes[payload]
            position = payload.upperBound
        }
        return (records, count)
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

    /// How many record headers that pass their own checksum begin at or after `position`:
    /// what a torn or cut tail held, for the notice that drops it.
    static func recordHeaders(in bytes: [UInt8], from position: Int) -> Int {
        var count = 0
        var candidate = max(position, 0)
        while candidate + recordHeaderSize <= bytes.count {
            if readRecordHeader(bytes, at: candidate) != nil { count += 1 }
            candidate += 1
        }
        return count
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
        /// Format 4: CRC-32C of the block checksums; format 3: of the body.
        var bodyChecksum: UInt32
        /// The header's own checksum: what a journal names the snapshot by.
        var checksum: UInt32
        var format = currentFormat
        var link: SnapshotLink { SnapshotLink(generation: generation, checksum: checksum) }
        var bodyEnd: Int { snapshotHeaderSize + bodyLength }
        var blockCount: Int { format == 3 ? 1 : (bodyLength + blockSize - 1) / blockSize }
        /// The bytes of body block `index`.
        func block(_ index: Int) -> Range<Int> {
            guard format != 3 else { return snapshotHeaderSize..<bodyEnd }
            let start = snapshotHeaderSize + index * blockSize
            return start..<min(bodyEnd, start + blockSize)
        }
    }

    /// Writes every table's section (committed rows only when `committed`), in memory: a new
    /// store's first snapshot, tools and tests (a compaction streams to its file instead).
    static func snapshot(_ tables: [StoredTable], generation: UInt64, committed: Bool)
        -> (bytes: [UInt8], header: SnapshotHeader)
    {
        var writer = ByteWriter()
        let header = writeSnapshot(tables, generation: generation, committed: committed, into: &writer) {
            (writer, range) throws(Never) in
            writer.bytes.withUnsafeBytes { bytes in
                stride(from: range.lowerBound, to: range.upperBound, by: blockSize).map {
                    StoreChecksum.crc32c(
                        UnsafeRawBufferPointer(rebasing: bytes[$0..<min(range.upperBound, $0 + blockSize)]))
                }
            }
        }
        return (writer.bytes, header)
    }

    /// Writes a snapshot into `writer`, which may stream it to a file as it goes (a sink):
    /// the sections a piece at a time, then the block checksums (`blockChecksums` of the body's
    /// bytes once written, the sections' lengths patched in after their rows: a file sums the
    /// blocks as they are written and reads back only those a patch touched),
    /// the directory, and last the header over the first bytes.
    static func writeSnapshot<Failure: Error>(
        _ tables: [StoredTable], generation: UInt64, committed: Bool, compacted: CompactedJournal? = nil,
        into writer: inout ByteWriter, blockChecksums: (inout ByteWriter, Range<Int>) throws(Failure) -> [UInt32]
    ) throws(Failure) -> SnapshotHeader {
        // Each table's section, then the sections derived from it (`<table>#<grouping>`), then
        // which journal the snapshot was made from.
        var sections: [(name: String, write: (inout ByteWriter) -> Void)] = tables.flatMap { table in
            [(table.name, { table.writeSnapshotSection(committed: committed, into: &$0) })]
                + table.derivedSectionNames.enumerated().map { number, name in
                    (name, { table.writeDerivedSection(number, generation: generation, into: &$0) })
                }
        }
        if let compacted { sections.append((CompactedJournal.sectionName, { compacted.writeSection(into: &$0) })) }
        return try writeFile(sections, generation: generation, into: &writer, blockChecksums: blockChecksums)
    }

    /// Writes a file laid out as a snapshot (a snapshot, or the level below one: `DeltaFile`)
    /// holding `sections`, as `writeSnapshot` says.
    static func writeFile<Failure: Error>(
        _ sections: [(name: String, write: (inout ByteWriter) -> Void)], generation: UInt64,
        into writer: inout ByteWriter, blockChecksums: (inout ByteWriter, Range<Int>) throws(Failure) -> [UInt32]
    ) throws(Failure) -> SnapshotHeader {
        let start = writer.position
        for _ in 0..<snapshotHeaderSize { writer.u8(0) }
        writer.u32(UInt32(sections.count))
        var directory = SnapshotDirectory(entries: [])
        for section in sections {
            let name = Array(section.name.utf8.prefix(255))
            writer.u8(UInt8(name.count))
            writer.bytes += name
            writer.drainIfFull()
            let sectionStart = writer.position
            section.write(&writer)
            // The section begins with its row count and rows length; its index length follows the rows.
            let count = Int(writer.u64(at: sectionStart))
            let rowsLength = Int(writer.u64(at: sectionStart + 8))
            directory.entries.append(
                SnapshotDirectory.Entry(
                    name: section.name, sectionStart: sectionStart - start, count: count, rowsLength: rowsLength,
                    indexLength: writer.position - sectionStart - 24 - rowsLength))
            writer.drainIfFull()
        }
        let bodyEnd = writer.position
        let bodyLength = bodyEnd - start - snapshotHeaderSize
        let checksums = try blockChecksums(&writer, (start + snapshotHeaderSize)..<bodyEnd)
        var blocks = ByteWriter()
        blocks.bytes.reserveCapacity(4 * checksums.count)
        for checksum in checksums { blocks.u32(checksum) }
        let directoryBytes = directory.encoded
        blocks.bytes += directoryBytes
        blocks.u32(UInt32(directoryBytes.count))
        var header = ByteWriter()
        header.bytes = snapshotMagic
        header.u64(generation)
        header.u64(UInt64(bodyLength))
        let bodyChecksum = StoreChecksum.crc32c(blocks.bytes)
        header.u32(bodyChecksum)
        let checksum = StoreChecksum.crc32c(header.bytes)
        header.u32(checksum)
        writer.overwrite(at: start, with: header.bytes)
        writer.bytes += blocks.bytes
        writer.drain()
        return SnapshotHeader(
            generation: generation, bodyLength: bodyLength, bodyChecksum: bodyChecksum, checksum: checksum)
    }

    enum SnapshotProblem: Error, Equatable {
        case header
        case length
        /// Format 4: the block checksums themselves are damaged.
        case blockChecksums
        /// These body blocks fail their checksums (format 3: block 0 is the whole body).
        case blocks([Int])
    }

    /// Checks a snapshot's header and every block (tools, recovery, tests).
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

    /// The header, its lengths checked against the file's; nil for a file that is not a
    /// format 3 or 4 snapshot. `checkingLength` false: only the header's own checksum
    /// (recovery, when the trailer is damaged).
    static func snapshotHeader(
        memory: UnsafeRawBufferPointer, checkingLength: Bool = true
    ) throws(SnapshotProblem) -> SnapshotHeader? {
        guard memory.count >= 8 else { return nil }
        let magic = Array(memory[0..<8])
        let format =
            magic == snapshotMagic
            ? 5 : magic == formatFourSnapshotMagic ? 4 : magic == formatThreeSnapshotMagic ? 3 : 0
        guard format != 0 else { return nil }
        guard memory.count >= snapshotHeaderSize else { throw .header }
        func load<T: FixedWidthInteger>(_ type: T.Type, _ at: Int) -> T {
            T(littleEndian: memory.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        let generation = load(UInt64.self, 8)
        let length = load(UInt64.self, 16)
        let body = load(UInt32.self, 24)
        let stored = load(UInt32.self, 28)
        guard stored == StoreChecksum.crc32c(UnsafeRawBufferPointer(rebasing: memory[0..<28])) else { throw .header }
        guard length <= UInt64(memory.count - snapshotHeaderSize) else { throw .length }
        let header = SnapshotHeader(
            generation: generation, bodyLength: Int(length), bodyChecksum: body, checksum: stored, format: format)
        guard checkingLength else { return header }
        if format == 3 {
            guard memory.count == header.bodyEnd else { throw .length }
            return header
        }
        let fixed = header.bodyEnd + 4 * header.blockCount + 4
        guard memory.count >= fixed else { throw .length }
        let directoryLength = Int(
            UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: memory.count - 4, as: UInt32.self)))
        guard memory.count == fixed + directoryLength else { throw .length }
        return header
    }

    /// Checks the header, then every block; `checksums` computes the CRC-32C of each
    /// `size`-byte block of a range (read through a small buffer for a mapped file).
    static func verifySnapshot(
        memory: UnsafeRawBufferPointer,
        checksums: ((_ range: Range<Int>, _ size: Int) -> [UInt32]?)? = nil
    ) throws(SnapshotProblem) -> SnapshotHeader {
        guard let header = try snapshotHeader(memory: memory) else { throw .header }
        let damaged = try damagedBlocks(memory: memory, header: header, checksums: checksums)
        guard damaged.isEmpty else { throw .blocks(damaged) }
        return header
    }

    /// The body blocks that fail their checksums.
    /// `trustingTrailer` false (recovery): the block checksums are compared one by one even if
    /// the trailer fails its own checksum, since a block that matches its entry is intact (a
    /// damaged or missing entry only makes its block count as damaged).
    static func damagedBlocks(
        memory: UnsafeRawBufferPointer, header: SnapshotHeader,
        checksums: ((_ range: Range<Int>, _ size: Int) -> [UInt32]?)? = nil, trustingTrailer: Bool = true
    ) throws(SnapshotProblem) -> [Int] {
        let compute =
            checksums ?? { range, size in
                stride(from: range.lowerBound, to: range.upperBound, by: size).map {
                    StoreChecksum.crc32c(
                        UnsafeRawBufferPointer(rebasing: memory[$0..<min(range.upperBound, $0 + size)]))
                }
            }
        let body = snapshotHeaderSize..<header.bodyEnd
        guard header.format != 3 else {
            return compute(body, max(1, body.count))?.first == header.bodyChecksum ? [] : [0]
        }
        let table = UnsafeRawBufferPointer(rebasing: memory[min(header.bodyEnd, memory.count)...])
        guard !trustingTrailer || StoreChecksum.crc32c(table) == header.bodyChecksum else { throw .blockChecksums }
        guard let computed = compute(body, blockSize), computed.count == header.blockCount else {
            return Array(0..<header.blockCount)
        }
        return computed.indices.filter {
            4 * $0 + 4 > table.count
                || computed[$0] != UInt32(littleEndian: table.loadUnaligned(fromByteOffset: 4 * $0, as: UInt32.self))
        }
    }

    /// The stored checksum of each body block where they lie in `memory` (little-endian u32s),
    /// once the trailer holding them passes its own checksum; format 4 and later (a format-3
    /// body has one checksum, in the header). What opening checks instead of the whole file
    /// (`SnapshotBlocks` checks each block when it is first read).
    static func blockChecksumBytes(
        memory: UnsafeRawBufferPointer, header: SnapshotHeader
    ) throws(SnapshotProblem) -> UnsafeRawBufferPointer {
        let table = UnsafeRawBufferPointer(rebasing: memory[min(header.bodyEnd, memory.count)...])
        guard StoreChecksum.crc32c(table) == header.bodyChecksum, table.count >= 4 * header.blockCount else {
            throw .blockChecksums
        }
        return UnsafeRawBufferPointer(rebasing: table[..<(4 * header.blockCount)])
    }

    /// log2 of the block size `SnapshotBlocks` checks by (format 3: one block, the body).
    static func blockShift(_ header: SnapshotHeader) -> Int { header.format == 3 ? 62 : blockSize.trailingZeroBitCount }

    /// Hands each table its section. With `owner` (the mapping that keeps `memory` valid),
    /// tables that can read their rows in place do, checking each block by `blocks` the first
    /// time they read it; the others, and every table without an owner, decode their rows now
    /// (without `blocks`, the whole snapshot was verified first).
    @discardableResult
    static func loadSnapshot(
        memory: UnsafeRawBufferPointer, header: SnapshotHeader, owner: AnyObject?, blocks: SnapshotBlocks? = nil,
        into tables: Tables, sections: ((String, SnapshotRows, _ inPlace: Bool) -> Void)? = nil
    ) throws(ByteReader.Malformed) -> CompactedJournal? {
        var compacted: CompactedJournal?
        try forEachSection(memory: memory, header: header, owner: owner, blocks: blocks) {
            name, section throws(ByteReader.Malformed) in
            // A section derived from a table's rows goes to that table, which uses it only
            // if it was written with this snapshot; one no table claims is left behind
            // (never carried raw: it is rebuilt from the rows at every compaction).
            if name == CompactedJournal.sectionName {
                compacted = CompactedJournal(rows: section.copyRows())
                return
            }
            if let hash = name.firstIndex(of: "#") {
                if owner != nil, let base = tables.madeTable(String(name[..<hash])) {
                    _ = base.attachDerived(name, section, generation: header.generation)
                }
                return
            }
            // An empty section (a new store's first snapshot) makes no table: tables are made
            // when first used, so a statement pays only for the tables it touches.
            guard section.count > 0 else { return }
            let table = tables.table(named: name)
            if owner != nil, table.attach(section) {
                sections?(name, section, true)
                return
            }
            sections?(name, section, false)
            let rows = section.copyRows()
            var reader = ByteReader(rows)
            try table.loadSnapshotRows(count: section.count, from: &reader)
            guard reader.isAtEnd else { throw ByteReader.Malformed() }
        }
        return compacted
    }

    /// Each section of a file laid out as a snapshot, by name, read in place (lengths checked
    /// now, rows as they are read).
    static func forEachSection(
        memory: UnsafeRawBufferPointer, header: SnapshotHeader, owner: AnyObject?, blocks: SnapshotBlocks?,
        _ visit: (String, SnapshotRows) throws(ByteReader.Malformed) -> Void
    ) throws(ByteReader.Malformed) {
        var position = snapshotHeaderSize
        let bodyEnd = header.bodyEnd
        guard bodyEnd >= position + 4, blocks?.holds(position, 4) ?? true else { throw ByteReader.Malformed() }
        let count = UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: position, as: UInt32.self))
        position += 4
        let body = UnsafeRawBufferPointer(rebasing: memory[0..<bodyEnd])
        let fetch = (owner as? MappedFile).map { file in { (range: Range<Int>) in file.read(range) } }
        for _ in 0..<count {
            guard position < bodyEnd, blocks?.holds(position, 1) ?? true else { throw ByteReader.Malformed() }
            let nameLength = Int(memory[position])
            guard bodyEnd - position - 1 >= nameLength, blocks?.holds(position + 1, nameLength) ?? true else {
                throw ByteReader.Malformed()
            }
            let name = String(
                decoding: UnsafeRawBufferPointer(rebasing: memory[(position + 1)..<(position + 1 + nameLength)]),
                as: UTF8.self)
            position += 1 + nameLength
            guard
                let section = SnapshotRows(
                    memory: body, owner: owner ?? Tables(), start: position, fetch: fetch, blocks: blocks,
                    layout: header.format >= 5 ? .formatFive : .formatFour)
            else {
                throw ByteReader.Malformed()
            }
            try visit(name, section)
            position = section.end
        }
        guard position == bodyEnd else { throw ByteReader.Malformed() }
    }

    /// Verifies and loads a whole snapshot held in memory (recovery, tests).
    static func loadSnapshot(_ bytes: [UInt8], into tables: Tables) throws(ByteReader.Malformed) {
        let result: Result<Void, ByteReader.Malformed> = bytes.withUnsafeBytes { memory in
            do throws(ByteReader.Malformed) {
                guard let header = try? verifySnapshot(memory: memory) else { throw ByteReader.Malformed() }
                try loadSnapshot(memory: memory, header: header, owner: nil, into: tables)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
    }
}

/// Where each table's section lies in a snapshot, kept again in its trailer so that recovery
/// can find every table's rows even when the block holding a section's start is damaged.
struct SnapshotDirectory: Equatable {
    struct Entry: Equatable {
        var name: String
        /// Where the section (its row count) starts in the file.
        var sectionStart: Int
        var count: Int
        var rowsLength: Int
        var indexLength: Int
        var rowsStart: Int { sectionStart + 16 }
        var rowsEnd: Int { rowsStart + rowsLength }
        /// Where the index's row offsets start (after the index's length).
        var offsetsStart: Int { rowsEnd + 8 }
    }

    var entries: [Entry]

    init(entries: [Entry]) { self.entries = entries }

    var encoded: [UInt8] {
        var writer = ByteWriter()
        writer.u32(UInt32(entries.count))
        for entry in entries {
            let name = Array(entry.name.utf8.prefix(255))
            writer.u8(UInt8(name.count))
            writer.bytes += name
            for value in [entry.sectionStart, entry.count, entry.rowsLength, entry.indexLength] {
                writer.u64(UInt64(value))
            }
        }
        return writer.bytes
    }

    /// The directory in a format-4 snapshot's trailer; nil if it cannot be read whole.
    init?(trailerOf bytes: [UInt8], header: StoreFormat.SnapshotHeader) {
        let start = header.bodyEnd + 4 * header.blockCount
        guard bytes.count >= start + 4 else { return nil }
        var reader = ByteReader(bytes, from: start, to: bytes.count - 4)
        guard let tables = try? reader.u32(), tables <= 4096 else { return nil }
        var entries: [Entry] = []
        for _ in 0..<tables {
            guard let nameLength = try? reader.u8(), let name = try? reader.raw(Int(nameLength)),
                let start = try? reader.u64(), let count = try? reader.u64(), let rows = try? reader.u64(),
                let index = try? reader.u64(), start < UInt64(bytes.count), count < UInt64(bytes.count),
                rows < UInt64(bytes.count), index < UInt64(bytes.count)
            else { return nil }
            entries.append(
                Entry(
                    name: String(decoding: name, as: UTF8.self), sectionStart: Int(start), count: Int(count),
                    rowsLength: Int(rows), indexLength: Int(index)))
        }
        guard reader.isAtEnd else { return nil }
        self.entries = entries
    }
}
