/// The app's `ImageCacheManager`, made exact. The app's NSCache evicted "imprecisely"; here
/// both limits always hold after a store, and the least recently used entry goes first.
/// Entries are keyed by their owner's id and the picture's checksum, so a replaced picture is
/// never served stale. Hits, misses and evictions are counted for `cache stats`.
public final class ImageCacheManager {
    public static let defaultCountLimit = 100
    public static let defaultByteLimit = 200 * 1024 * 1024

    public var countLimit: Int { didSet { evict() } }
    /// The app's `byteLimit` (its NSCache `totalCostLimit`); the cost is the byte count.
    public var byteLimit: Int { didSet { evict() } }
    public var megaByteLimit: Int {
        get { byteLimit / 1_048_576 }
        set { byteLimit = newValue * 1_048_576 }
    }
    public var kiloByteLimit: Int {
        get { byteLimit / 1024 }
        set { byteLimit = newValue * 1024 }
    }

    public private(set) var hits = 0
    public private(set) var misses = 0
    public private(set) var evictions = 0
    public private(set) var totalBytes = 0

    /// A doubly linked list through a dictionary: O(1) get, store and eviction.
    private struct Entry {
        var value: [UInt8]
        var newer: String?
        var older: String?
    }
    private var entries: [String: Entry] = [:]
    private var newest: String?
    private var oldest: String?

    public init(countLimit: Int = defaultCountLimit, byteLimit: Int = defaultByteLimit) {
        self.countLimit = countLimit
        self.byteLimit = byteLimit
    }

    public var count: Int { entries.count }

    /// The cached bytes, marking them most recently used; counts a hit or a miss.
    public func get(for key: String) -> [UInt8]? {
        guard let entry = entries[key] else {
            misses += 1
            return nil
        }
        hits += 1
        unlink(key)
        pushNewest(key, entry.value)
        return entry.value
    }

    /// Whether a key is cached, without touching the order or the counters.
    public func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Stores bytes as the most recently used entry, then evicts until both limits hold. A
    /// value larger than the byte limit is not kept at all.
    public func store(_ value: [UInt8], for key: String) {
        if entries[key] != nil { unlink(key) }
        guard value.count <= byteLimit, countLimit > 0 else {
            evict()
            return
        }
        pushNewest(key, value)
        evict()
    }

    public func remove(for key: String) {
        if entries[key] != nil { unlink(key) }
    }

    public func removeAll() {
        entries.removeAll()
        newest = nil
        oldest = nil
        totalBytes = 0
    }

    /// Keys from most to least recently used (for tests and `cache stats`).
    public var keysByRecency: [String] {
        var keys: [String] = []
        var cursor = newest
        while let key = cursor {
            keys.append(key)
            cursor = entries[key]?.older
        }
        return keys
    }

    private func evict() {
        while entries.count > max(0, countLimit) || totalBytes > max(0, byteLimit), let key = oldest {
            unlink(key)
            evictions += 1
        }
    }

    private func pushNewest(_ key: String, _ value: [UInt8]) {
        entries[key] = Entry(value: value, newer: nil, older: newest)
        if let previous = newest { entries[previous]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalBytes += value.count
    }

    private func unlink(_ key: String) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        totalBytes -= entry.value.count
    }
}
