import ClosetCore

extension SlotRows {
    /// The decoded rows of the given groups of the index's buckets, as `Table.orderedRows`
    /// gives them, from the slots of each bucket sorted once per table revision.
    @inlinable mutating func ordered(
        by index: TableIndex<Codec>, revision: Int, groups: [[Int]], descending: Bool, after: Int64?, skip: Int,
        limit: Int
    ) -> [Row] {
        if sortedBuckets?.revision != revision {
            var lists = [[Int]](repeating: [], count: index.bucketCount)
            var orders = [Int64](repeating: 0, count: slots.count)
            for (slot, entry) in slots.enumerated() {
                guard let row = entry?.row else { continue }
                let bucket = index.bucket(row)
                guard (0..<index.bucketCount).contains(bucket) else { continue }
                orders[slot] = index.order(row)
                lists[bucket].append(slot)
            }
            for bucket in lists.indices {
                lists[bucket].sort { orders[$0] != orders[$1] ? orders[$0] > orders[$1] : $0 > $1 }
            }
            sortedBuckets = (revision, lists)
        }
        let lists = sortedBuckets?.lists ?? []
        var result: [Row] = []
        var remaining = max(0, limit)
        var toSkip = max(0, skip)
        for group in groups where remaining > 0 {
            let members = group.filter { lists.indices.contains($0) }
            // Each list walked from its front (descending) or back (ascending), from the first
            // member after `after` (binary search).
            var taken = members.map { bucket -> Int in
                guard let after else { return 0 }
                let list = lists[bucket]
                var (low, high) = (0, list.count)
                while low < high {
                    let middle = (low + high) / 2
                    let slot = descending ? list[middle] : list[list.count - 1 - middle]
                    if let row = slots[slot]?.row, BucketCursor.isAfter(index.order(row), after, descending) {
                        high = middle
                    } else {
                        low = middle + 1
                    }
                }
                return low
            }
            func head(_ number: Int) -> Int? {
                let list = lists[members[number]]
                guard taken[number] < list.count else { return nil }
                return descending ? list[taken[number]] : list[list.count - 1 - taken[number]]
            }
            while remaining > 0 {
                var best: (number: Int, slot: Int, order: Int64)?
                for number in members.indices {
                    guard let slot = head(number), let row = slots[slot]?.row else { continue }
                    let order = index.order(row)
                    let first =
                        best.map { best in
                            descending
                                ? (order != best.order ? order > best.order : slot > best.slot)
                                : (order != best.order ? order < best.order : slot < best.slot)
                        } ?? true
                    if first { best = (number, slot, order) }
                }
                guard let best, let row = slots[best.slot]?.row else { break }
                taken[best.number] += 1
                if toSkip > 0 {
                    toSkip -= 1
                } else {
                    result.append(row)
                    remaining -= 1
                }
            }
        }
        return result
    }
}
