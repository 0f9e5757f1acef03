/// An exact least-recently-used cache: both limits (how many entries, how much they cost)
/// always hold after a store, the least recently used entry goes first, and every operation
/// is O(1) (a doubly linked list through a dictionary). Hits, misses and evictions are counted.
/// The wardrobe's image cache and the dog pictures' memory tier are this.
public final class LRUCache<Value> {
    public var countLimit: Int { didSet { evict() } }
    public var costLimit: Int { didSet { evict() } }
    /// What an entry costs against `costLimit` (its byte count, for pictures).
    private let cost: (Value) -> Int

    public private(set) var hits = 0
    public private(set) var misses = 0
    public private(set) var evictions = 0
    public private(set) var totalCost = 0

    private struct Entry {
        var value: Value
        var cost: Int
        var newer: String?
        var older: String?
    }
    private var entries: [String: Entry] = [:]
    private var newest: String?
    private var oldest: String?

    public init(countLimit: Int = .max, costLimit: Int, cost: @escaping (Value) -> Int) {
        self.countLimit = countLimit
        self.costLimit = costLimit
        self.cost = cost
    }

    public var count: Int { entries.count }

    /// The cached value, marking it most recently used; counts a hit or a miss.
    public func get(for key: String) -> Value? {
        guard let entry = entries[key] else {
            misses += 1
            return nil
        }
        hits += 1
        unlink(key)
        pushNewest(key, entry.value, cost: entry.cost)
        return entry.value
    }

    /// Whether a key is cached, without touching the order or the counters.
    public func contains(_ key: String) -> Bool { entries[key] != nil }

    /// Stores a value as the most recently used entry, then evicts until both limits hold. A
    /// value costing more than the limit is not kept at all.
    public func store(_ value: Value, for key: String) {
        if entries[key] != nil { unlink(key) }
        let cost = cost(value)
        guard cost <= costLimit, countLimit > 0 else {
            evict()
            return
        }
        pushNewest(key, value, cost: cost)
        evict()
    }

    public func remove(for key: String) {
        if entries[key] != nil { unlink(key) }
    }

    public func removeAll() {
        entries.removeAll()
        newest = nil
        oldest = nil
        totalCost = 0
    }

    /// Keys from most to least recently used (for tests and statistics).
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
        while entries.count > max(0, countLimit) || totalCost > max(0, costLimit), let key = oldest {
            unlink(key)
            evictions += 1
        }
    }

    private func pushNewest(_ key: String, _ value: Value, cost: Int) {
        entries[key] = Entry(value: value, cost: cost, newer: nil, older: newest)
        if let previous = newest { entries[previous]?.newer = key }
        newest = key
        if oldest == nil { oldest = key }
        totalCost += cost
    }

    private func unlink(_ key: String) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        if let newer = entry.newer { entries[newer]?.older = entry.older } else { newest = entry.older }
        if let older = entry.older { entries[older]?.newer = entry.newer } else { oldest = entry.newer }
        totalCost -= entry.cost
    }
}
