import ClosetCore

/// Sorting by a 64-bit key a byte at a time (least significant first), stable: what a
/// snapshot's index sorts (keys by their first eight bytes, a bucket's rows by order key).
/// Comparison sorting was a twentieth of replaying a seed script; this reads every item once
/// to count each byte's values and moves it once for each byte that is not the same in all.
package enum RadixSort {
    /// `items` ordered by `key` ascending; items with equal keys keep their order.
    package static func sortByKey(_ items: inout [(key: UInt64, value: Int)]) {
        let count = items.count
        guard count > 1 else { return }
        // How many items have each value of each byte, all eight bytes in one reading.
        var counts = [Int](repeating: 0, count: 8 * 256)
        counts.withUnsafeMutableBufferPointer { counts in
            for item in items {
                var key = item.key
                for byte in 0..<8 {
                    counts[byte &* 256 &+ Int(key & 0xFF)] &+= 1
                    key >>= 8
                }
            }
        }
        var scratch = items
        var sortedInScratch = false
        items.withUnsafeMutableBufferPointer { items in
            scratch.withUnsafeMutableBufferPointer { scratch in
                for byte in 0..<8 {
                    let first = byte * 256
                    // A byte every item shares orders nothing.
                    if counts[first + Int((items[0].key >> UInt64(8 * byte)) & 0xFF)] == count { continue }
                    var starts = [Int](repeating: 0, count: 256)
                    var total = 0
                    for value in 0..<256 {
                        starts[value] = total
                        total += counts[first + value]
                    }
                    let source = sortedInScratch ? scratch : items
                    let target = sortedInScratch ? items : scratch
                    let shift = UInt64(8 * byte)
                    starts.withUnsafeMutableBufferPointer { starts in
                        for index in 0..<count {
                            let value = Int((source[index].key >> shift) & 0xFF)
                            target[starts[value]] = source[index]
                            starts[value] &+= 1
                        }
                    }
                    sortedInScratch.toggle()
                }
            }
        }
        if sortedInScratch { items = scratch }
    }
}
