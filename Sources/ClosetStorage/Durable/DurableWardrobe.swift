import ClosetCore
import WardrobePack
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The on-disk store: a directory with a snapshot, an append-only journal, a lock and the
/// images. Rows live in a `MemoryWardrobe`; a commit appends one checksummed record holding
/// the net change and syncs it before returning, so a reported success survives a crash.
/// Opening replays snapshot + journal, keeps every complete record and drops (and reports) a
/// torn tail. Now and then the state is compacted into a new snapshot.
public final class DurableWardrobe: WardrobeStore {
    /// The file that marks a directory as a closet store; without it a non-empty directory
    /// is refused and left alone.
    public static let markerName = "closet-store"
    /// The newest store format this build reads and writes; the marker names a store's format.
    static let formatVersion = 1
    static let markerPrefix = "closet store, format "
    static let markerContents = Array("\(markerPrefix)\(formatVersion)\n".utf8)
    /// Compact once the journal outgrows the snapshot and this floor: small journals replay
    /// fast and compaction costs a full write.
    static let compactionFloor = 4 << 20

    public let path: String
    let memory: MemoryWardrobe
    var images: ImageFiles { memory.images }
    private let lock: StoreLock
    private var journal: Int32 = -1
    private var journalLength = 0
    private var journalGeneration: UInt64 = 1
    private var journalTransactions = 0
    private var snapshotLength = 0
    /// Set when a failed append could not be undone: later commits would land after garbage.
    private var broken: String?

    /// Why a store could not be opened: exit status 3.
    public struct OpenError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Opens (creating on first use) the store at `path`. `report` receives notices, such as
    /// a torn transaction dropped from the end of the journal.
    public init(path: String, report: (String) -> Void) throws(OpenError) {
        self.path = path
        try Self.prepareDirectory(path)
        do {
            lock = try StoreLock(path: path + "/lock")
        } catch {
            switch error {
            case .held(let pid): throw OpenError(description: "store '\(path)' is in use by process \(pid)")
            case .system(let message): throw OpenError(description: message)
            }
        }
        memory = MemoryWardrobe(images: try ImageFiles(directory: path + "/images"))
        do {
            try load(report: report)
        } catch let failure as POSIXFile.Failure {
            throw OpenError(description: failure.description)
        } catch let error as OpenError {
            throw error
        } catch {
            throw OpenError(description: "\(error)")
        }
        if images.count > 0 { images.removeUnreferenced(keeping: memory.allImages) }
    }

    deinit { if journal >= 0 { close(journal) } }

