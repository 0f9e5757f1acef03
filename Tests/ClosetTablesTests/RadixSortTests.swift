import ClosetCore
import ClosetTables
import TestSupport
import Testing

/// The snapshot index's radix sort orders as a stable comparison sort does: on keys drawn
/// from few values (many ties), from every width (bytes that all items share are skipped),
/// and from the whole range (the top bit set), at sizes around its early exits.
@Suite struct RadixSortTests {
    @Test func ordersAsAStableComparisonSort() {
        var random = SeededRandom(seed: 24)
        for round in 0..<400 {
            let count = [0, 1, 2, 3, 17, 256, 1_000, 5_000][round % 8]
            let width = UInt64(round % 9) * 8
            var items: [(key: UInt64, value: Int)] = []
            for value in 0..<count {
                var key = UInt64.random(in: 0...UInt64.max, using: &random)
                key = width == 64 ? key : key & ((1 << width) - 1)
                if round % 3 == 0 { key %= 7 }  // many equal keys
                if round % 5 == 0 { key |= 0xAB00_0000_0000_0000 }  // a shared top byte
                items.append((key, value))
            }
            var sorted = items
            RadixSort.sortByKey(&sorted)
            let expected = items.sorted { $0.key < $1.key }
            #expect(sorted.map(\.key) == expected.map(\.key), "round \(round)")
            #expect(sorted.map(\.value) == expected.map(\.value), "round \(round): equal keys keep their order")
        }
    }
}
