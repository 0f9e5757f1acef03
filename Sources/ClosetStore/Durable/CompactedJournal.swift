import ClosetCore
import ClosetTables

/// Which journal a snapshot was made from, and how far into it: written into the snapshot by a
/// compaction, so a journal of the snapshot's own generation found beside it can be told apart.
/// The crash between a compaction's two renames leaves exactly that journal (the writer held the
/// lock: nothing was committed after it was read); a copy of it put back from before its last
/// commits, or one from another store, is not it, and is refused as damage.
///
/// Kept as a one-row section named `closet#compacted-journal`: a name with `#` is a derived
/// section, which a build that does not know it skips and never carries into its own snapshot
/// (so stores stay readable both ways without a new format number), and recovery never takes
/// for data. The row (key `journal`): generation u64 | header checksum u32 | transactions u64 | end u64.
struct CompactedJournal: Equatable {
    /// The journal's generation (the snapshot's own).
    var generation: UInt64
    /// Its header's checksum (bytes 32-35): which snapshot it followed, in which store.
    var headerChecksum: UInt32
    /// Its commit point when the snapshot was made.
    var transactions: Int
    var end: Int

    static let sectionName = "closet#compacted-journal"
    static let key = Array("journal".utf8)
    static let rowLength = 28

    /// The journal `view` describes; nil when the process has not read or started one of this
    /// generation (its commits are then not what the snapshot is made from).
    init?(_ view: StoreView, generation: UInt64) {
        guard view.generation == generation, !view.journalSkipped, view.journalHasCommitPoints else { return nil }
        let header = StoreFormat.journalHeader(
            .init(generation: generation, follows: view.follows, format: view.journalFormat))
        self.init(
            generation: generation, headerChecksum: Self.headerChecksum(header) ?? 0,
            transactions: view.transactions, end: view.validLength)
    }

    init(generation: UInt64, headerChecksum: UInt32, transactions: Int, end: Int) {
        self.generation = generation
        self.headerChecksum = headerChecksum
        self.transactions = transactions
        self.end = end
    }

    /// A journal header's own checksum, as stored in its bytes 32-35.
    static func headerChecksum(_ bytes: [UInt8]) -> UInt32? {
        guard bytes.count >= StoreFormat.journalHeaderSize else { return nil }
        var reader = ByteReader(bytes, from: 32, to: 36)
        return try? reader.u32()
    }

    /// Writes the section (its one row framed as every section's rows are).
    func writeSection(into writer: inout ByteWriter) {
        SnapshotSection.write(into: &writer) { writer, _ in
            writer.u16(UInt16(Self.key.count))
            writer.bytes += Self.key
            writer.u32(UInt32(Self.rowLength))
            writer.u64(generation)
            writer.u32(headerChecksum)
            writer.u64(UInt64(transactions))
            writer.u64(UInt64(end))
            return 1
        }
    }

    /// Reads the section's rows region (key length, key, row length, row); nil when it is not
    /// one row of this shape.
    init?(rows: [UInt8]) {
        var reader = ByteReader(rows)
        guard let keyLength = try? reader.u16(), let key = try? reader.raw(Int(keyLength)), key == Self.key,
            let length = try? reader.u32(), length == Self.rowLength, let generation = try? reader.u64(),
            let checksum = try? reader.u32(), let transactions = try? reader.u64(), let end = try? reader.u64(),
            reader.isAtEnd, transactions < 1 << 40, end < 1 << 56
        else { return nil }
        self.init(generation: generation, headerChecksum: checksum, transactions: Int(transactions), end: Int(end))
    }

    /// The record in a whole snapshot's bytes, found through its directory (recovery reads a
    /// snapshot so, damaged or not); nil when there is none or it cannot be read.
    init?(snapshot bytes: [UInt8], header: StoreFormat.SnapshotHeader) {
        guard header.format >= 4, let directory = SnapshotDirectory(trailerOf: bytes, header: header),
            let entry = directory.entries.first(where: { $0.name == Self.sectionName }),
            entry.rowsStart >= 0, entry.rowsEnd <= header.bodyEnd, entry.rowsStart <= entry.rowsEnd
        else { return nil }
        self.init(rows: Array(bytes[entry.rowsStart..<entry.rowsEnd]))
    }

    /// Where `journal`'s records after the snapshot begin, when it is the journal the snapshot
    /// was made from and holds more commits than it did then: a compaction made in the
    /// background (`BackgroundCompaction`) while commits went on, stopped after its snapshot's
    /// rename and before its new journal's. Those commits are read from `end` on, numbered
    /// after `transactions`; nil for any other journal.
    func carriedStart(journal bytes: [UInt8]) -> Int? {
        guard Self.headerChecksum(bytes) == headerChecksum,
            let point = StoreFormat.readCommitPoint(bytes, generation: generation),
            point.transactions > transactions, point.end > end
        else { return nil }
        return end
    }

    /// Why `journal` (of this record's generation, beside the snapshot that holds the record)
    /// is not the journal the snapshot was made from; nil when it is (the crash between the
    /// renames, which is skipped). `subject` names the journal in the sentence.
    func mismatch(journal bytes: [UInt8], subject: String = "its journal") -> String? {
        let point = StoreFormat.readCommitPoint(bytes, generation: generation)
        let holds =
            point.map { "\($0.transactions) transaction\($0.transactions == 1 ? "" : "s")" }
            ?? "no readable commit point"
        if Self.headerChecksum(bytes) != headerChecksum {
            return
                "\(subject) (generation \(generation)) is not the one the snapshot was made from (its header differs: a journal from another store or another history)"
        }
        guard let point, point.transactions == transactions, point.end == end else {
            let made = "\(transactions) transaction\(transactions == 1 ? "" : "s") ending at byte \(end)"
            if let point, point.transactions < transactions {
                return
                    "\(subject) (generation \(generation)) holds \(holds), but the snapshot was made from that journal at \(made): a journal put back from an older copy, without what was committed after the snapshot"
            }
            return
                "\(subject) (generation \(generation)) is not the one the snapshot was made from (it holds \(holds)\(point.map { " ending at byte \($0.end)" } ?? ""); the snapshot's held \(made))"
        }
        return nil
    }
}
