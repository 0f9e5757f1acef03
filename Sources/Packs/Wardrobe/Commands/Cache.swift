import ClosetCore
import ClosetLanguage
import Foundation

/// `cache stats | limit | clear`: the image cache (the app's `ImageCacheManager`). Limits are
/// exact and eviction is least-recently-used first.
enum CacheCommands {
    static let stats = CommandSpec(
        path: ["cache", "stats"],
        summary: "show the image cache: entries, bytes, limits, hits, misses, evictions",
        examples: ["cache stats"],
        run: { try statistics(of: $0.state(WardrobeState.self).imageCache) })

    static let limit = CommandSpec(
        path: ["cache", "limit"],
        summary: "set the image cache's count and byte limits (evicts at once)",
        keys: [
            KeySpec("count", .count, "how many pictures at most (default 100)"),
            KeySpec("bytes", .size, "how many bytes at most (default 200MB)"),
        ],
        examples: ["cache limit count=3", "cache limit bytes=50MB"],
        run: { invocation in
            let cache = try invocation.state(WardrobeState.self).imageCache
            guard invocation.count("count") != nil || invocation.size("bytes") != nil else {
                throw Diagnostic("give count=<n>, bytes=<size> or both", at: invocation.call.range)
            }
            if let count = invocation.count("count") { cache.countLimit = count }
            if let bytes = invocation.size("bytes") { cache.byteLimit = bytes }
            return statistics(of: cache)
        })

    static let clear = CommandSpec(
        path: ["cache", "clear"],
        summary: "empty the image cache (the counters keep counting)",
        examples: ["cache clear"],
        run: { invocation in
            let cache = try invocation.state(WardrobeState.self).imageCache
            cache.removeAll()
            return statistics(of: cache)
        })

    /// What `cache stats` reports (SPEC §6 key order).
    static func statistics(of cache: ImageCacheManager) -> Outcome {
        .fields([
            Field("count", .integer(cache.count)), Field("bytes", .integer(cache.totalBytes)),
            Field("countLimit", .integer(cache.countLimit)), Field("byteLimit", .integer(cache.byteLimit)),
            Field("hits", .integer(cache.hits)), Field("misses", .integer(cache.misses)),
            Field("evictions", .integer(cache.evictions)),
        ])
    }
}
