import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk store: a directory with a snapshot, an append-only journal, a lock and the
/// blobs. Rows live in typed tables in memory; a commit appends one checksummed record
/// holding the net change and syncs it before returning, so a reported success survives a
/// crash. Opening replays snapshot + journal, keeps every complete record, drops (and
/// reports) a torn tail, and refuses (changing nothing) a committed record it cannot read.
/// Now and then the state is compacted into a new snapshot.
public final class DurableStore: Store {
    /// The file that marks a directory as a closet store; without it a non-empty directory
    /// is refused and left alone.
    public static let markerName = "closet-store"
    /// The newest store format this build reads and writes; the marker names a store's format.
    public static let formatVersion = 2
    static let markerPrefix = "closet store, format "
    static var markerContents: [UInt8] { Array("\(markerPrefix)\(formatVersion)\n".utf8) }
    /// Compact once the journal outgrows the snapshot and this floor: small journals replay
    /// fast and compaction costs a full write.
    static let compactionFloor = 4 << 20

    public let path: String
    public let tables: Tables
    public var blobs: BlobStore { files }
    private let files: BlobFiles
    private let schemas: [AnyTableSchema]
    private let lock: StoreLock
    private var journal: Int32 = -1
    private var journalLength = 0
    private var journalGeneration: UInt64 = 1
    private var journalTransactions = 0
    private var snapshotLength = 0
    /// The store is still in format 1: the first commit rewrites it as format 2 first.
    private var needsUpgrade = false
    /// Set when a failed append could not be undone: later commits would land after garbage.
    private var broken: String?
    /// Where notices go (a torn tail dropped, a compaction that failed).
    private let report: (String) -> Void
    /// After a compaction failed (a full disk), the journal length at which to try again:
    /// not at every commit, and said once.
    private var nextCompactionAttempt = 0

    /// Why a store could not be opened: exit status 3.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens (creating on first use) the store at `path` with the installed packs' tables.
    /// `report` receives notices, such as a torn transaction dropped from the journal's end.
    public init(path: String, tables schemas: [AnyTableSchema], report: @escaping (String) -> Void) throws(OpenError) {
        self.path = path
        self.report = report
        self.schemas = schemas
        let existing = try Self.prepareDirectory(path)
        do {
            lock = try StoreLock(path: path + "/lock")
        } catch {
            switch error {
            case .held(let pid): throw OpenError(description: "store '\(path)' is in use by process \(pid)")
            case .system(let message): throw OpenError(description: message)
            }
        }
        let format: Int
        if let existing { format = existing } else { format = try Self.writeMarker(path) }
        do {
            files = try BlobFiles(directory: path + "/images")
        } catch {
            throw OpenError(description: error.description)
        }
        tables = Tables(schemas)
        needsUpgrade = format < Self.formatVersion
        do {
            try load(report: report)
        } catch let failure as POSIXFile.Failure {
            throw OpenError(description: failure.description)
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(error)")
        }
        let entries = files.entries
        if !entries.isEmpty {
            files.removeTemporaryLeftovers(among: entries)
            files.removeUnreferenced(keeping: tables.referencedBlobs)
        }
    }

    deinit { if journal >= 0 { close(journal) } }

    /// Checks an existing store's marker and returns its format, or makes sure the folder is
    /// one to set up (new, or empty but for what a cut creation leaves: the marker's temporary
    /// file and the lock) and returns nil: the marker is then written under the lock.
    private static func prepareDirectory(_ path: String) throws(OpenError) -> Int? {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let marker = path + "/" + markerName
        if !manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            let parent = (path as NSString).deletingLastPathComponent
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
        let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
        // The marker may have appeared since this folder was made: another process set the
        // store up at the same moment.
        if contents.contains(markerName) { return try checkMarker(marker, store: path) }
        guard contents.allSatisfy({ $0 == markerName + ".tmp" || $0 == "lock" }) else {
            throw OpenError(
                description: "'\(path)' is not a closet store (it holds other files); nothing in it was changed")
        }
        chmod(path, 0o700)  // an adopted empty folder becomes private too
        return nil
    }

