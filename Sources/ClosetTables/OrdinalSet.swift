/// Snapshot rows picked by their ordinals, a bit each: which rows a scan found (an eighth of a
/// megabyte for a million rows), read back by the index walk that orders them.
public struct OrdinalSet: Sendable {
    @usableFromInline var words: [UInt64]

    @inlinable public init(capacity: Int) { words = [UInt64](repeating: 0, count: (max(0, capacity) + 63) / 64) }

    @inlinable public mutating func insert(_ ordinal: Int) { words[ordinal >> 6] |= 1 << UInt64(ordinal & 63) }

    @inlinable public func contains(_ ordinal: Int) -> Bool {
        ordinal >= 0 && ordinal >> 6 < words.count && words[ordinal >> 6] & (1 << UInt64(ordinal & 63)) != 0
    }
}
