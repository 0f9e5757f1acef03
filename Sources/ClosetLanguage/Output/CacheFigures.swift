import ClosetCore

/// What `cache stats` says of one cache (or one tier of a two-tier cache), in one shape for
/// every pack: SPEC §6's keys in its order (`count`, `bytes`, `countLimit`, `byteLimit`, `hits`,
/// `misses`, `evictions`), a limit the cache does not have as null, then what only some caches
/// keep (`expirySeconds`, `expired`, `revalidated`) after them.
public struct CacheFigures: Sendable {
    public var count: Int
    public var bytes: Int
    public var countLimit: Int?
    public var byteLimit: Int?
    public var hits: Int
    public var misses: Int
    public var evictions: Int
    /// Figures only this cache keeps, in order (`expirySeconds`, `expired`, `revalidated`).
    public var extra: [(name: String, value: Int)]

    public init(
        count: Int, bytes: Int, countLimit: Int?, byteLimit: Int?, hits: Int, misses: Int, evictions: Int,
        extra: [(name: String, value: Int)] = []
    ) {
        self.count = count
        self.bytes = bytes
        self.countLimit = countLimit
        self.byteLimit = byteLimit
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
        self.extra = extra
    }

    public var fields: [Field] {
        [
            Field("count", .integer(count)), Field("bytes", .integer(bytes)),
            Field("countLimit", countLimit.map(FieldValue.integer) ?? .null),
            Field("byteLimit", byteLimit.map(FieldValue.integer) ?? .null), Field("hits", .integer(hits)),
            Field("misses", .integer(misses)), Field("evictions", .integer(evictions)),
        ] + extra.map { Field($0.name, .integer($0.value)) }
    }

    /// A one-tier cache's outcome.
    public var outcome: Outcome { .fields(fields) }

    /// A two-tier cache's outcome: each tier under its name, in one shape.
    public static func tiers(memory: CacheFigures, disk: CacheFigures) -> Outcome {
        .fields([Field("memory", .object(memory.fields)), Field("disk", .object(disk.fields))])
    }
}
