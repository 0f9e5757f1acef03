import ClosetCore
import ClosetLanguage

/// `cache stats dogs`, `cache limit dogs`, `cache clear dogs`: the dog-picture cache.
enum CacheDogs {
    static func statistics(_ cache: DogPictureCache) -> Outcome {
        func tier(count: Int, bytes: Int, limit: Int, counters: DogPictureCache.Counters) -> CacheFigures {
            CacheFigures(
                count: count, bytes: bytes, countLimit: nil, byteLimit: limit, hits: counters.hits,
                misses: counters.misses, evictions: counters.evictions, extra: [("revalidated", counters.revalidated)])
        }
        return CacheFigures.tiers(
            memory: tier(
                count: cache.memoryCount, bytes: cache.memoryBytes, limit: cache.memoryLimit,
                counters: cache.memoryCounters),
            disk: tier(
                count: cache.diskEntries.count, bytes: cache.diskBytes, limit: cache.diskLimit,
                counters: cache.diskCounters))
    }

    static let stats = CommandSpec(
        path: ["cache", "stats", "dogs"],
        summary: "show the dog-picture cache per tier: entries, bytes, byte limits, hits, misses, evictions, 304s",
        examples: ["cache stats dogs"],
        run: { invocation in statistics(try invocation.state(AdoptionState.self).pictures) })

    static let limit = CommandSpec(
        path: ["cache", "limit", "dogs"],
        summary: "set the dog-picture cache's byte limits (least recently used go first, at once)",
        keys: [
            KeySpec("bytes", .size, "the disk tier's limit (default 50MB)"),
            KeySpec("memory", .size, "the memory tier's limit (default 50MB)"),
        ],
        examples: ["cache limit dogs bytes=10MB", "cache limit dogs memory=2MB"],
        needsOneOf: ["bytes", "memory"],
        run: { invocation in
            let cache = try invocation.state(AdoptionState.self).pictures
            cache.setLimits(memory: invocation.size("memory"), disk: invocation.size("bytes"))
            return statistics(cache)
        })

    static let clear = CommandSpec(
        path: ["cache", "clear", "dogs"],
        summary: "empty the dog-picture cache, or one tier of it",
        keys: [KeySpec("tier", .text, "memory or disk (default both)")],
        examples: ["cache clear dogs", "cache clear dogs tier=disk"],
        run: { invocation in
            let cache = try invocation.state(AdoptionState.self).pictures
            var memory = true
            var disk = true
            if let argument = invocation.argument("tier"), let text = invocation.text("tier") {
                switch text.lowercased() {
                case "memory": disk = false
                case "disk": memory = false
                default:
                    throw Diagnostic.unknown(
                        "tier", text, at: argument.range, among: ["memory", "disk"], hint: "use memory or disk")
                }
            }
            cache.clear(memory: memory, disk: disk)
            return statistics(cache)
        })
}
