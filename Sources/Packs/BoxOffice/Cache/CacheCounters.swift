/// What a cache tier counts for `cache stats`.
struct CacheCounters: Equatable, Sendable {
    package var hits = 0
    package var misses = 0
    /// Entries removed to stay under the count limit.
    package var evictions = 0
    /// Entries removed because their time was up.
    package var expired = 0

    package init() {}
}
