/// What a cache tier counts for `cache stats`.
public struct CacheCounters: Equatable, Sendable {
    public var hits = 0
    public var misses = 0
    /// Entries removed to stay under the count limit.
    public var evictions = 0
    /// Entries removed because their time was up.
    public var expired = 0

    public init() {}
}
