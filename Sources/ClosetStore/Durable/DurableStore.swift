import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk store: a folder with a snapshot, an append-only journal, the write lock and
/// the blobs. Rows live in typed tables, read in place from the mapped snapshot until a
/// statement needs them all (`SnapshotRows`, `LazyRows`); a commit appends one checksummed record
/// holding the net change and syncs it before returning, so a reported success survives a
/// crash. Files are in format 5 (`StoreFormat`); formats 1 to 4 are read and rewritten as 5
/// by the first commit. A store is made with an empty snapshot and a journal following it, so
/// from its first open on a missing, emptied or shortened file is damage, never an empty store.
///
/// Many processes share a store. Opening and reading take no lock: a reader reads the
/// snapshot and the journal's whole records, checking that the journal follows that very
/// snapshot (a compaction in between is read again). A writer takes the folder's lock at its
/// transaction's first change (waiting up to `busyTimeout`), and lets go after its commit or
/// rollback; `refresh()` brings in other processes' commits before each statement. Only a
/// writer cuts a torn last record; damage anywhere else refuses the store (exit 3) and names
/// `closet recover`.
package final class DurableStore: Store {
    /// The newest store format this build reads and writes; the marker names a store's format.
    package static let formatVersion = StoreFormat.currentFormat
    /// `--busy-timeout`'s default, in seconds.
    package static let defaultBusyTimeout = 5.0
    /// A generation past this is damage, not history: no arithmetic on it can overflow.
    static let maximumGeneration: UInt64 = 1 << 62

    public let path: String
    public let tables: Tables
    public var blobs: BlobStore { lockedBlobs }
    let files: BlobFiles
    /// Made in `init`, once every other property is (it holds the store).
    lazy var lockedBlobs = LockingBlobs(files: files, store: self)
    let schemas: [AnyTableSchema]
    let lock: StoreLock
    /// How long a writer waits for another to finish, in seconds.
    package var busyTimeout: Double
    /// Where notices go (a torn tail cut off, a compaction that failed).
    let report: (String) -> Void

    /// What this process has read of the files.
    var view = View()
    /// The marker names format 1 or 2, or files of those formats were read: the first commit
    /// rewrites the store as format 3 first.
    var markerIsOld = false
    var legacyFiles = false
    var needsUpgrade: Bool { markerIsOld || legacyFiles }
    /// Set when the files can no longer be trusted from this process (a failed append that
    /// could not be undone, damage found while refreshing): every later write is refused.
    var broken: String?
    /// Why the current statement's writes cannot be kept, until the session takes it.
    var problem: WriteProblem?
    /// The journal, open for appending while the write lock is held.
    var journal: Int32 = -1
    /// Leftover blobs are removed once per process, under the lock.
    var leftoversRemoved = false
    /// When to write a new snapshot, and when to try again after one failed.
    var compaction = CompactionPolicy()

    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
    }

    struct View {
        var journal: FileIdentity?
        var snapshot: FileIdentity?
        /// 1 to 4; 4 for a store with no journal yet.
        var journalFormat = StoreFormat.journalFormat
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
        /// The mapped snapshot's blocks, checked as they are read (nil: no format-3/4 snapshot).
        var blocks: SnapshotBlocks?
        /// Rows in the snapshot, and changes in the journal after it: every journal change is
        /// placed at open (a lookup in the snapshot), so compaction also runs when the journal's
        /// changes pass a share of the snapshot's rows (`CompactionPolicy.journalShare`).
        var snapshotRows = 0
        var journalChanges = 0
    }

    /// Why a store could not be opened: exit status 3.
    package struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens (creating on first use) the store at `path` with the installed packs' tables.
    /// Takes no lock unless it creates the store. `report` receives notices, such as a torn
    /// transaction cut from the journal's end.
    public init(
        path: String, tables schemas: [AnyTableSchema], busyTimeout: Double = defaultBusyTimeout,
        report: @escaping (String) -> Void
    ) throws(OpenError) {
        self.path = path
        self.report = report
        self.schemas = schemas
        self.busyTimeout = busyTimeout
        let lock = StoreLock(folder: path)
        self.lock = lock
        var format = try StoreFolder.prepareDirectory(path)
        tables = Tables(Self.tableSchemas(schemas))
        if format == nil {
            do {
                try lock.acquire(timeout: busyTimeout)
            } catch {
                throw OpenError(description: StoreFolder.lockMessage(error, path: path, timeout: busyTimeout))
            }
            defer { lock.release() }
            format = try StoreFolder.create(path, tables: tables)
        }
        do {
            files = try BlobFiles(directory: path + "/images")
        } catch {
            throw OpenError(description: error.description)
        }
        markerIsOld = (format ?? Self.formatVersion) < Self.formatVersion
        _ = lockedBlobs
        do throws(StoreError) {
            try readFiles()
        } catch {
            throw OpenError(description: error.description)
        }
        tables.onFirstChange { [unowned self] in self.beginWriting() }
        // A torn tail left by a crash is not cut here: only a writer cuts, after saying so
        // (`prepareForWriting`); readers read the whole records before it.
    }

    deinit {
        if journal >= 0 { close(journal) }
    }
}
