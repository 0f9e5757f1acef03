import ClosetCore

/// The app's `ImageCacheManager`, made exact: the core's LRU cache over picture bytes. The
/// app's NSCache evicted "imprecisely"; here both limits always hold after a store, and the
/// least recently used picture goes first. Entries are keyed by their owner's id and the
/// picture's checksum, so a replaced picture is never served stale.
public final class ImageCacheManager {
    public static let defaultCountLimit = 100
    public static let defaultByteLimit = 200 * 1024 * 1024

    let pictures: LRUCache<[UInt8]>

    public init(countLimit: Int = defaultCountLimit, byteLimit: Int = defaultByteLimit) {
        pictures = LRUCache(countLimit: countLimit, costLimit: byteLimit) { $0.count }
    }

    public var countLimit: Int {
        get { pictures.countLimit }
        set { pictures.countLimit = newValue }
    }
    /// The app's `byteLimit` (its NSCache `totalCostLimit`); the cost is the byte count.
    public var byteLimit: Int {
        get { pictures.costLimit }
        set { pictures.costLimit = newValue }
    }
    public var megaByteLimit: Int {
        get { byteLimit / 1_048_576 }
        set { byteLimit = newValue * 1_048_576 }
    }
    public var kiloByteLimit: Int {
        get { byteLimit / 1024 }
        set { byteLimit = newValue * 1024 }
    }

    public var hits: Int { pictures.hits }
    public var misses: Int { pictures.misses }
    public var evictions: Int { pictures.evictions }
    public var totalBytes: Int { pictures.totalCost }
    public var count: Int { pictures.count }
    public var keysByRecency: [String] { pictures.keysByRecency }

    public func get(for key: String) -> [UInt8]? { pictures.get(for: key) }
    public func contains(_ key: String) -> Bool { pictures.contains(key) }
    public func store(_ value: [UInt8], for key: String) { pictures.store(value, for: key) }
    public func remove(for key: String) { pictures.remove(for: key) }
    public func removeAll() { pictures.removeAll() }
}
