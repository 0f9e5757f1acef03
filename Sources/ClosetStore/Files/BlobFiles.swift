import ClosetCore
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
/// A new blob is written (and synced) before its row is committed; a replaced or removed
/// one is deleted only after the commit. A crash in between leaves an unreferenced file,
/// which the next open removes.
final class BlobFiles: BlobStore {
    let directory: String
    /// `images` is a symbolic link: pictures are neither written nor read through it.
    private let isLink: Bool

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
        if POSIXFile.size(path) == bytes.count { return }  // the same blob (its name holds its checksum)
        do {
            try POSIXFile.replace(path, with: bytes, directory: directory)
        } catch {
            throw StoreError(error.description)
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
    var entries: [String] { isLink ? [] : (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] }

    var names: [String] {
        entries.filter(isOwnFile)
    }

    var totalBytes: Int { names.reduce(0) { $0 + (POSIXFile.size(directory + "/" + $1) ?? 0) } }
}
