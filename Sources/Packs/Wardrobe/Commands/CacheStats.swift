import ClosetCore
import ClosetLanguage
import Foundation

/// `cache stats`: the image cache (the app's `ImageCacheManager`), which `show` reads
/// pictures through. Limits are exact and eviction is least-recently-used first.
enum CacheStats {
    static let spec = CommandSpec(
        path: ["cache", "stats"],
        summary: "show the image cache: entries, bytes, limits, hits, misses, evictions",
        examples: ["cache stats"],
        run: { try statistics(of: $0.state(WardrobeState.self).imageCache) })

    /// What `cache stats` reports (SPEC §6 key order).
    static func statistics(of cache: ImageCacheManager) -> Outcome {
        CacheFigures(
            count: cache.count, bytes: cache.totalBytes, countLimit: cache.countLimit, byteLimit: cache.byteLimit,
            hits: cache.hits, misses: cache.misses, evictions: cache.evictions
        ).outcome
    }
}
