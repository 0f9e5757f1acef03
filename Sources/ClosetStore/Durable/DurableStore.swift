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
    /// `--busy-timeout`'s default, in seconds.
    package static let defaultBusyTimeout = 5.0

    public let path: String
    public let tables: Tables
    let files: BlobFiles
    /// Made in `init`, once every other property is (it holds the store).
    public private(set) lazy var blobs: BlobStore = LockingBlobs(files: files, store: self)
    let schemas: [AnyTableSchema]
    let lock: StoreLock
    /// How long a writer waits for another to finish, in seconds.
    package var busyTimeout: Double
    /// Where notices go (a torn tail cut off, a compaction that failed).
    let report: (String) -> Void

    /// What this process has read of the files.
    var view = StoreView()
    /// The marker names an older format, or files of one were read: the first commit rewrites
    /// the store in this format first.
    var markerIsOld = false
    var needsUpgrade: Bool { markerIsOld || view.legacyFiles }
    /// Set when the files can no longer be trusted from this process (a failed append that
    /// could not be undone, damage found while refreshing): every later write is refused.
    var broken: String?
    /// Why the current statement's writes cannot be kept, until the session takes it.
    var problem: WriteProblem?
    /// The journal, open for appending while the write lock is held.
    let journal: JournalWriter
    /// Leftover blobs are removed once per process, under the lock.
    var leftoversRemoved = false
    /// When to write a new snapshot, and when to try again after one failed.
    var compaction = CompactionPolicy()
    /// Compactions are made on a thread of their own while commits go on (`compactInBackground`:
    /// the prompt, `closet serve`'s writer); otherwise by the commit that makes the store due.
    var compactsInBackground = false
    /// The compaction running or finished in the background, not yet named.
    var background: BackgroundCompaction?
    /// Run first on a background compaction's thread (the server lowers its priority there, so
    /// requests do not wait behind it).
    package var backgroundThreadStarts: (@Sendable () -> Void)?

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
        journal = JournalWriter(folder: path)
        var format = try StoreFolder.prepareDirectory(path)
        tables = Tables(InlineBlobTable.withPacks(schemas))
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
        markerIsOld = (format ?? StoreFormat.currentFormat) < StoreFormat.currentFormat
        _ = blobs
        do throws(StoreError) {
            try readFiles()
        } catch {
            throw OpenError(description: error.description)
        }
        tables.onFirstChange { [unowned self] in self.beginWriting() }
        // A big transaction's new rows wait for their commit on the store's own disk.
        tables.scratch.makeFile = { UnnamedFile(in: path) }
        // A torn tail left by a crash is not cut here: only a writer cuts, after saying so
        // (`prepareForWriting`); readers read the whole records before it.
    }
}
