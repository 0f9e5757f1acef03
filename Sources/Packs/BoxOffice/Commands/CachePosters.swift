import ClosetCore
import ClosetLanguage

/// `cache stats posters`: both tiers of the poster cache.
enum CacheStatsPosters {
    static let spec = CommandSpec(
        path: ["cache", "stats", "posters"],
        summary: "show the poster cache per tier: entries, bytes, limits, hits, misses, evictions, expired",
        examples: ["cache stats posters"],
        run: { invocation in try statistics(invocation.state(BoxOfficeState.self).provider().cache) })

    static func statistics(_ cache: ImageCache) -> Outcome {
        CacheFigures.tiers(
            memory: BoxOfficeRecords.tier(
                count: cache.memory.count, bytes: cache.memory.bytes, countLimit: cache.memory.countLimit,
                expiry: cache.memory.cacheExpiration, counters: cache.memory.counters),
            disk: BoxOfficeRecords.tier(
                count: cache.disk.count, bytes: cache.disk.bytes, countLimit: cache.disk.countLimit,
                expiry: cache.disk.cacheExpiration, counters: cache.disk.counters))
    }
}

/// `cache clear posters [tier=memory|disk]`: empties one tier or both.
enum CacheClearPosters {
    static let spec = CommandSpec(
        path: ["cache", "clear", "posters"],
        summary: "empty the poster cache, or one tier of it (the counters keep counting)",
        keys: [KeySpec("tier", .text, "memory or disk (default both)")],
        examples: ["cache clear posters", "cache clear posters tier=memory"],
        run: { invocation in
            let cache = try invocation.state(BoxOfficeState.self).provider().cache
            var option = ImageCache.CacheOption.all
            if let argument = invocation.argument("tier"), let text = invocation.text("tier") {
                guard let tier = ImageCache.CacheOption(rawValue: text.lowercased()), tier != .all else {
                    throw Diagnostic.unknown(
                        "tier", text, at: argument.range, among: ["memory", "disk"], hint: "use memory or disk")
                }
                option = tier
            }
            cache.removeAll(option: option)
            return CacheStatsPosters.statistics(cache)
        })
}
