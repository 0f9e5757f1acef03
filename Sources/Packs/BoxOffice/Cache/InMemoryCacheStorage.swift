import Foundation

/// The memory tier (reference §2.4 `InMemoryCacheStorage`): entries with an expiry, a count
/// limit that evicts the oldest inserted first, a read that extends the expiry from the
/// current expiry, and a periodic clean. The app cleaned on a Timer every `cleanInterval`;
/// a shell has no run loop, so the clean runs at the first use after each interval has
/// passed (by the session clock, so goldens move time with `.clock advance`).
package final class InMemoryCacheStorage<T> {
    package struct CacheObject {
        package var value: T
        /// The duration it was stored with (a `.newExpiration` read leaves it unchanged).
        var expiration: CacheExpiration
        private(set) var estimatedExpiration: Date

        init(value: T, expiration: CacheExpiration, now: Date) {
            self.value = value
            self.expiration = expiration
            estimatedExpiration = expiration.estimatedExpirationSince(now)
        }

        package func isExpired(at now: Date) -> Bool { estimatedExpiration.isPast(referenceDate: now) }

        mutating func extendExpiration(_ extending: ExpirationExtending, now: Date) {
            switch extending {
            case .none: break
            case .cacheTime: estimatedExpiration = expiration.estimatedExpirationSince(estimatedExpiration)
            case .newExpiration(let expiration): estimatedExpiration = expiration.estimatedExpirationSince(now)
            }
        }
    }

    package let countLimit: Int
    let cacheExpiration: CacheExpiration
    package let cleanInterval: TimeInterval
    private(set) var counters = CacheCounters()
    private var objects: [String: CacheObject] = [:]
    /// Keys in the order stored: the first is evicted first.
    private var order: [String] = []
    private var lastClean: Date
    private let now: () -> Date

    init(
        countLimit: Int, cacheExpiration: CacheExpiration = .seconds(300), cleanInterval: TimeInterval = 180,
        now: @escaping () -> Date
    ) {
        self.countLimit = countLimit
        self.cacheExpiration = cacheExpiration
        self.cleanInterval = cleanInterval
        self.now = now
        lastClean = now()
    }

    package var count: Int {
        cleanIfDue()
        return objects.count
    }

    package var keys: Set<String> { Set(objects.keys) }

    package func object(for key: String) -> CacheObject? { objects[key] }

    /// Stores (or overwrites) a value; the oldest entries go while over the count limit.
    func store(_ value: T, for key: String, expiration: CacheExpiration? = nil) {
        cleanIfDue()
        if objects[key] != nil { order.removeAll { $0 == key } }
        objects[key] = CacheObject(value: value, expiration: expiration ?? cacheExpiration, now: now())
        order.append(key)
        while objects.count > countLimit, let oldest = order.first {
            order.removeFirst()
            objects[oldest] = nil
            counters.evictions += 1
        }
    }

    /// The value if present and not expired, its expiry extended as asked.
    func value(for key: String, extendingExpiration: ExpirationExtending = .cacheTime) -> T? {
        cleanIfDue()
        let now = now()
        guard var object = objects[key], !object.isExpired(at: now) else {
            if extendingExpiration != .none { counters.misses += 1 }
            return nil
        }
        object.extendExpiration(extendingExpiration, now: now)
        objects[key] = object
        if extendingExpiration != .none { counters.hits += 1 }
        return object.value
    }

    package func isCached(for key: String) -> Bool { value(for: key, extendingExpiration: .none) != nil }

    package func removeExpired() {
        let now = now()
        for (key, object) in objects where object.isExpired(at: now) {
            objects[key] = nil
            order.removeAll { $0 == key }
            counters.expired += 1
        }
        lastClean = now
    }

    package func removeValue(for key: String) {
        objects[key] = nil
        order.removeAll { $0 == key }
    }

    package func removeAll() {
        objects = [:]
        order = []
    }

    /// The app's Timer, run late: due once `cleanInterval` has passed since the last clean.
    private func cleanIfDue() {
        if now().timeIntervalSince(lastClean) >= cleanInterval { removeExpired() }
    }
}

extension InMemoryCacheStorage where T == PosterImage {
    package var bytes: Int { objects.values.reduce(0) { $0 + $1.value.bytes.count } }
}
