import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk store: a folder with a snapshot, an append-only journal, the write lock and
/// the blobs. Rows live in typed tables in memory; a commit appends one checksummed record
/// holding the net change and syncs it before returning, so a reported success survives a
/// crash. Files are in format 3 (`FormatThree`); formats 1 and 2 are read and rewritten as 3
/// by the first commit.
///
/// Many processes share a store. Opening and reading take no lock: a reader reads the
/// snapshot and the journal's whole records, checking that the journal follows that very
/// snapshot (a compaction in between is read again). A writer takes the folder's lock at its
/// transaction's first change (waiting up to `busyTimeout`), and lets go after its commit or
/// rollback; `refresh()` brings in other processes' commits before each statement. Only a
/// writer cuts a torn last record; damage anywhere else refuses the store (exit 3) and names
/// `closet recover`.
public final class DurableStore: Store {
    /// The file that marks a directory as a closet store; without it a non-empty directory
    /// is refused and left alone.
    public static let markerName = "closet-store"
    /// The newest store format this build reads and writes; the marker names a store's format.
    public static let formatVersion = 3
    static let markerPrefix = "closet store, format "
    static var markerContents: [UInt8] { Array("\(markerPrefix)\(formatVersion)\n".utf8) }
    /// Compact once replaying the journal costs more than reading the snapshot and this floor:
    /// journal rows are decoded at every open, snapshot rows only when shown.
    static let compactionFloor = 256 << 10
    /// What replaying one record costs beyond its bytes, in bytes' worth: many small commits
    /// make a slow journal before a big one.
    static let costPerRecord = 256
    /// A first commit at least this big is written as the snapshot itself, not journaled
    /// and then compacted (written twice).
    static let snapshotCommitSize = 64 << 10
    /// What a change is taken to weigh for that rule (a wardrobe row is about 60 bytes), so
    /// the commit need not be framed to be measured.
    static let bytesPerChange = 64
    /// `--busy-timeout`'s default, in seconds.
    public static let defaultBusyTimeout = 5.0
    /// A generation past this is damage, not history: no arithmetic on it can overflow.
    static let maximumGeneration: UInt64 = 1 << 62

    public let path: String
    public let tables: Tables
    public var blobs: BlobStore { lockedBlobs }
    private let files: BlobFiles
    private var lockedBlobs: LockingBlobs!
    private let schemas: [AnyTableSchema]
    private let lock: StoreLock
    /// How long a writer waits for another to finish, in seconds.
    public var busyTimeout: Double
    /// Where notices go (a torn tail cut off, a compaction that failed).
    private let report: (String) -> Void

