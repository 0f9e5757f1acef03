import CStoreSupport
import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The store's blobs (pictures): one file each in `<store>/images`, named by the pack from
/// values it makes itself in the one blob-name shape, so nothing can lead outside the folder.
/// Only regular files of that shape are the store's: anything else found there (someone's
/// notes, a link) is never read, counted or deleted, and a folder that is itself a symbolic
/// link is never followed.
///
/// A new blob is written before its row is committed, and synced with the other pictures of
/// the commit just before the commit is (each file, or the file system once for many, then the
/// folder once); a replaced or removed one is deleted only after the commit. A crash in between
/// leaves an unreferenced file, which the next writer removes.
final class BlobFiles: BlobStore {
    let directory: String
    /// `images` is a symbolic link: pictures are neither written nor read through it.
    private let isLink: Bool
    /// Blobs written (renamed into place) and not synced yet: the next commit syncs them.
    private var unsynced: Set<String> = []

    /// The blobs of a folder that exists, without creating it (a damaged store being read).
    static func existing(directory: String) -> BlobFiles? {
        var status = stat()
        guard lstat(directory, &status) == 0 else { return nil }
        return try? BlobFiles(directory: directory)
    }

    init(directory: String) throws(StoreError) {
        self.directory = directory
        var status = stat()
        if lstat(directory, &status) == 0 {
            isLink = (status.st_mode & S_IFMT) == S_IFLNK
            return
        }
        isLink = false
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw StoreError("cannot create '\(directory)': \(String(cString: strerror(errno)))")
        }
    }

    /// Whether `name` is one of the store's own files: the blob shape, and a regular file.
    private func isOwnFile(_ name: String) -> Bool {
        guard !isLink, Self.isValidName(name) else { return false }
        var status = stat()
        return lstat(directory + "/" + name, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        guard Self.isValidName(name) else { throw StoreError("'\(name)' is not a valid blob name") }
        guard !isLink else {
            throw StoreError("'\(directory)' is a symbolic link; pictures are not written through it")
        }
        let path = directory + "/" + name
        // The same blob (its name holds its checksum). Not a leftover of a crash: the first
        // write of a process removes every file no committed row refers to.
        guard let size = POSIXFile.size(path) else {
            try create(path, with: bytes)
            unsynced.insert(name)
            return
        }
        if size == bytes.count { return }
        do {
            try POSIXFile.replace(path, with: bytes, directory: directory, syncing: false)
        } catch {
            throw StoreError(error.description)
        }
        unsynced.insert(name)
    }

    /// A new blob is written under its own name, not through a temporary file and a rename
    /// (the rename was half of a picture's cost): until its row commits no reader looks for
    /// it, and a write cut short leaves an unreferenced file the next writer removes.
    private func create(_ path: String, with bytes: [UInt8]) throws(StoreError) {
        do throws(POSIXFile.Failure) {
            let fd = try POSIXFile.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
            defer { close(fd) }
            do throws(POSIXFile.Failure) {
                try POSIXFile.writeAll(fd, bytes, path: path)
            } catch {
                unlink(path)
                throw error
            }
        } catch {
            throw StoreError(error.description)
        }
    }

    /// From this many pictures in one commit, the file system is synced once (`syncfs`)
    /// rather than each file: 100,000 pictures written as files took 100,000 `fsync`s (22 s).
    static let syncWholeFileSystemFrom = 64

    /// Makes the pictures written since the last commit durable: each file, then the folder
    /// once. Called before the commit that refers to them is written.
    func syncWritten() throws(StoreError) {
        guard !unsynced.isEmpty else { return }
        do throws(POSIXFile.Failure) {
            if unsynced.count < Self.syncWholeFileSystemFrom || !syncFileSystem() {
                for name in unsynced.sorted() where POSIXFile.size(directory + "/" + name) != nil {
                    try POSIXFile.syncFile(directory + "/" + name)
                }
            }
            try POSIXFile.syncDirectory(directory)
        } catch {
            throw StoreError(error.description)
        }
        unsynced.removeAll()
    }

    /// Syncs the file system holding the folder: every written file at once. False when it
    /// could not (then each file is synced).
    private func syncFileSystem() -> Bool {
        guard let fd = try? POSIXFile.open(directory, flags: O_RDONLY | O_DIRECTORY) else { return false }
        defer { close(fd) }
        return closet_syncfs(fd) == 0
    }

    /// Deletes the store's files no row refers to, among the folder's entries: only those are
    /// looked at (a store of 100,000 pictures is not `lstat`ed whole at its first write).
    func removeUnreferenced(keeping referenced: Set<String>, among entries: [String]) {
        for entry in entries where !referenced.contains(entry) && !unsynced.contains(entry) {
            remove(named: entry)
        }
    }

    func read(named name: String) -> [UInt8]? {
        guard isOwnFile(name) else { return nil }
        return (try? POSIXFile.readAll(directory + "/" + name)) ?? nil
    }

    func remove(named name: String) {
        guard isOwnFile(name) else { return }
        unlink(directory + "/" + name)
    }

    /// Removes `<blob name>.tmp` files: writes a crash cut short before their rename.
    func removeTemporaryLeftovers(among entries: [String]) {
        for entry in entries where entry.hasSuffix(".tmp") {
            let name = String(entry.dropLast(4))
            var status = stat()
            guard !isLink, Self.isValidName(name), lstat(directory + "/" + entry, &status) == 0,
                (status.st_mode & S_IFMT) == S_IFREG
            else { continue }
            unlink(directory + "/" + entry)
        }
    }

    /// Everything in the folder, the store's or not (empty when it is a link).
    var entries: [String] { isLink ? [] : POSIXFile.entries(directory) ?? [] }

    var names: [String] {
        entries.filter(isOwnFile)
    }

    var totalBytes: Int { names.reduce(0) { $0 + (POSIXFile.size(directory + "/" + $1) ?? 0) } }
}
