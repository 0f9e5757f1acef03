import ClosetCore
import ClosetLanguage
import Foundation

/// `cache limit count=<n> bytes=<size>`: set the image cache's limits; evicts at once.
enum CacheLimit {
    static let spec = CommandSpec(
        path: ["cache", "limit"],
        summary: "set the image cache's count and byte limits (evicts at once)",
        keys: [
            KeySpec("count", .count, "how many pictures at most (default 100)"),
            KeySpec("bytes", .size, "how many bytes at most (default 200MB)"),
        ],
        examples: ["cache limit count=3", "cache limit bytes=50MB"],
        needsOneOf: ["count", "bytes"],
        run: { invocation in
            let cache = try invocation.state(WardrobeState.self).imageCache
            if let count = invocation.count("count") { cache.countLimit = count }
            if let bytes = invocation.size("bytes") { cache.byteLimit = bytes }
            return CacheStats.statistics(of: cache)
        })
}
