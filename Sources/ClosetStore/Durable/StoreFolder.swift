import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A store's folder as opening finds it: the marker that says it is a closet store (and its
/// format), what a creation cut short leaves, a new store made under the lock, and the files a
/// write renames into place.
enum StoreFolder {
    typealias OpenError = DurableStore.OpenError

    /// The file that marks a directory as a closet store; without it a non-empty directory
    /// is refused and left alone.
    static let markerName = "closet-store"
    /// The files a write makes before renaming them into place (`POSIXFile.replace`,
    /// `StreamedFile`): found with the lock free, they are a write a crash cut short.
    /// What `closet recover` writes into a new store when pictures could not be kept: one
    /// `<picture> missing|damaged` a line; `closet check` reads it.
    static let lostPicturesName = "lost-pictures"
    static let temporaryNames: Set<String> = [markerName + ".tmp", "snapshot.tmp", "journal.tmp", "delta.tmp"]
    static let markerPrefix = "closet store, format "
    static var markerContents: [UInt8] { Array("\(markerPrefix)\(StoreFormat.currentFormat)\n".utf8) }

    /// What damage found in a store's files says: nothing was changed, and what to do.
    static func damaged(_ path: String, _ what: String) -> StoreError {
        StoreError(
            "store '\(path)' is damaged: \(what); nothing in it was changed; 'closet recover \(path)' copies every intact transaction into a new store"
        )
    }

    /// A store whose next generation would pass the limit is not written (no arithmetic on a
    /// generation may overflow, and a journal past the limit would not open): recovering it
    /// starts a new store at generation 1.
    static func checkGenerationLeft(_ path: String, after generation: UInt64) throws(POSIXFile.Failure) {
        guard generation < StoreFormat.maximumGeneration else {
            throw POSIXFile.Failure(
                description:
                    "store '\(path)' has used its last generation (\(generation)); 'closet recover \(path)' copies it into a new store"
            )
        }
    }

    /// The pictures `closet recover` listed as lost when it made this store.
    static func lostPictures(_ path: String) -> Set<String> {
        guard let bytes = try? POSIXFile.readAll(path + "/" + StoreFolder.lostPicturesName) else { return [] }
        var names: Set<String> = []
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") where !line.hasPrefix("#") {
            if let name = line.split(separator: " ").first { names.insert(String(name)) }
        }
        return names
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
                        description: "cannot create the store's folder '\(parent)': \(POSIXFile.reason(errno))")
                }
            }
            // Created private from the start (never 0777 then changed); another process making
            // it at the same moment is fine: the lock decides who sets it up.
            guard mkdir(path, 0o700) == 0 || errno == EEXIST else {
                let code = errno
                // A folder that is there but takes no new folders (/proc, /sys) says so.
                let reason =
                    code == ENOENT && manager.fileExists(atPath: parent.isEmpty ? "." : parent)
                    ? "the folder '\(parent.isEmpty ? "." : parent)' takes no new folders" : POSIXFile.reason(code)
                throw OpenError(description: "cannot create the store '\(path)': \(reason)")
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
        return StoreFormat.currentFormat
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
        guard format <= StoreFormat.currentFormat else { throw newer(path, format: "store format \(format)") }
        return format
    }

    static func newer(_ path: String, format: String) -> OpenError {
        OpenError(
            description:
                "store '\(path)' was made by a newer closet (\(format); this closet reads format \(StoreFormat.currentFormat) and older); nothing in it was changed"
        )
    }
}