    private static func prepareDirectory(_ path: String) throws(OpenError) {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let marker = path + "/" + markerName
        if manager.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw OpenError(description: "'\(path)' is a file, not a closet store") }
            if manager.fileExists(atPath: marker) { return try checkMarker(marker, store: path) }
            // Empty, or holding only the marker's temporary file (a process killed while creating
            // the store): ours to set up. Anything else belongs to someone else.
            let contents = (try? manager.contentsOfDirectory(atPath: path)) ?? []
            guard contents.allSatisfy({ $0 == markerName + ".tmp" }) else {
                throw OpenError(description: "'\(path)' is not a closet store (it holds other files); nothing in it was changed")
            }
        } else {
            do {
                try manager.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw OpenError(description: "cannot create the store '\(path)': \(error.localizedDescription)")
            }
        }
        do {
            try POSIXFile.replace(marker, with: markerContents, directory: path)
        } catch {
            throw OpenError(description: error.description)
        }
    }

    /// A store made by a newer closet is refused by name rather than called damaged, and
    /// nothing in it is touched.
    private static func checkMarker(_ marker: String, store path: String) throws(OpenError) {
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
            throw OpenError(description: "store '\(path)' is damaged: its marker file '\(markerName)' is not a closet marker")
        }
        guard format <= formatVersion else {
            throw OpenError(
                description: "store '\(path)' was made by a newer closet (store format \(format); this closet reads format \(formatVersion) and older); nothing in it was changed")
        }
    }

    private func load(report: (String) -> Void) throws {
        var snapshotGeneration: UInt64 = 0
        if let bytes = try POSIXFile.readAll(path + "/snapshot") {
            let memory = memory
            guard let generation = JournalFormat.readSnapshot(
                bytes, expecting: { memory.reserveCapacity(clothes: $0, styles: 0) }, apply: memory.load(snapshotRow:))
            else {
                throw OpenError(description: "store '\(path)' is damaged: its snapshot fails its checksum")
            }
            snapshotGeneration = generation
            snapshotLength = bytes.count
        }

        let journalPath = path + "/journal"
        if let bytes = try POSIXFile.readAll(journalPath), bytes.count >= JournalFormat.journalHeaderSize {
            let read: JournalFormat.JournalContents?
            do {
                read = try JournalFormat.readJournal(bytes)
            } catch {
                throw OpenError(
                    description: "store '\(path)' is damaged at byte \(error.offset) of its journal: a committed transaction cannot be read; nothing in it was changed")
            }
            guard let contents = read else {
                throw OpenError(description: "store '\(path)' is damaged: its journal has no valid header")
            }
            if contents.generation > snapshotGeneration {
                for transaction in contents.transactions {
                    for operation in transaction { memory.apply(replayed: operation) }
                }
                journalGeneration = contents.generation
                journalTransactions = contents.transactions.count
                journalLength = contents.validLength
                journal = try POSIXFile.open(journalPath, flags: O_WRONLY)
                if let damage = contents.damage {
                    report("store '\(path)': dropped \(bytes.count - contents.validLength) bytes at the end of the journal (\(damage)): a transaction that never finished committing")
                    guard ftruncate(journal, off_t(journalLength)) == 0 else { throw POSIXFile.failure("cannot truncate", journalPath) }
                    try POSIXFile.sync(journal, path: journalPath)
                }
            } else {
                try startJournal(generation: snapshotGeneration + 1)
            }
        } else {
            try startJournal(generation: snapshotGeneration + 1)
        }
        memory.compactAfterLoad()
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

    public func savepoint() -> Savepoint { memory.savepoint() }

    public func rollback(to savepoint: Savepoint) { memory.rollback(to: savepoint) }

    public func commit() throws(StoreError) {
        let operations = memory.pendingOperations()
        guard !operations.isEmpty else {
            memory.forgetPendingChanges()
            return
        }
        if let broken { throw StoreError(broken) }
        let record = JournalFormat.record(operations)
        do {
            guard lseek(journal, off_t(journalLength), SEEK_SET) >= 0 else { throw POSIXFile.failure("cannot seek", path + "/journal") }
            try POSIXFile.writeAll(journal, record, path: path + "/journal")
            try POSIXFile.sync(journal, path: path + "/journal")
        } catch {
            // Cut the partial record off so the next commit does not land after garbage.
            if ftruncate(journal, off_t(journalLength)) != 0 || fsync(journal) != 0 {
                broken = "the journal could not be repaired after a failed write; reopen the store"
            }
            throw StoreError("\(error)")
        }
        journalLength += record.count
        journalTransactions += 1
        let released = memory.pendingReleasedImages()
        memory.forgetPendingChanges()
        images.remove(released, keeping: memory.allImages)
        if journalLength > max(Self.compactionFloor, snapshotLength) { try? compact() }
    }

    /// Writes the whole state as a new snapshot, then starts an empty journal. A crash in
    /// between leaves snapshot and old journal of the same generation: the journal is skipped.
    public func compact() throws {
        let bytes = JournalFormat.snapshot(memory.snapshotOperations(), generation: journalGeneration)
        try POSIXFile.replace(path + "/snapshot", with: bytes, directory: path)
        snapshotLength = bytes.count
        try startJournal(generation: journalGeneration + 1)
    }

    public var details: [(String, String)] {
        [
            ("snapshot", "\(snapshotLength) bytes"),
            ("journal", "\(journalLength) bytes, \(journalTransactions) transaction\(journalTransactions == 1 ? "" : "s")"),
            ("images", "\(images.count) files, \(images.totalBytes) bytes"),
        ]
    }

    // MARK: repositories (the rows live in memory)

    public func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(RepositoryError) {
        try memory.storeImage(bytes, image, for: id)
    }

    public func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? { memory.loadImage(image, for: id) }

    public var clothesCount: Int { memory.clothesCount }
    public var revision: Int { memory.revision }
    public func fetchClothesList() throws(RepositoryError) -> ClothesList { try memory.fetchClothesList() }
    public func fetchAllClothes() -> [Clothes] { memory.fetchAllClothes() }
    public func clothes(withID id: UUID) -> Clothes? { memory.clothes(withID: id) }
    public func save(clothes: Clothes) throws(RepositoryError) { try memory.save(clothes: clothes) }
    public func remove(clothes: Clothes) throws(RepositoryError) { try memory.remove(clothes: clothes) }
    public func removeAllClothes() throws(RepositoryError) { try memory.removeAllClothes() }
    public var styleCount: Int { memory.styleCount }
    public func fetchStyles() throws(RepositoryError) -> [Style] { try memory.fetchStyles() }
    public func style(withID id: UUID) -> Style? { memory.style(withID: id) }
    public func save(style: Style) throws(RepositoryError) { try memory.save(style: style) }
    public func remove(style: Style) throws(RepositoryError) { try memory.remove(style: style) }
    public func removeAllStyles() throws(RepositoryError) { try memory.removeAllStyles() }
}