    /// What this process has read of the files.
    private var view = View()
    /// The marker names format 1 or 2, or files of those formats were read: the first commit
    /// rewrites the store as format 3 first.
    private var markerIsOld = false
    private var legacyFiles = false
    private var needsUpgrade: Bool { markerIsOld || legacyFiles }
    /// Set when the files can no longer be trusted from this process (a failed append that
    /// could not be undone, damage found while refreshing): every later write is refused.
    private var broken: String?
    /// Why the current statement's writes cannot be kept, until the session takes it.
    private var problem: WriteProblem?
    /// The journal, open for appending while the write lock is held.
    private var journal: Int32 = -1
    /// Leftover blobs are removed once per process, under the lock.
    private var leftoversRemoved = false
    /// After a compaction failed (a full disk), the journal length at which to try again.
    private var nextCompactionAttempt = 0

    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: Int
        var modified: Int
    }

    struct View {
        var journal: FileIdentity?
        var snapshot: FileIdentity?
        /// 1, 2 or 3; 3 for a store with no journal yet.
        var journalFormat = 3
        var generation: UInt64 = 0
        var follows = FormatThree.SnapshotLink.none
        var validLength = 0
        var transactions = 0
        var nextSequence: UInt32 = 1
        var tornTail: (at: Int, reason: String)?
        var snapshotLength = 0
        /// The snapshot's generation and checksum (checksum 0 for formats 1 and 2).
        var snapshotLink: FormatThree.SnapshotLink?
        /// The journal is already inside the snapshot (or missing): a writer starts a new one.
        var journalSkipped = true
    }

    /// Why a store could not be opened: exit status 3.
    public struct OpenError: Error, CustomStringConvertible {
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
        if format == nil {
            do {
                try lock.acquire(timeout: busyTimeout)
            } catch {
                throw OpenError(description: Self.lockMessage(error, path: path, timeout: busyTimeout))
            }
            defer { lock.release() }
            format = try Self.writeMarker(path)
        }
        do {
            files = try BlobFiles(directory: path + "/images")
        } catch {
            throw OpenError(description: error.description)
        }
        tables = Tables(schemas)
        markerIsOld = (format ?? Self.formatVersion) < Self.formatVersion
        lockedBlobs = LockingBlobs(files: files, store: self)
        do throws(StoreError) {
            try readFiles()
        } catch {
            throw OpenError(description: error.description)
        }
        tables.onFirstChange { [unowned self] in self.beginWriting() }
        // A torn tail left by a crash is cut now if no writer is at work (one may be
        // appending that very record); otherwise the next writer cuts it.
        if view.tornTail != nil, (try? lock.acquire(timeout: 0)) != nil {
            defer { releaseWriting() }
            do throws(StoreError) {
                try catchUp()
                try prepareForWriting()
            } catch {
                throw OpenError(description: error.description)
            }
        }
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

    // MARK: reading the files

    private func damaged(_ what: String) -> StoreError {
        StoreError(
            "store '\(path)' is damaged: \(what); nothing in it was changed; 'closet recover \(path)' copies every intact transaction into a new store"
        )
    }

    private static func identity(_ path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int(info.st_size),
            modified: Int(info.st_mtim.tv_sec) &* 1_000_000_000 &+ Int(info.st_mtim.tv_nsec))
    }

    private func read(_ file: String) throws(StoreError) -> (bytes: [UInt8], identity: FileIdentity)? {
        // The identity first: if the file changes after, the next refresh reads it again.
        guard let identity = Self.identity(path + "/" + file) else { return nil }
        do {
            guard let bytes = try POSIXFile.readAll(path + "/" + file) else { return nil }
            return (bytes, identity)
        } catch {
            throw StoreError(error.description)
        }
    }

    /// Reads snapshot and journal into the (empty) tables. A journal that does not follow the
    /// snapshot read with it is read again: a compaction may have replaced one between the
    /// two reads. If it still does not, a file is missing or was swapped: damage.
    private func readFiles() throws(StoreError) {
        var attempt = 0
        while true {
            tables.removeAllRows()
            legacyFiles = false
            var next = View()
            if let identity = Self.identity(path + "/snapshot") {
                let mapped: MappedFile?
                do {
                    mapped = try MappedFile.open(path + "/snapshot")
                } catch {
                    throw StoreError(error.description)
                }
                if let mapped {
                    next.snapshot = identity
                    next.snapshotLength = mapped.memory.count
                    next.snapshotLink = try loadSnapshot(mapped)
                }
            }
            let journal = try read("journal")
            next.journal = journal?.identity
            if let mismatch = try loadJournal(journal?.bytes, into: &next) {
                // Compaction happens under the write lock: with the lock free (or ours), a
                // mismatch read twice is no compaction in progress. Otherwise wait it out.
                attempt += 1
                if attempt >= 2 {
                    if lock.isHeld || attempt > 400 { throw damaged(mismatch) }
                    if (try? lock.acquire(timeout: 0)) != nil {
                        lock.release()
                        throw damaged(mismatch)
                    }
                }
                usleep(UInt32(min(attempt, 10)) * 500)
                continue
            }
            view = next
            return
        }
    }

    /// Verifies and loads a snapshot; returns its generation and checksum. A format-3
    /// snapshot is read in place from the mapping (tables decode rows as they are asked for).
    private func loadSnapshot(_ mapped: MappedFile) throws(StoreError) -> FormatThree.SnapshotLink {
        let memory = mapped.memory
        let magic = Array(memory.prefix(8))
        if magic == FormatThree.snapshotMagic {
            let header: FormatThree.SnapshotHeader
            do {
                header = try FormatThree.verifySnapshot(memory: memory) {
                    mapped.checksum(from: FormatThree.snapshotHeaderSize)
                }
            } catch {
                switch error {
                case .header: throw damaged("the header of its snapshot (bytes 0-31) fails its checksum")
                case .length: throw damaged("its snapshot is cut short or has bytes added (length \(memory.count))")
                case .body: throw damaged("its snapshot fails its checksum (somewhere in bytes 32-\(memory.count - 1))")
                }
            }
            guard header.generation <= Self.maximumGeneration else {
                throw damaged("its snapshot's generation \(header.generation) is out of range")
            }
            do {
                try FormatThree.loadSnapshot(memory: memory, owner: mapped, into: tables)
            } catch {
                throw damaged("its snapshot passes its checksum but cannot be read")
            }
            return header.link
        }
        return try loadLegacySnapshot(Array(memory))
    }

    /// Formats 1 and 2, or a file that is no snapshot at all.
    private func loadLegacySnapshot(_ bytes: [UInt8]) throws(StoreError) -> FormatThree.SnapshotLink {
        switch JournalFormat.layout(bytes, journal: false) {
        case .formatOne, .formatTwo:
            legacyFiles = true
            do {
                let generation = try JournalFormat.readSnapshot(bytes, tables: tables, formatOne: schemas)
                return FormatThree.SnapshotLink(generation: generation, checksum: 0)
            } catch {
                switch error {
                case .damaged: throw damaged("its snapshot fails its checksum")
                case .newer: throw StoreError(Self.newer(path, format: "a newer snapshot").description)
                }
            }
        case .newer:
            throw StoreError(Self.newer(path, format: "a newer snapshot").description)
        case nil:
            throw damaged("its snapshot is not a closet snapshot")
        }
    }

    /// Loads the journal's whole records into the tables, filling in `view`. Returns why the
    /// journal does not follow the snapshot, if it does not (the caller reads both again).
    private func loadJournal(_ bytes: [UInt8]?, into view: inout View) throws(StoreError) -> String? {
        let snapshot = view.snapshotLink
        guard let bytes else {
            // No journal: a new store (made before its first commit), or a format-1/2 one
            // whose journal was never started. Beside a format-3 snapshot it was deleted.
            if let snapshot, snapshot.checksum != 0 {
                return "its journal is missing (the snapshot is generation \(snapshot.generation))"
            }
            view.generation = snapshot?.generation ?? 0
            return nil
        }
        if bytes.count >= 8, Array(bytes[0..<8]) == FormatThree.journalMagic {
            guard let header = FormatThree.readJournalHeader(bytes) else {
                throw damaged("the header of its journal (bytes 0-35) fails its checksum")
            }
            guard header.generation <= Self.maximumGeneration, header.follows.generation <= Self.maximumGeneration
            else { throw damaged("its journal's generation \(header.generation) is out of range") }
            view.journalFormat = 3
            view.generation = header.generation
            view.follows = header.follows
            if let snapshot, header.generation <= snapshot.generation {
                // Already inside the snapshot: a compaction between its two renames.
                view.generation = snapshot.generation
                return nil
            }
            guard header.follows == (snapshot ?? .none) else {
                let found = snapshot.map { "generation \($0.generation) (checksum \(FormatThree.hex($0.checksum)))" }
                return
                    "its journal (generation \(header.generation)) follows \(header.follows), but the snapshot is \(found ?? "missing")"
            }
            view.journalSkipped = false
            let tables = tables
            let records: FormatThree.Records
            do {
                records = try FormatThree.readRecords(bytes, from: FormatThree.journalHeaderSize, sequence: 1) {
                    count, reader throws(ByteReader.Malformed) in
                    try JournalFormat.applyOperations(count, from: &reader, to: tables)
                }
            } catch {
                throw damaged(
                    "byte \(error.offset) of its journal starts a committed transaction this build cannot read")
            }
            view.validLength = records.validLength
            view.transactions = records.transactions
            view.nextSequence = records.nextSequence
            switch records.end {
            case .clean: break
            case .tornTail(let at, let reason): view.tornTail = (at, reason)
            case .damaged(let at, let reason): throw damaged("at byte \(at) of its journal: \(reason)")
            }
            return nil
        }
        return try loadLegacyJournal(bytes, into: &view)
    }

    /// Formats 1 and 2: a header of magic and generation, records of length, CRC-32 and payload.
    private func loadLegacyJournal(_ bytes: [UInt8], into view: inout View) throws(StoreError) -> String? {
        guard bytes.count >= JournalFormat.journalHeaderSize else {
            view.generation = view.snapshotLink?.generation ?? 0
            return nil
        }
        let layout = JournalFormat.layout(bytes, journal: true)
        if layout == .newer { throw StoreError(Self.newer(path, format: "a newer journal").description) }
        var header = ByteReader(bytes, from: 8, to: 16)
        let generation = (try? header.u64()) ?? 0
        if let snapshot = view.snapshotLink, layout != nil, generation <= snapshot.generation {
            view.generation = snapshot.generation
            return nil
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
            throw damaged("byte \(error.offset) of its journal starts a committed transaction this build cannot read")
        }
        guard let contents = read else { throw damaged("its journal has no valid header") }
        guard contents.generation <= Self.maximumGeneration else {
            throw damaged("its journal's generation \(contents.generation) is out of range")
        }
        legacyFiles = true
        view.journalFormat = contents.layout == .formatOne ? 1 : 2
        view.journalSkipped = false
        view.generation = contents.generation
        view.transactions = contents.transactions
        view.validLength = contents.validLength
        if let damage = contents.damage {
            if let later = JournalFormat.validRecord(after: contents.validLength, in: bytes) {
                throw damaged(
                    "at byte \(contents.validLength) of its journal: \(damage), with an intact transaction at byte \(later) after it"
                )
            }
            view.tornTail = (contents.validLength, damage)
        }
        return nil
    }

    /// Whether the files changed since this process last read them.
    private var filesChanged: Bool {
        Self.identity(path + "/journal") != view.journal || Self.identity(path + "/snapshot") != view.snapshot
    }

    // MARK: other processes' commits

    public func refresh() throws(StoreError) {
        if let broken { throw StoreError(broken) }
        guard !tables.hasPendingChanges, !lock.isHeld, filesChanged else { return }
        try catchUp()
    }

    /// Brings in what other processes committed: the new records only, when the journal just
    /// grew; everything again when it was replaced (a compaction) or the snapshot changed.
    private func catchUp() throws(StoreError) {
        guard filesChanged else { return }
        do throws(StoreError) {
            if view.journalFormat == 3, !view.journalSkipped, Self.identity(path + "/snapshot") == view.snapshot,
                let current = Self.identity(path + "/journal"), let known = view.journal,
                current.device == known.device, current.inode == known.inode, current.size >= view.validLength,
                let journal = try read("journal"),
                FormatThree.readJournalHeader(journal.bytes)
                    == FormatThree.JournalHeader(generation: view.generation, follows: view.follows)
            {
                let tables = tables
                let records: FormatThree.Records
                do {
                    records = try FormatThree.readRecords(
                        journal.bytes, from: view.validLength, sequence: view.nextSequence
                    ) { count, reader throws(ByteReader.Malformed) in
                        try JournalFormat.applyOperations(count, from: &reader, to: tables)
                    }
                } catch {
                    throw damaged(
                        "byte \(error.offset) of its journal starts a committed transaction this build cannot read")
                }
                if case .damaged(let at, let reason) = records.end {
                    throw damaged("at byte \(at) of its journal: \(reason)")
                }
                view.journal = journal.identity
                view.validLength = records.validLength
                view.transactions += records.transactions
                view.nextSequence = records.nextSequence
                if case .tornTail(let at, let reason) = records.end {
                    view.tornTail = (at, reason)
                } else {
                    view.tornTail = nil
                }
                return
            }
            try readFiles()
        } catch {
            // Half-applied: nothing read from this process's tables can be trusted now.
            broken = error.description
            throw error
        }
    }

    // MARK: writing

    /// The problem the current statement ran into, once (the session rolls it back).
    public func takeWriteProblem() -> WriteProblem? {
        defer { problem = nil }
        return problem
    }

    /// A transaction's first change (or a blob about to be written): take the write lock.
    func beginWriting() {
        guard !lock.isHeld else { return }
        if let broken {
            problem = .failed(broken)
            return
        }
        do {
            try lock.acquire(timeout: busyTimeout)
        } catch {
            problem = .failed(Self.lockMessage(error, path: path, timeout: busyTimeout))
            return
        }
        if filesChanged {
            problem = .conflict
            return
        }
        do throws(StoreError) {
            try prepareForWriting()
        } catch {
            problem = .failed(error.description)
        }
    }

    /// Takes the lock before a blob is written; returns why it cannot be written, if so (a
    /// conflict is left for the session: the statement runs again, and rewriting is harmless).
    func beginWritingBlob() -> String? {
        beginWriting()
        if case .failed(let message) = problem { return message }
        return nil
    }

    /// With the lock held and the files as this process last read them: cut a torn tail,
    /// start a journal where there is none (or one inside the snapshot), open it for
    /// appending, and once per process remove blobs no row refers to.
    private func prepareForWriting() throws(StoreError) {
        do throws(POSIXFile.Failure) {
            if !needsUpgrade, view.journalSkipped {
                try startJournal(generation: view.generation + 1, follows: view.snapshotLink ?? .none)
            }
            if journal < 0 { journal = try POSIXFile.open(path + "/journal", flags: O_WRONLY) }
            if let torn = view.tornTail, let size = view.journal?.size, size > view.validLength {
                guard ftruncate(journal, off_t(view.validLength)) == 0 else {
                    throw POSIXFile.failure("cannot truncate", path + "/journal")
                }
                try POSIXFile.sync(journal, path: path + "/journal")
                report(
                    "store '\(path)': dropped \(size - view.validLength) bytes at the end of the journal (\(torn.reason) at byte \(torn.at)): a transaction that never finished committing"
                )
                view.tornTail = nil
                view.journal = Self.identity(path + "/journal")
            }
        } catch {
            throw StoreError(error.description)
        }
        if !leftoversRemoved {
            leftoversRemoved = true
            let entries = files.entries
            if !entries.isEmpty {
                files.removeTemporaryLeftovers(among: entries)
                files.removeUnreferenced(keeping: tables.referencedBlobs)
            }
        }
    }

    private func releaseWriting() {
        if journal >= 0 {
            close(journal)
            journal = -1
        }
        lock.release()
    }

    private func startJournal(generation: UInt64, follows: FormatThree.SnapshotLink) throws(POSIXFile.Failure) {
        let journalPath = path + "/journal"
        let header = FormatThree.JournalHeader(generation: generation, follows: follows)
        try POSIXFile.replace(journalPath, with: FormatThree.journalHeader(header), directory: path)
        if journal >= 0 { close(journal) }
        journal = try POSIXFile.open(journalPath, flags: O_WRONLY)
        view.journalFormat = 3
        view.journalSkipped = false
        view.generation = generation
        view.follows = follows
        view.validLength = FormatThree.journalHeaderSize
        view.transactions = 0
        view.nextSequence = 1
        view.tornTail = nil
        view.journal = Self.identity(journalPath)
    }

    // MARK: transactions

    public var location: String { path }

    public func savepoint() -> Savepoint { tables.savepoint() }

    public func rollback(to savepoint: Savepoint) {
        tables.rollback(to: savepoint)
        if !tables.hasPendingChanges, lock.isHeld { releaseWriting() }
    }

    public func commit() throws(StoreError) {
        defer { if !tables.hasPendingChanges, lock.isHeld { releaseWriting() } }
        guard tables.hasPendingChanges else { return }
        if let broken { throw StoreError(broken) }
        // A big first commit is written as the snapshot itself: not framed as a record first.
        let intoSnapshot =
            view.transactions == 0 && !needsUpgrade && nextCompactionAttempt == 0
            && tables.pendingChangeCount * Self.bytesPerChange >= max(Self.snapshotCommitSize, view.snapshotLength)
        let frames = intoSnapshot ? nil : tables.framePendingOperations()
        if let frames, frames.order.isEmpty {
            tables.forgetPendingChanges()
            return
        }
        if !lock.isHeld { beginWriting() }
        if let problem = takeWriteProblem() {
            switch problem {
            case .conflict: throw StoreError("another process changed the store since this transaction began")
            case .failed(let message): throw StoreError(message)
            }
        }
        if needsUpgrade { try upgrade() }
        if let frames {
            try append(FormatThree.record(frames, sequence: view.nextSequence))
        } else {
            try commitAsSnapshot()
        }
        let released = tables.releasedBlobs()
        tables.forgetPendingChanges()
        tables.removeReleased(released, from: files)
        let cost = view.validLength + Self.costPerRecord * view.transactions
        if cost > max(Self.compactionFloor, view.snapshotLength, nextCompactionAttempt) {
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
                nextCompactionAttempt = cost + Self.compactionFloor
            }
        }
    }

    /// A big first commit becomes the snapshot: written once, not journaled and then
    /// compacted. The snapshot's rename is the commit; if the snapshot cannot be written the
    /// record goes to the journal as usual.
    private func commitAsSnapshot() throws(StoreError) {
        let generation = max(view.generation, 1)
        let link: FormatThree.SnapshotLink
        do {
            link = try writeSnapshot(generation: generation, committed: false)
        } catch {
            report(
                "store '\(path)': could not write a new snapshot (\(error)); the commit went to the journal, and a snapshot is tried again as it grows"
            )
            nextCompactionAttempt = view.validLength + Self.compactionFloor
            try append(FormatThree.record(tables.framePendingOperations(), sequence: view.nextSequence))
            return
        }
        do {
            try startJournal(generation: generation + 1, follows: link)
        } catch {
            // Committed (the snapshot holds it; the old journal is inside it), but this
            // process cannot append after it: it stops writing.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
        }
    }

    private func append(_ record: [UInt8]) throws(StoreError) {
        let journalPath = path + "/journal"
        do throws(POSIXFile.Failure) {
            guard lseek(journal, off_t(view.validLength), SEEK_SET) >= 0 else {
                throw POSIXFile.failure("cannot seek", journalPath)
            }
            try POSIXFile.writeAll(journal, record, path: journalPath)
            try POSIXFile.sync(journal, path: journalPath)
        } catch {
            // Cut the partial record off so the next commit does not land after garbage.
            if ftruncate(journal, off_t(view.validLength)) != 0 || fsync(journal) != 0 {
                broken = "the journal could not be repaired after a failed write; reopen the store"
            }
            throw StoreError(error.description)
        }
        view.validLength += record.count
        view.transactions += 1
        view.nextSequence &+= 1
        view.journal = Self.identity(journalPath)
    }

    /// A format-1 or 2 store is rewritten as format 3 before its first new commit: the marker
    /// first (an older closet then refuses the store by name), then the committed state as a
    /// format-3 snapshot and a fresh journal following it. A crash at any point leaves files
    /// this build reads; what is not committed yet is not in the snapshot.
    private func upgrade() throws(StoreError) {
        do {
            try POSIXFile.replace(path + "/" + Self.markerName, with: Self.markerContents, directory: path)
            let generation = max(view.generation, view.snapshotLink?.generation ?? 0, 1)
            let link = try writeSnapshot(generation: generation, committed: true)
            try startJournal(generation: generation + 1, follows: link)
        } catch {
            throw StoreError(error.description)
        }
        markerIsOld = false
        legacyFiles = false
    }

    /// Writes the whole state as a new snapshot, then starts an empty journal following it.
    /// A crash in between leaves snapshot and old journal of the same generation: the journal
    /// is skipped. Readers are never blocked: both files are replaced by renames. `pending`
    /// includes what is not committed yet (a big first commit written as the snapshot).
    public func compact(pending: Bool = false) throws {
        let ownsLock = lock.isHeld
        if !ownsLock { try lock.acquire(timeout: busyTimeout) }
        defer { if !ownsLock { releaseWriting() } }
        if needsUpgrade {
            try upgrade()
            return
        }
        let generation = max(view.generation, 1)
        let link = try writeSnapshot(generation: generation, committed: !pending)
        try startJournal(generation: generation + 1, follows: link)
    }

    private func writeSnapshot(generation: UInt64, committed: Bool) throws(POSIXFile.Failure)
        -> FormatThree.SnapshotLink
    {
        let (bytes, header) = FormatThree.snapshot(tables.all, generation: generation, committed: committed)
        try POSIXFile.replace(path + "/snapshot", with: bytes, directory: path)
        view.snapshotLength = bytes.count
        view.snapshotLink = header.link
        view.snapshot = Self.identity(path + "/snapshot")
        return header.link
    }

    public var details: [(String, String)] {
        [
            ("snapshot", "\(view.snapshotLength) bytes"),
            (
                "journal",
                "\(view.validLength) bytes, \(view.transactions) transaction\(view.transactions == 1 ? "" : "s")"
            ),
            ("images", "\(files.names.count) files, \(files.totalBytes) bytes"),
        ]
    }
}

/// The store's blobs as packs see them: writing one takes the write lock first, so another
/// writer's clean-up of unreferenced files can never delete a picture before its row commits.
final class LockingBlobs: BlobStore {
    private let files: BlobFiles
    private unowned let store: DurableStore

    init(files: BlobFiles, store: DurableStore) {
        self.files = files
        self.store = store
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        if let message = store.beginWritingBlob() { throw StoreError(message) }
        try files.write(bytes, named: name)
    }

    func read(named name: String) -> [UInt8]? { files.read(named: name) }
    func remove(named name: String) { files.remove(named: name) }
    var names: [String] { files.names }
    var totalBytes: Int { files.totalBytes }
}
