import ClosetCore
import WardrobePack

/// The two files a durable store keeps its rows in.
///
/// journal:  "CLOSETJ1" | generation u64 | record*
///           record = length u32 | crc32(payload) u32 | payload
///           payload = operation count u32 | operation*      (one record = one commit)
/// snapshot: "CLOSETS1" | generation u64 | operation count u64 | operation* | crc32(all before) u32
///
/// A snapshot of generation G holds everything up to and including journal generation G; a
/// journal whose generation is not newer than the snapshot's is already inside it (a crash
/// between writing a snapshot and starting the next journal) and is skipped.
enum JournalFormat {
    static let journalMagic = Array("CLOSETJ1".utf8)
    static let snapshotMagic = Array("CLOSETS1".utf8)
    static let journalHeaderSize = 16
    /// A record longer than this is garbage, not a transaction (a corrupt length field).
    static let maximumRecordSize = 1 << 31

    static func journalHeader(generation: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = journalMagic
        writer.u64(generation)
        return writer.bytes
    }

    static func record(_ operations: [StoreOperation]) -> [UInt8] {
        var payload = ByteWriter()
        payload.u32(UInt32(operations.count))
        for operation in operations { operation.encode(into: &payload) }
        var record = ByteWriter()
        record.u32(UInt32(payload.bytes.count))
        record.u32(Checksum.crc32(payload.bytes))
        record.bytes += payload.bytes
        return record.bytes
    }

    struct JournalContents {
        var generation: UInt64
        var transactions: [[StoreOperation]]
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

    /// Reads records until the first torn one. A bad tail (incomplete, or failing its
    /// checksum: a commit that never finished) is not an error: what is complete is kept, and
    /// `damage` says what was not. A complete, checksum-valid record that does not decode is
    /// a committed transaction this build cannot read: that throws, and nothing is dropped.
    static func readJournal(_ bytes: [UInt8]) throws(UnreadableRecord) -> JournalContents? {
        guard bytes.count >= journalHeaderSize, Array(bytes[0..<8]) == journalMagic else { return nil }
        var header = ByteReader(bytes, from: 8, to: 16)
        let generation = (try? header.u64()) ?? 0
        var contents = JournalContents(generation: generation, transactions: [], validLength: journalHeaderSize)
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
            guard let operations = try? decodeOperations(&payload) else {
                throw UnreadableRecord(offset: position)
            }
            contents.transactions.append(operations)
            position = end
            contents.validLength = end
        }
        return contents
    }

    static func decodeOperations(_ reader: inout ByteReader) throws(ByteReader.Malformed) -> [StoreOperation] {
        let count = Int(try reader.u32())
        var operations: [StoreOperation] = []
        operations.reserveCapacity(min(count, 1 << 20))
        for _ in 0..<count { operations.append(try StoreOperation.decode(from: &reader)) }
        guard reader.isAtEnd else { throw ByteReader.Malformed() }
        return operations
    }

    static func snapshot(_ operations: [StoreOperation], generation: UInt64) -> [UInt8] {
        var writer = ByteWriter()
        writer.bytes = snapshotMagic
        writer.u64(generation)
        writer.u64(UInt64(operations.count))
        for operation in operations { operation.encode(into: &writer) }
        writer.u32(Checksum.crc32(writer.bytes))
        return writer.bytes
    }

    /// A snapshot is replaced atomically, so a bad one is real damage: nil means unusable.
    /// Operations are handed to `apply` as they are decoded (no array of 100,000 of them);
    /// the checksum is verified over the whole file first, so nothing is applied from a bad one.
    static func readSnapshot(
        _ bytes: [UInt8], expecting: (Int) -> Void = { _ in }, apply: (StoreOperation) -> Void
    ) -> UInt64? {
        guard bytes.count >= 24 + 4, Array(bytes[0..<8]) == snapshotMagic else { return nil }
        let bodyEnd = bytes.count - 4
        var tail = ByteReader(bytes, from: bodyEnd)
        guard let stored = try? tail.u32(), stored == Checksum.crc32(bytes[0..<bodyEnd]) else { return nil }
        var reader = ByteReader(bytes, from: 8, to: bodyEnd)
        guard let generation = try? reader.u64(), let count = try? reader.u64() else { return nil }
        expecting(Int(min(count, 1 << 24)))
        for _ in 0..<count {
            guard let operation = try? StoreOperation.decode(from: &reader) else { return nil }
            apply(operation)
        }
        return reader.isAtEnd ? generation : nil
    }

    /// The whole snapshot as an array (tests and tools).
    static func readSnapshot(_ bytes: [UInt8]) -> (generation: UInt64, operations: [StoreOperation])? {
        var operations: [StoreOperation] = []
        guard let generation = readSnapshot(bytes, apply: { operations.append($0) }) else { return nil }
        return (generation, operations)
    }
}
