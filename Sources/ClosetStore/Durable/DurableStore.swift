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
    /// The file that marks a directory as a closet store; without it a non-empty directory
    /// is refused and left alone.
    package static let markerName = "closet-store"
    /// The files a write makes before renaming them into place (`POSIXFile.replace`,
    /// `StreamedFile`): found with the lock free, they are a write a crash cut short.
    static let temporaryNames: Set<String> = [markerName + ".tmp", "snapshot.tmp", "journal.tmp"]
    /// The newest store format this build reads and writes; the marker names a store's format.
    package static let formatVersion = StoreFormat.currentFormat
    static let markerPrefix = "closet store, format "
    static var markerContents: [UInt8] { Array("\(markerPrefix)\(formatVersion)\n".utf8) }
    /// Compact once replaying the journal costs more than reading the snapshot and this floor:
    /// journal rows are decoded at every open, snapshot rows only when shown.
    static let compactionFloor = 256 << 10
    /// What replaying one record costs beyond its bytes, in bytes' worth: many small commits
    /// make a slow journal before a big one.
    static let costPerRecord = 256
    /// Compact once the journal holds more changes than this share of the snapshot's rows
    /// (and at least `compactionFloorChanges`): each is looked up in the snapshot when the
    /// store opens (a search that checks a block or two at random, ~4 µs), while a compaction
    /// that copies unchanged rows as bytes costs ~0.25 µs a row. So a store written by many
    /// small commits opens about as fast as a compacted one, and the copy costs each commit
    /// about as much as a thousandth of the snapshot's rows.
    static let journalShare = 1024
    static let compactionFloorChanges = 256
    /// A first commit at least this big is written as the snapshot itself, not journaled
    /// and then compacted (written twice).
    static let snapshotCommitSize = 64 << 10
    /// What a change is taken to weigh for that rule (a wardrobe row is about 60 bytes), so
    /// the commit need not be framed to be measured.
    static let bytesPerChange = 64
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
    /// After a compaction failed (a full disk), the journal length at which to try again.
    var nextCompactionAttempt = 0
    /// After a compaction failed: the journal changes it waits for before trying again.
    var nextCompactionChanges = 0

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
        /// The mapped snapshot's blocks, checked as they are read (nil: no format-3/4 snapshot).
        var blocks: SnapshotBlocks?
        /// Rows in the snapshot, and changes in the journal after it: every journal change is
        /// placed at open (a lookup in the snapshot), so compaction also runs when the journal's
        /// changes pass a share of the snapshot's rows (`journalShare`).
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
        var format = try Self.prepareDirectory(path)
        tables = Tables(Self.tableSchemas(schemas))
        if format == nil {
            do {
                try lock.acquire(timeout: busyTimeout)
            } catch {
                throw OpenError(description: Self.lockMessage(error, path: path, timeout: busyTimeout))
            }
            defer { lock.release() }
            format = try Self.create(path, tables: tables)
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

    static func lockMessage(_ failure: StoreLock.Failure, path: String, timeout: Double) -> String {
        switch failure {
        case .held(let pid):
            let seconds = timeout == timeout.rounded() ? String(Int(timeout)) : String(timeout)
            return
                "store '\(path)' is in use by process \(pid) (gave up waiting for its write lock after \(seconds) s; see --busy-timeout)"
        case .system(let message): return message
        }
    }

    /// Checks an existing store's marker and returns its format, or makes sure the folder is
    /// one to set up (new, or empty but for what a cut creation leaves) and returns nil: the
    /// store is then made under the lock.
    static func prepareDirectory(_ path: String) throws(OpenError) -> Int? {
        let marker = path + "/" + markerName
        // The common case first, with one `stat`: a store with its marker.
        var status = stat()
        if stat(marker, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG {
            return try checkMarker(marker, store: path)
        }
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if !manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            let parent = FilePath.parent(of: path)
            if !parent.isEmpty, !manager.fileExists(atPath: parent) {
                do {
                    try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw OpenError(
                        description: "cannot create the store's folder '\(parent)': \(error.localizedDescription)")
                }
            }
            // Created private from the start (never 0777 then changed); another process making
            // it at the same moment is fine: the lock decides who sets it up.
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                throw OpenError(description: "cannot create the store '\(path)': \(String(cString: strerror(errno)))")
            }
            isDirectory = true
        }
        guard isDirectory.boolValue || manager.fileExists(atPath: path, isDirectory: &isDirectory),
            isDirectory.boolValue
        else { throw OpenError(description: "'\(path)' is a file, not a closet store") }
        let contents = POSIXFile.entries(path) ?? []
        // The marker may have appeared since this folder was made: another process set the
        // store up at the same moment.
        if contents.contains(markerName) { return try checkMarker(marker, store: path) }
        guard isCutCreation(path, contents: contents) else {
            let files = contents.contains("journal") || contents.contains("snapshot")
            throw OpenError(
                description: files
                    ? "'\(path)' is not a closet store: it holds a journal or a snapshot but no '\(markerName)' file; nothing in it was changed; 'closet recover \(path)' copies what it holds into a new store"
                    : "'\(path)' is not a closet store (it holds other files); nothing in it was changed")
        }
        chmod(path, 0o700)  // an adopted empty folder becomes private too
        return nil
    }

    /// What a creation cut short leaves, and nothing else: temporary files, the lock, an empty
    /// `images`, the first snapshot (generation 1, written only by a creation, so empty) and a
    /// journal with no records. A store whose marker was deleted is never taken for one.
    static func isCutCreation(_ path: String, contents: [String]) -> Bool {
        for name in contents {
            switch name {
            case "lock": continue
            case _ where temporaryNames.contains(name): continue
            case "images":
                guard (POSIXFile.entries(path + "/images") ?? ["?"]).isEmpty
                else { return false }
            case "snapshot":
                guard let bytes = try? POSIXFile.readAll(path + "/snapshot"),
                    let header = bytes.withUnsafeBytes({ try? StoreFormat.snapshotHeader(memory: $0) }),
                    header.format >= 4, header.generation == 1
                else { return false }
            case "journal":
                guard let size = POSIXFile.size(path + "/journal"), size <= StoreFormat.recordsStart else {
                    return false
                }
            default: return false
            }
        }
        return true
    }

    /// Makes a new store (under the lock, so two first opens cannot race): an empty snapshot,
    /// a journal following it, and the marker last, so a store with a marker always has both.
    static func create(_ path: String, tables: Tables) throws(OpenError) -> Int {
        let marker = path + "/" + markerName
        if FileManager.default.fileExists(atPath: marker) { return try checkMarker(marker, store: path) }
        do {
            let (snapshot, header) = StoreFormat.snapshot(tables.all, generation: 1, committed: true)
            try POSIXFile.replace(path + "/snapshot", with: snapshot, directory: path)
            let journal = StoreFormat.journalHeader(StoreFormat.JournalHeader(generation: 2, follows: header.link))
            try POSIXFile.replace(path + "/journal", with: journal, directory: path)
            try POSIXFile.replace(marker, with: markerContents, directory: path)
        } catch {
            throw OpenError(description: error.description)
        }
        return formatVersion
    }

    /// A store made by a newer closet is refused by name rather than called damaged, and
    /// nothing in it is touched.
    static func checkMarker(_ marker: String, store path: String) throws(OpenError) -> Int {
        let bytes: [UInt8]?
        do {
            bytes = try POSIXFile.readAll(marker)
        } catch {
            throw OpenError(description: error.description)
        }
        let text = String(decoding: bytes ?? [], as: UTF8.self)
        guard text.hasPrefix(markerPrefix), text.hasSuffix("\n"),
            let format = Int(text.dropFirst(markerPrefix.count).dropLast()), format >= 1
        else {
            throw OpenError(
                description: "store '\(path)' is damaged: its marker file '\(markerName)' is not a closet marker")
        }
        guard format <= formatVersion else { throw newer(path, format: "store format \(format)") }
        return format
    }

    static func newer(_ path: String, format: String) -> OpenError {
        OpenError(
            description:
                "store '\(path)' was made by a newer closet (\(format); this closet reads format \(formatVersion) and older); nothing in it was changed"
        )
    }
}
