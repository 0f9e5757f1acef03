import ClosetCore
import Foundation

/// The disk tier (reference §2.4 `OnDiskCacheStorage`): one file per key in its folder, each
/// carrying its last access and estimated expiry (the app kept them in the file's creation
/// and modification dates; Linux cannot set a creation date, so a 20-byte header holds
/// them). Over the count limit, `count − limit + 1` files with the earliest expiry go before
/// a new one is written, as the app does. Time is the session clock's.
final class OnDiskCacheStorage<T: DataConvertible> {
    package let directory: String
    package let countLimit: Int
    let cacheExpiration: CacheExpiration
    private(set) var counters = CacheCounters()
    private let now: () -> Date

    package typealias Failure = OnDiskCacheFailure

    init(
        directory: String, countLimit: Int, cacheExpiration: CacheExpiration = .days(7), now: @escaping () -> Date
    ) throws(Failure) {
        self.directory = directory
        self.countLimit = countLimit
        self.cacheExpiration = cacheExpiration
        self.now = now
        try makeDirectory()
    }

    private func makeDirectory() throws(Failure) {
        do {
            try FileManager.default.createDirectory(
                atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .cannotCreateDirectory(path: directory)
        }
    }

    package typealias FileMeta = CacheFileMeta

    /// The file for a key: letters, digits, `-` and `_` kept; anything else, or a very long
    /// key, becomes a digest, so no key can name a path outside the folder.
    package func path(for key: String) -> String {
        let safe =
            !key.isEmpty && key.count <= 120
            && key.unicodeScalars.allSatisfy {
                ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-"
                    || $0 == "_"
            }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let name = safe ? key : "key-" + String(hash, radix: 16)
        return FilePath.join(directory, name)
    }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted().map {
            FilePath.join(directory, $0)
        }
    }

    package var count: Int { files().count }

    /// Bytes of the values stored (headers not counted).
    package var bytes: Int {
        files().reduce(0) { total, path in
            let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            return total + max(0, size - FileMeta.size)
        }
    }

    func store(_ value: T, for key: String, expiration: CacheExpiration? = nil) throws {
        if !FileManager.default.fileExists(atPath: directory) { try makeDirectory() }
        let existing = files()
        let exceeding = existing.count - countLimit
        if exceeding > 0 {
            // The app's rule: sort by expiry and remove count − limit + 1 files.
            var byExpiry: [(path: String, expiry: Date)] = []
            for path in existing {
                let expiry = (try? FileMeta(path: path))?.estimatedExpirationDate ?? Date.distantPast
                byExpiry.append((path, expiry))
            }
            byExpiry.sort { first, second in
                first.expiry != second.expiry ? first.expiry < second.expiry : first.path < second.path
            }
            for (path, _) in byExpiry.prefix(exceeding + 1) {
                try? FileManager.default.removeItem(atPath: path)
                counters.evictions += 1
            }
        }
        let now = now()
        let meta = FileMeta(
            path: path(for: key), lastAccessDate: now,
            estimatedExpirationDate: (expiration ?? cacheExpiration).estimatedExpirationSince(now))
        try write(meta, data: value.toData())
    }

    private func write(_ meta: FileMeta, data: Data) throws(Failure) {
        do {
            try (Data(meta.header) + data).write(to: URL(fileURLWithPath: meta.path), options: .atomic)
        } catch {
            throw .cannotWrite(path: meta.path)
        }
    }

    /// The value if present and not expired; `.cacheTime` moves the expiry to now plus what
    /// was left between the last access and the old expiry, and the last access to now.
    func value(for key: String, extendingExpiration: ExpirationExtending = .cacheTime) throws -> T? {
        let path = path(for: key)
        let now = now()
        guard let meta = try? FileMeta(path: path), !meta.isExpired(at: now),
            let data = FileManager.default.contents(atPath: path)
        else {
            if extendingExpiration != .none { counters.misses += 1 }
            return nil
        }
        let value = try T.fromData(data.dropFirst(FileMeta.size))
        var extended = meta
        switch extendingExpiration {
        case .none: break
        case .cacheTime:
            extended.estimatedExpirationDate = now.addingTimeInterval(
                meta.estimatedExpirationDate.timeIntervalSince(meta.lastAccessDate))
            extended.lastAccessDate = now
        case .newExpiration(let expiration):
            extended.estimatedExpirationDate = expiration.estimatedExpirationSince(now)
            extended.lastAccessDate = now
        }
        if extended != meta { try write(extended, data: data.dropFirst(FileMeta.size)) }
        if extendingExpiration != .none { counters.hits += 1 }
        return value
    }

    package func isCached(for key: String) -> Bool {
        guard let meta = try? FileMeta(path: path(for: key)) else { return false }
        return !meta.isExpired(at: now())
    }

    package func removeValue(for key: String) { try? FileManager.default.removeItem(atPath: path(for: key)) }

    /// Deletes the folder and makes it again.
    package func removeAll() throws {
        try? FileManager.default.removeItem(atPath: directory)
        try makeDirectory()
    }

    /// Removes expired files and files whose header cannot be read.
    package func removeExpired() {
        let now = now()
        for path in files() {
            let meta = try? FileMeta(path: path)
            if meta?.isExpired(at: now) ?? true {
                try? FileManager.default.removeItem(atPath: path)
                counters.expired += 1
            }
        }
    }
}

package enum OnDiskCacheFailure: Error, Equatable {
    case cannotCreateDirectory(path: String)
    case cannotWrite(path: String)
    case expirationNotContained(path: String)
}

/// A disk-cache file's header: its last access and estimated expiry.
package struct CacheFileMeta: Equatable {
    package static let magic: [UInt8] = Array("CLC1".utf8)
    package static let size = 20
    package var path: String
    package var lastAccessDate: Date
    package var estimatedExpirationDate: Date

    /// Reads a file's header; throws when the file is missing or has none.
    package init(path: String) throws(OnDiskCacheFailure) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw .expirationNotContained(path: path) }
        defer { try? handle.close() }
        let header = [UInt8]((try? handle.read(upToCount: Self.size)) ?? Data())
        guard header.count == Self.size, Array(header[0..<4]) == Self.magic else {
            throw .expirationNotContained(path: path)
        }
        self.path = path
        lastAccessDate = Self.date(header[4..<12])
        estimatedExpirationDate = Self.date(header[12..<20])
    }

    init(path: String, lastAccessDate: Date, estimatedExpirationDate: Date) {
        self.path = path
        self.lastAccessDate = lastAccessDate
        self.estimatedExpirationDate = estimatedExpirationDate
    }

    package func isExpired(at now: Date) -> Bool { estimatedExpirationDate.isPast(referenceDate: now) }

    var header: [UInt8] { Self.magic + Self.bytes(lastAccessDate) + Self.bytes(estimatedExpirationDate) }

    static func bytes(_ date: Date) -> [UInt8] {
        withUnsafeBytes(of: Int64((date.timeIntervalSince1970 * 1000).rounded()).littleEndian) { Array($0) }
    }

    static func date(_ bytes: ArraySlice<UInt8>) -> Date {
        var value: Int64 = 0
        for (offset, byte) in bytes.enumerated() { value |= Int64(byte) << (8 * offset) }
        return Date(timeIntervalSince1970: Double(value) / 1000)
    }
}
