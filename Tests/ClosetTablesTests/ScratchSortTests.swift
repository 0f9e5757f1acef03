import ClosetCore
import Testing

@testable import ClosetTables

/// `ScratchSort` gives back every record it took, in the order sorting their keys' bytes gives,
/// however many runs they went out in; `ScratchBytes` gives back every byte it took, in a file
/// or, once the file refuses, in memory.
@Suite struct ScratchSortTests {
    /// Keys that share long starts (equal eight-byte prefixes, told apart past them), keys that
    /// are starts of others, the empty key, and random bytes.
    func keys(_ count: Int, seed: UInt64) -> [[UInt8]] {
        var random = SplitMix64(seed: seed)
        var made = Set<[UInt8]>()
        while made.count < count {
            switch random.next() % 4 {
            case 0: made.insert(Array("same long start \(random.next() % 5_000)".utf8))
            case 1: made.insert(Array("k\(random.next() % 300)".utf8))
            case 2: made.insert((0..<(random.next() % 20)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
            default: made.insert(Array("same long start".utf8))
            }
        }
        return Array(made)
    }

    func sorted(_ sort: ScratchSort) -> [(key: [UInt8], payload: UInt64)] {
        var out: [(key: [UInt8], payload: UInt64)] = []
        sort.forEachSorted { key, payload in out.append((Array(key), payload)) }
        return out
    }

    func reference(_ keys: [[UInt8]]) -> [(key: [UInt8], payload: UInt64)] {
        keys.enumerated().map { ($0.element, UInt64($0.offset) &* 3) }.sorted {
            $0.key.lexicographicallyPrecedes($1.key)
        }
    }

    @Test(arguments: [(64, 0), (700, 1), (1 << 20, 2)] as [(Int, UInt64)])
    func recordsComeBackInKeyOrderFromAnyNumberOfRuns(chunkBytes: Int, seed: UInt64) {
        let keys = keys(3_000, seed: seed)
        let file = MemoryScratchFile()
        let sort = ScratchSort(file: file, chunkBytes: chunkBytes)
        for (number, key) in keys.enumerated() {
            key.withUnsafeBytes { sort.add(key: $0, payload: UInt64(number) &* 3) }
        }
        #expect(sort.count == keys.count)
        let out = sorted(sort)
        let expected = reference(keys)
        #expect(out.map(\.key) == expected.map(\.key))
        #expect(out.map(\.payload) == expected.map(\.payload))
        // One chunk is sorted where it lies; more go out to the file as runs.
        #expect((file.writes > 0) == (chunkBytes < 1 << 20))
    }

    @Test func keysLongerThanAReadersBufferAreReadWhole() {
        let sort = ScratchSort(file: MemoryScratchFile(), chunkBytes: 100)
        let keys: [[UInt8]] = [
            [UInt8](repeating: 7, count: Int(UInt16.max)), [UInt8](repeating: 7, count: 65_000),
            [1, 2, 3], [UInt8](repeating: 9, count: 40_000), [],
        ]
        for (number, key) in keys.enumerated() {
            key.withUnsafeBytes { sort.add(key: $0, payload: UInt64(number) &* 3) }
        }
        #expect(sorted(sort).map(\.key) == reference(keys).map(\.key))
    }

    @Test func withoutAFileOrWithOneThatFillsUpTheRecordsAreAllKept() {
        let keys = keys(2_000, seed: 9)
        let filling = MemoryScratchFile()
        filling.refusesAfter = 2
        for file in [nil, filling] as [MemoryScratchFile?] {
            let sort = ScratchSort(file: file, chunkBytes: 500)
            for (number, key) in keys.enumerated() {
                key.withUnsafeBytes { sort.add(key: $0, payload: UInt64(number) &* 3) }
            }
            let out = sorted(sort)
            #expect(out.map(\.key) == reference(keys).map(\.key))
            #expect(out.map(\.payload) == reference(keys).map(\.payload))
        }
        #expect(filling.writes == 2)
    }

    @Test func scratchBytesReadBackFromTheFileFromMemoryAndAcrossBoth() {
        let filling = MemoryScratchFile()
        filling.refusesAfter = 3
        let pieces = ScratchBytes.pieceSize
        for file in [MemoryScratchFile(), filling, nil] as [MemoryScratchFile?] {
            let bytes = ScratchBytes(file: file)
            var expected: [UInt8] = []
            var random = SplitMix64(seed: 4)
            for _ in 0..<(5 * pieces / 8 + 3) {
                let value = random.next()
                bytes.append(littleEndian: value)
                withUnsafeBytes(of: value.littleEndian) { expected += $0 }
            }
            #expect(bytes.count == expected.count)
            for (offset, length) in [
                (0, expected.count), (pieces - 5, 10), (3 * pieces + 1, pieces), (expected.count - 9, 9),
            ] {
                var read = [UInt8](repeating: 0, count: length)
                read.withUnsafeMutableBytes { bytes.read(into: $0, at: offset) }
                #expect(read == Array(expected[offset..<(offset + length)]))
            }
            var writer = ByteWriter()
            bytes.copy(into: &writer)
            #expect(writer.bytes == expected)
        }
        #expect(filling.writes == 3)
    }
}
