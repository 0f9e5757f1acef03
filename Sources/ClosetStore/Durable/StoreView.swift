import ClosetCore
import ClosetTables

#if canImport(Glibc)
    import Glibc
#endif

/// What a process has read of a store's files: which files, how far the journal's whole
/// records reach, the generations and links between them.
struct StoreView {
    var journal: FileIdentity?
    var snapshot: FileIdentity?
    /// The level below the snapshot (`DeltaFile`) as read, when there is one.
    var delta: FileIdentity?
    /// The delta file found, read or not (one already inside the snapshot is not): another
    /// process that replaces or removes it changed the store.
    var deltaFile: FileIdentity?
    var deltaLength = 0
    /// Its blocks, checked as they are read.
    var deltaBlocks: SnapshotBlocks?
    /// With a delta read, the snapshot's own link (`snapshotLink` is then the delta's: the
    /// journal follows it).
    var baseLink: StoreFormat.SnapshotLink?
    /// The generation of a delta left beside a newer snapshot (already merged into it), unread.
    var staleDelta: UInt64?
    /// While the files are read: each table's snapshot section, and whether the table reads it
    /// in place (a delta's rows go under it).
    var baseSections: [String: (rows: SnapshotRows, inPlace: Bool)] = [:]
    /// 1 to 5; 5 for a store with no journal yet.
    var journalFormat = StoreFormat.journalFormat
    /// Whether the journal records how far its commits reach (format 4 and later).
    var journalHasCommitPoints: Bool { journalFormat >= 4 }
    /// Whether the journal's records may hold inserts (format 5): a commit's are written so.
    var journalMarksInserts: Bool { journalFormat >= 5 }
    var generation: UInt64 = 0
    var follows = StoreFormat.SnapshotLink.none
    var validLength = 0
    var transactions = 0
    var nextSequence: UInt32 = 1
    var tornTail: (at: Int, reason: String)?
    var snapshotLength = 0
    /// The snapshot's generation and checksum (checksum 0 for formats 1 and 2).
    var snapshotLink: StoreFormat.SnapshotLink?
    /// The journal is already inside the snapshot (or missing): a writer starts a new one.
    var journalSkipped = true
    /// The generation of a journal found inside the snapshot (a compaction cut between its
    /// renames), which `closet check` names; nil when the journal was read.
    var skippedJournalGeneration: UInt64?
    /// How many of the journal's first transactions are inside the snapshot (a background
    /// compaction stopped between its renames: `CompactedJournal.carriedStart`); 0 otherwise.
    var transactionsInsideSnapshot = 0
    /// Which journal the snapshot was made from (nil for a snapshot that does not say).
    var compactedJournal: CompactedJournal?
    /// The mapped snapshot's blocks, checked as they are read (nil: no format-3/4 snapshot).
    var blocks: SnapshotBlocks?
    /// Rows in the snapshot, and changes in the journal after it: every journal change is
    /// placed at open (a lookup in the snapshot), so compaction also runs when the journal's
    /// changes pass a share of the snapshot's rows (`CompactionPolicy.journalShare`).
    var snapshotRows = 0
    var journalChanges = 0
    /// Files of format 1 to 4 were read: the first commit rewrites the store first.
    var legacyFiles = false
}

extension StoreView {
    /// A commit point that fails its checksum: the other one, a commit older, is what opening
    /// used, so without this `closet check` would say `ok` over it (and a second such damage
    /// would lose a commit). One whose write a crash cut (the slot of the next commit, whose
    /// record is whole) is said as unfinished; any other is a problem. The next writer rewrites it.
    func commitPointProblems(journal path: String, _ result: inout StoreCheck) -> [String] {
        guard journalHasCommitPoints, skippedJournalGeneration == nil,
            let bytes = try? POSIXFile.readAll(path), bytes.count >= StoreFormat.recordsStart,
            let used = StoreFormat.readCommitPoint(bytes, generation: generation)
        else { return [] }
        var problems: [String] = []
        for slot in StoreFormat.failingCommitPoints(bytes, generation: generation) {
            let start = StoreFormat.journalHeaderSize + slot * StoreFormat.commitPointSize
            let bytesText = "bytes \(start)-\(start + StoreFormat.commitPointSize - 1)"
            if slot == (used.transactions + 1) % 2, transactions > used.transactions {
                result.checked.append(
                    (
                        "unfinished",
                        "the commit point of transaction \(used.transactions + 1) (\(bytesText)) was cut while it was written; its record is whole and is read, and the next writer rewrites the point"
                    ))
            } else {
                problems.append(
                    "commit point \(slot == 0 ? "A" : "B") of its journal (\(bytesText)) fails its checksum; the other (\(used.transactions) transactions) is used, and the next writer rewrites it"
                )
            }
        }
        return problems
    }
}

/// Which file a path names and its state: a file replaced (a compaction's rename), grown or
/// touched since it was read has another.
struct FileIdentity: Equatable {
    var device: UInt64
    var inode: UInt64
    var size: Int
    var modified: Int

    /// The file at `path` now; nil if there is none.
    static func of(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec))
    }
}