    /// Writes the marker of a new store (under the lock, so two first opens cannot race).
    private static func writeMarker(_ path: String) throws(OpenError) -> Int {
        let marker = path + "/" + markerName
        if FileManager.default.fileExists(atPath: marker) { return try checkMarker(marker, store: path) }
        do {
            try POSIXFile.replace(marker, with: markerContents, directory: path)
        } catch {
            throw OpenError(description: error.description)
        }
        return formatVersion
    }

    /// A store made by a newer closet is refused by name rather than called damaged, and
    /// nothing in it is touched.
    private static func checkMarker(_ marker: String, store path: String) throws(OpenError) -> Int {
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

    private static func newer(_ path: String, format: String) -> OpenError {
        OpenError(
            description:
                "store '\(path)' was made by a newer closet (\(format); this closet reads format \(formatVersion) and older); nothing in it was changed"
        )
    }

    private func load(report: (String) -> Void) throws {
        var snapshotGeneration: UInt64 = 0
        if let bytes = try POSIXFile.readAll(path + "/snapshot") {
            do {
                snapshotGeneration = try JournalFormat.readSnapshot(bytes, tables: tables, formatOne: schemas)
            } catch {
                switch error {
                case .damaged:
                    throw OpenError(description: "store '\(path)' is damaged: its snapshot fails its checksum")
                case .newer: throw Self.newer(path, format: "a newer snapshot")
                }
            }
            snapshotLength = bytes.count
            if JournalFormat.layout(bytes, journal: false) == .formatOne { needsUpgrade = true }
        }

        let journalPath = path + "/journal"
        guard let bytes = try POSIXFile.readAll(journalPath), bytes.count >= JournalFormat.journalHeaderSize else {
            try startJournal(generation: snapshotGeneration + 1)
            return
        }
        // A journal already inside the snapshot (a crash between writing a snapshot and
        // starting the next journal) is skipped unread.
        var header = ByteReader(bytes, from: 8, to: 16)
        let layout = JournalFormat.layout(bytes, journal: true)
        if layout == .formatOne || layout == .formatTwo, ((try? header.u64()) ?? 0) <= snapshotGeneration {
            try startJournal(generation: snapshotGeneration + 1)
            return
        }
        let tables = tables
        let schemas = schemas
        let read: JournalFormat.JournalContents?
        do {
            read = try JournalFormat.readJournal(bytes) { layout, count, reader throws(ByteReader.Malformed) in
                switch layout {
                case .formatOne:
                    for _ in 0..<count {
                        guard let (table, put) = tables.table(formatOneTag: try reader.u8(), schemas: schemas) else {
                            throw ByteReader.Malformed()
                        }
                        try table.applyFormatOne(put: put, from: &reader)
                    }
                case .formatTwo:
                    try JournalFormat.applyOperations(count, from: &reader, to: tables)
                case .newer:
                    throw ByteReader.Malformed()
                }
            }
        } catch {
            throw OpenError(
                description:
                    "store '\(path)' is damaged at byte \(error.offset) of its journal: a committed transaction cannot be read; nothing in it was changed"
            )
        }
        guard let contents = read else {
            throw OpenError(description: "store '\(path)' is damaged: its journal has no valid header")
        }
        if contents.layout == .newer { throw Self.newer(path, format: "a newer journal") }
        if contents.layout == .formatOne { needsUpgrade = true }
        journalGeneration = contents.generation
        journalTransactions = contents.transactions
        journalLength = contents.validLength
        journal = try POSIXFile.open(journalPath, flags: O_WRONLY)
        if let damage = contents.damage {
            report(
                "store '\(path)': dropped \(bytes.count - contents.validLength) bytes at the end of the journal (\(damage)): a transaction that never finished committing"
            )
            guard ftruncate(journal, off_t(journalLength)) == 0 else {
                throw POSIXFile.failure("cannot truncate", journalPath)
            }
            try POSIXFile.sync(journal, path: journalPath)
        }
    }

    private func startJournal(generation: UInt64) throws(POSIXFile.Failure) {
        let journalPath = path + "/journal"
        try POSIXFile.replace(journalPath, with: JournalFormat.journalHeader(generation: generation), directory: path)
        if journal >= 0 { close(journal) }
        journal = try POSIXFile.open(journalPath, flags: O_WRONLY)
        journalGeneration = generation
        journalLength = JournalFormat.journalHeaderSize
        journalTransactions = 0
    }

    // MARK: transactions

    public var location: String { path }

    public func savepoint() -> Savepoint { tables.savepoint() }

    public func rollback(to savepoint: Savepoint) { tables.rollback(to: savepoint) }

    public func commit() throws(StoreError) {
        guard tables.hasPendingChanges else { return }
        let frames = tables.framePendingOperations()
        guard !frames.order.isEmpty else {
            tables.forgetPendingChanges()
            return
        }
        if let broken { throw StoreError(broken) }
        if needsUpgrade { try upgrade() }
        let record = JournalFormat.record(frames)
        do throws(POSIXFile.Failure) {
            guard lseek(journal, off_t(journalLength), SEEK_SET) >= 0 else {
                throw POSIXFile.failure("cannot seek", path + "/journal")
            }
            try POSIXFile.writeAll(journal, record, path: path + "/journal")
            try POSIXFile.sync(journal, path: path + "/journal")
        } catch {
            // Cut the partial record off so the next commit does not land after garbage.
            if ftruncate(journal, off_t(journalLength)) != 0 || fsync(journal) != 0 {
                broken = "the journal could not be repaired after a failed write; reopen the store"
            }
            throw StoreError(error.description)
        }
        journalLength += record.count
        journalTransactions += 1
        let released = tables.releasedBlobs()
        tables.forgetPendingChanges()
        tables.removeReleased(released, from: blobs)
        if journalLength > max(Self.compactionFloor, snapshotLength, nextCompactionAttempt) {
            do {
                try compact()
                nextCompactionAttempt = 0
            } catch {
                // Nothing is lost (the journal holds every commit); try again once it has grown.
                if nextCompactionAttempt == 0 {
                    report(
                        "store '\(path)': could not write a new snapshot (\(error)); every commit is still in the journal, and this is tried again as it grows"
                    )
                }
                nextCompactionAttempt = journalLength + Self.compactionFloor
            }
        }
    }

    /// A format-1 store is rewritten as format 2 before its first new commit: the marker
    /// first (an older closet then refuses the store by name), then the committed state as a
    /// format-2 snapshot and a fresh format-2 journal. A crash at any point leaves files this
    /// build reads; what is not committed yet is not in the snapshot.
    private func upgrade() throws(StoreError) {
        do {
            try POSIXFile.replace(path + "/" + Self.markerName, with: Self.markerContents, directory: path)
            try writeSnapshot(committed: true)
            try startJournal(generation: journalGeneration + 1)
        } catch {
            throw StoreError(error.description)
        }
        needsUpgrade = false
    }

    /// Writes the whole state as a new snapshot, then starts an empty journal. A crash in
    /// between leaves snapshot and old journal of the same generation: the journal is skipped.
    public func compact() throws {
        if needsUpgrade {
            try upgrade()
            return
        }
        try writeSnapshot(committed: false)
        try startJournal(generation: journalGeneration + 1)
    }

    private func writeSnapshot(committed: Bool) throws(POSIXFile.Failure) {
        let bytes = JournalFormat.snapshot(tables.all, generation: journalGeneration, committed: committed)
        try POSIXFile.replace(path + "/snapshot", with: bytes, directory: path)
        snapshotLength = bytes.count
    }

    public var details: [(String, String)] {
        [
            ("snapshot", "\(snapshotLength) bytes"),
            (
                "journal",
                "\(journalLength) bytes, \(journalTransactions) transaction\(journalTransactions == 1 ? "" : "s")"
            ),
            ("images", "\(files.names.count) files, \(files.totalBytes) bytes"),
        ]
    }
}
