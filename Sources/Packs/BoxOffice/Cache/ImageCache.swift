import Foundation

/// The app's two-tier image cache (reference §2.4 `ImageCache`): memory first, then disk,
/// a disk hit promoted into memory. The default is 30 entries for 300 s in memory (cleaned
/// every 180 s) and 100 entries for 7 days on disk.
package final class ImageCache {
    package enum CacheOption: String, Sendable {
        case all, memory, disk
    }

    /// Where a retrieved image came from.
    package enum Tier: String, Sendable {
        case memory, disk
    }

    package let memory: InMemoryCacheStorage<PosterImage>
    let disk: OnDiskCacheStorage<PosterImage>
    package let option: CacheOption

    init(
        memory: InMemoryCacheStorage<PosterImage>, disk: OnDiskCacheStorage<PosterImage>, option: CacheOption = .all
    ) {
        self.memory = memory
        self.disk = disk
        self.option = option
    }

    /// `ImageCache.default` over a folder.
    package static func standard(directory: String, now: @escaping () -> Date) throws -> ImageCache {
        ImageCache(
            memory: InMemoryCacheStorage(countLimit: 30, cacheExpiration: .seconds(300), cleanInterval: 180, now: now),
            disk: try OnDiskCacheStorage(directory: directory, countLimit: 100, cacheExpiration: .days(7), now: now))
    }

    private func tiers(_ option: CacheOption?) -> (memory: Bool, disk: Bool) {
        switch option ?? self.option {
        case .all: (true, true)
        case .memory: (true, false)
        case .disk: (false, true)
        }
    }

    package func store(_ image: PosterImage, for key: String, option: CacheOption? = nil) {
        let tiers = tiers(option)
        if tiers.memory { memory.store(image, for: key) }
        // A disk that cannot be written only loses the cache, never the statement.
        if tiers.disk { try? disk.store(image, for: key) }
    }

    package func retrieveImage(for key: String) -> (image: PosterImage, tier: Tier)? {
        if let image = memory.value(for: key) { return (image, .memory) }
        if let image = try? disk.value(for: key) {
            memory.store(image, for: key)
            return (image, .disk)
        }
        return nil
    }

    package func isCached(for key: String) -> Bool { memory.isCached(for: key) || disk.isCached(for: key) }

    package func removeImage(for key: String, option: CacheOption? = nil) {
        let tiers = tiers(option)
        if tiers.memory { memory.removeValue(for: key) }
        if tiers.disk { disk.removeValue(for: key) }
    }

    package func removeAll(option: CacheOption? = nil) {
        let tiers = tiers(option)
        if tiers.memory { memory.removeAll() }
        if tiers.disk { try? disk.removeAll() }
    }

    package func removeExpired(option: CacheOption? = nil) {
        let tiers = tiers(option)
        if tiers.memory { memory.removeExpired() }
        if tiers.disk { disk.removeExpired() }
    }
}

extension String {
    /// The app's `URL.cacheKey`: the path without its extension, `/` removed, `.` as `_`.
    package var cacheKey: String {
        guard let url = URL(string: self) else { return self }
        return url.deletingPathExtension().path.replacingOccurrences(of: "/", with: "")
            .replacingOccurrences(of: ".", with: "_")
    }
}
