import ClosetCore

/// The whole section checked at once (`.check`): what reading in place checks only for the
/// rows and index entries a statement touches. Run after every block passed its checksum, so
/// only a file made to look valid (or a bug) can fail here.
extension SnapshotRows {
    /// What does not add up in the row frames and the index; nil when everything does.
    public func indexProblem() -> String? {
        // The rows: framed one after another, each offset where the row before it ends.
        let rowsLength = rowsEnd - rowsStart
        var keys: [Range<Int>] = []
        keys.reserveCapacity(count)
        var offset = 0
        for ordinal in 0..<count {
            guard load(UInt64.self, offsetsStart + ordinal * 8) == UInt64(offset) else {
                return "row \(ordinal)'s offset is not where the row before it ends"
            }
            guard rowsLength - offset >= 6 else { return "row \(ordinal) runs past the rows" }
            let at = rowsStart + offset
            let keyLength = Int(load(UInt16.self, at))
            guard rowsLength - offset - 6 >= keyLength else { return "row \(ordinal) runs past the rows" }
            let rowLength = Int(load(UInt32.self, at + 2 + keyLength))
            guard rowsLength - offset - 6 - keyLength >= rowLength else { return "row \(ordinal) runs past the rows" }
            keys.append((at + 2)..<(at + 2 + keyLength))
            offset += 6 + keyLength + rowLength
        }
        guard offset == rowsLength else { return "bytes follow the last row" }
        // Keys: every ordinal once, in strictly increasing key order, each with its prefix.
        var previous: Int?
        var seen = [Bool](repeating: false, count: count)
        for position in 0..<count {
            let at = sortedKeysStart + position * layout.keyEntrySize
            let ordinal = Int(load(UInt32.self, at + layout.keyOrdinalOffset))
            guard ordinal < count, !seen[ordinal] else {
                return "the key order names a row twice or one that is not there"
            }
            seen[ordinal] = true
            blocks?.verify(keys[ordinal])
            if let prefix = keyPrefix(at: position),
                prefix != SnapshotSection.keyPrefix(UnsafeRawBufferPointer(rebasing: memory[keys[ordinal]]))
            {
                return "the key order gives row \(ordinal) a prefix that is not its key's"
            }
            if let previous {
                let order = SnapshotSection.compare(
                    UnsafeRawBufferPointer(rebasing: memory[keys[previous]]),
                    UnsafeRawBufferPointer(rebasing: memory[keys[ordinal]]))
                guard order < 0 else { return "the key order is not sorted, or a key is there twice" }
            }
            previous = ordinal
        }
        return bucketCount > 0 ? bucketProblem(keys) : nil
    }

    /// Buckets: every row in the list of its own bucket once, each list by order key descending,
    /// each entry's order key and offset (format 5) the row's (`keys`: where each row's key
    /// lies, two bytes into its frame).
    private func bucketProblem(_ keys: [Range<Int>]) -> String? {
        var seen = [Bool](repeating: false, count: count)
        var start = 0
        for bucket in 0..<bucketCount {
            guard Int(load(UInt32.self, bucketStartsStart + bucket * 4)) == start else {
                return "bucket \(bucket) does not start where the one before it ends"
            }
            let end = Int(load(UInt32.self, bucketStartsStart + (bucket + 1) * 4))
            guard end >= start, end <= count else { return "bucket \(bucket) runs past the rows" }
            var last: (order: Int64, ordinal: Int)?
            for index in start..<end {
                let at = bucketListsStart + index * layout.bucketEntrySize
                let ordinal = Int(load(UInt32.self, at))
                guard ordinal < count, !seen[ordinal], Int(load(UInt8.self, bucketsStart + ordinal)) == bucket else {
                    return "bucket \(bucket) lists a row twice, one that is not there, or one of another bucket"
                }
                seen[ordinal] = true
                let order = load(Int64.self, ordersStart + ordinal * 8)
                switch layout {
                case .formatFour:
                    break
                case .formatFive:
                    guard load(Int64.self, at + 4) == order,
                        load(UInt64.self, at + 12) == UInt64(keys[ordinal].lowerBound - 2 - rowsStart)
                    else {
                        return "bucket \(bucket) gives row \(ordinal) an order key or offset that is not its own"
                    }
                }
                if let last, order > last.order || (order == last.order && ordinal > last.ordinal) {
                    return "bucket \(bucket) is not in order"
                }
                last = (order, ordinal)
            }
            start = end
        }
        return start == count ? nil : "the buckets do not hold every row"
    }
}
