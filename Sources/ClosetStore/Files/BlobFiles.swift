import ClosetCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The store's blobs (pictures): one file each in `<store>/images`, named by the pack from
/// values it makes itself and checked to be a plain file name, so nothing can lead outside
/// the folder.
///
/// A new blob is written (and synced) before its row is committed; a replaced or removed
/// one is deleted only after the commit. A crash in between leaves an unreferenced file,
/// which the next open removes.
final class BlobFiles: BlobStore {
    let directory: String

    init(directory: String) throws(StoreError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw StoreError("cannot create '\(directory)': \(error.localizedDescription)")
        }
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        guard Self.isValidName(name) else { throw StoreError("'\(name)' is not a valid blob name") }
        let path = directory + "/" + name
        if POSIXFile.size(path) == bytes.count { return }  // the same blob (its name holds its checksum)
        do {
            try POSIXFile.replace(path, with: bytes, directory: directory)
        } catch {
            throw StoreError(error.description)
        }
    }

    func read(named name: String) -> [UInt8]? {
        guard Self.isValidName(name) else { return nil }
        return (try? POSIXFile.readAll(directory + "/" + name)) ?? nil
    }

    func remove(named name: String) {
        guard Self.isValidName(name) else { return }
        unlink(directory + "/" + name)
    }

    var names: [String] { (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] }

    var totalBytes: Int { names.reduce(0) { $0 + (POSIXFile.size(directory + "/" + $1) ?? 0) } }
}
