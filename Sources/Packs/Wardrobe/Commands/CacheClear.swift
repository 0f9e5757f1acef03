import ClosetCore
import ClosetLanguage
import Foundation

/// `cache clear`: empty the image cache; its counters keep counting.
enum CacheClear {
    static let spec = CommandSpec(
        path: ["cache", "clear"],
        summary: "empty the image cache (the counters keep counting)",
        examples: ["cache clear"],
        run: { invocation in
            let cache = try invocation.state(WardrobeState.self).imageCache
            cache.removeAll()
            return CacheStats.statistics(of: cache)
        })
}
