import ClosetCore
import WardrobePack
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The store's pictures: one file per version of a clothes' picture, named
/// `<UUID>-<CRC32>.png|jpg` from values closet makes itself, so no id or user-supplied file
/// name can lead outside the folder. In memory when `directory` is nil (`:memory:`).
///
/// A new picture is written (and synced) before its row is committed; a replaced or removed
/// one is deleted only after the commit. A crash in between leaves an unreferenced file,
/// which the next open removes.
public final class ImageFiles {
    let directory: String?
    private var memoryFiles: [String: [UInt8]] = [:]

    /// Pictures kept in memory, for `:memory:` stores.
    init() { directory = nil }

    init(directory: String) throws(DurableWardrobe.OpenError) {
        self.directory = directory
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw DurableWardrobe.OpenError(description: "cannot create '\(directory)': \(error.localizedDescription)")
        }
    }

    public static func fileName(for id: UUID, _ image: ImageInfo) -> String {
        let hex = String(image.checksum, radix: 16, uppercase: true)
        let checksum = String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        return "\(id.uuidString)-\(checksum).\(image.format == .png ? "png" : "jpg")"
    }

    func write(_ bytes: [UInt8], for id: UUID, _ image: ImageInfo) throws(POSIXFile.Failure) {
        let name = Self.fileName(for: id, image)
        guard let directory else {
            memoryFiles[name] = bytes
            return
        }
        let path = directory + "/" + name
        if POSIXFile.size(path) == bytes.count { return }  // the same picture, already there
        try POSIXFile.replace(path, with: bytes, directory: directory)
    }

    func read(for id: UUID, _ image: ImageInfo) -> [UInt8]? {
        let name = Self.fileName(for: id, image)
        guard let directory else { return memoryFiles[name] }
        return (try? POSIXFile.readAll(directory + "/" + name)) ?? nil
    }

    /// Deletes released pictures that no committed row still uses.
    func remove(_ released: [(UUID, ImageInfo)], keeping referenced: [(UUID, ImageInfo)]) {
        guard !released.isEmpty else { return }
        let keep = Set(referenced.map { Self.fileName(for: $0.0, $0.1) })
        for (id, image) in released {
            let name = Self.fileName(for: id, image)
            guard !keep.contains(name) else { continue }
            if let directory { unlink(directory + "/" + name) } else { memoryFiles.removeValue(forKey: name) }
        }
    }

    /// Deletes every file no row refers to: leftovers of rolled-back or crashed changes.
    func removeUnreferenced(keeping referenced: [(UUID, ImageInfo)]) {
        let keep = Set(referenced.map { Self.fileName(for: $0.0, $0.1) })
        if let directory {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] where !keep.contains(name) {
                unlink(directory + "/" + name)
            }
        } else {
            memoryFiles = memoryFiles.filter { keep.contains($0.key) }
        }
    }

    var names: [String] {
        guard let directory else { return Array(memoryFiles.keys) }
        return (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
    }

    public var count: Int { names.count }

    public var totalBytes: Int {
        guard let directory else { return memoryFiles.values.reduce(0) { $0 + $1.count } }
        return names.reduce(0) { $0 + (POSIXFile.size(directory + "/" + $1) ?? 0) }
    }
}
