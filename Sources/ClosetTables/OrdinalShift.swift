/// Where each snapshot row lands in a compaction's new section once some rows are dropped: a
/// bit per dropped row and how many were dropped before each 64, so a kept row's new ordinal
/// is its old one less a count and a population count. The key order and the bucket lists
/// ask in their own orders, at random over the rows: a table of every row's new ordinal (400 KB
/// at 100,000 rows) missed the cache at nearly every entry, a third of the copy's time; these
/// are 19 KB.
@usableFromInline struct OrdinalShift {
    @usableFromInline var dropped: [UInt64]
    /// Dropped rows in the words before each word.
    @usableFromInline var before: [Int32]

    /// `ordinals`: the dropped rows, each below `count`, in any order.
    @usableFromInline init(count: Int, dropping ordinals: [Int]) {
        let words = (max(0, count) + 63) / 64
        dropped = [UInt64](repeating: 0, count: words)
        before = [Int32](repeating: 0, count: words)
        for ordinal in ordinals where ordinal >= 0 && ordinal < count {
            dropped[ordinal >> 6] |= 1 << UInt64(ordinal & 63)
        }
        var total: Int32 = 0
        for word in 0..<words {
            before[word] = total
            total += Int32(dropped[word].nonzeroBitCount)
        }
    }

    @inlinable func isDropped(_ ordinal: Int) -> Bool { dropped[ordinal >> 6] & (1 << UInt64(ordinal & 63)) != 0 }

    /// A kept row's ordinal in the new section (rows keep their order).
    @inlinable func newOrdinal(_ ordinal: Int) -> Int {
        let word = ordinal >> 6
        let below = dropped[word] & ((1 << UInt64(ordinal & 63)) &- 1)
        return ordinal - Int(before[word]) - below.nonzeroBitCount
    }
}
