import ClosetCore

/// The app's `ImageCacheManager`, made exact: the core's LRU cache over picture bytes. The
/// app's NSCache evicted "imprecisely"; here both limits always hold after a store, and the
/// least recently used picture goes first. Entries are keyed by their owner's id and the
/// picture's checksum, so a replaced picture is never served stale.
package final class ImageCacheManager {
    static let defaultCountLimit = 100
    static let defaultByteLimit = 200 * 1024 * 1024

    let pictures: LRUCache<[UInt8]>

    package init(countLimit: Int = defaultCountLimit, byteLimit: Int = defaultByteLimit) {
        pictures = LRUCache(countLimit: countLimit, costLimit: byteLimit) { $0.count }
    }

    package var countLimit: Int {
        get { pictures.countLimit }
        set { pictures.countLimit = newValue }
    }
    /// The app's `byteLimit` (its NSCache `totalCostLimit`); the cost is the byte count.
    package var byteLimit: Int {
        get { pictures.costLimit }
        set { pictures.costLimit = newValue }
    }
    package var megaByteLimit: Int {
        get { byteLimit / 1_048_576 }
        set { byteLimit = newValue * 1_048_576 }
    }
    package var kiloByteLimit: Int {
        get { byteLimit / 1024 }
        set { byteLimit = newValue * 1024 }
    }

    package var hits: Int { pictures.hits }
    package var misses: Int { pictures.misses }
    package var evictions: Int { pictures.evictions }
    package var totalBytes: Int { pictures.totalCost }
    package var count: Int { pictures.count }
    package var keysByRecency: [String] { pictures.keysByRecency }

    package func get(for key: String) -> [UInt8]? { pictures.get(for: key) }
    package func contains(_ key: String) -> Bool { pictures.contains(key) }
    package func store(_ value: [UInt8], for key: String) { pictures.store(value, for: key) }
    package func remove(for key: String) { pictures.remove(for: key) }
    package func removeAll() { pictures.removeAll() }
}
