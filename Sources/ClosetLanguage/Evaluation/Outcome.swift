import ClosetDomain
import Foundation

/// What a statement produced, before any output format is chosen. Renderers switch over it.
public enum Outcome: Sendable {
    case clothes(Clothes)
    case clothesList([Clothes])
    case style(Style)
    case styles([Style])
    case count(Int)
    case removed(UUID)
    case cacheStats(CacheStatistics)
    /// `export` / `import`: how many rows went to or came from which file.
    case transferred(Transfer)
    /// Free text for people: help, notices. Printed as is in every format.
    case text(String)
    /// A small table of strings (`.vars`, `.store`), rendered like any other rows.
    case table(Grid)
    case nothing
}

/// Rows of text cells under named columns: what table, csv and line output draw.
public struct Grid: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[String]]
    /// Columns drawn right-aligned in a table (numbers).
    public var numericColumns: Set<Int>
    /// Whether a table ends with `(N rows)`: listings do, single entities do not.
    public var isListing: Bool

    public init(columns: [String], rows: [[String]], numericColumns: Set<Int> = [], isListing: Bool = false) {
        self.columns = columns
        self.rows = rows
        self.numericColumns = numericColumns
        self.isListing = isListing
    }
}

/// What `cache stats` reports (SPEC §6 key order).
public struct CacheStatistics: Sendable, Hashable {
    public var count, bytes, countLimit, byteLimit, hits, misses, evictions: Int

    public init(_ cache: ImageCacheManager) {
        count = cache.count
        bytes = cache.totalBytes
        countLimit = cache.countLimit
        byteLimit = cache.byteLimit
        hits = cache.hits
        misses = cache.misses
        evictions = cache.evictions
    }

    public var fields: [(String, Int)] {
        [("count", count), ("bytes", bytes), ("countLimit", countLimit), ("byteLimit", byteLimit),
         ("hits", hits), ("misses", misses), ("evictions", evictions)]
    }
}

/// What `export` and `import` report.
public struct Transfer: Sendable, Hashable {
    public enum Direction: String, Sendable { case exported, imported }
    public var direction: Direction
    public var count: Int
    public var path: String

    /// `{"exported":N,"to":"file"}` or `{"imported":N,"from":"file"}`.
    public var fields: [(String, String)] {
        [(direction.rawValue, String(count)), (direction == .exported ? "to" : "from", path)]
    }
}
