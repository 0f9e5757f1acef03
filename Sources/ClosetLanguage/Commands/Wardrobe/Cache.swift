import ClosetDomain

/// `cache stats | limit | clear`: the image cache (the app's `ImageCacheManager`). Limits are
/// exact and eviction is least-recently-used first.
enum CacheCommands {
    static let stats = CommandSpec(
        path: ["cache", "stats"],
        summary: "show the image cache: entries, bytes, limits, hits, misses, evictions",
        examples: ["cache stats"],
        run: { .cacheStats(CacheStatistics($0.session.imageCache)) })

    static let limit = CommandSpec(
        path: ["cache", "limit"],
        summary: "set the image cache's count and byte limits (evicts at once)",
        keys: [
            KeySpec("count", .count, "how many pictures at most (default 100)"),
            KeySpec("bytes", .size, "how many bytes at most (default 200MB)"),
        ],
        examples: ["cache limit count=3", "cache limit bytes=50MB"],
        run: { invocation in
            let cache = invocation.session.imageCache
            guard invocation.count("count") != nil || invocation.size("bytes") != nil else {
                throw Diagnostic("give count=<n>, bytes=<size> or both", at: invocation.call.range)
            }
            if let count = invocation.count("count") { cache.countLimit = count }
            if let bytes = invocation.size("bytes") { cache.byteLimit = bytes }
            return .cacheStats(CacheStatistics(cache))
        })

    static let clear = CommandSpec(
        path: ["cache", "clear"],
        summary: "empty the image cache (the counters keep counting)",
        examples: ["cache clear"],
        run: { invocation in
            invocation.session.imageCache.removeAll()
            return .cacheStats(CacheStatistics(invocation.session.imageCache))
        })
}
