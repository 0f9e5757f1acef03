import ClosetCore
import Testing

@testable import ClosetTables

/// `SpilledKeys` finds every key it was given and no other, across runs, a filter made again
/// larger, hashes shared by several keys, and undone places taken by newer keys.
@Suite struct SpilledKeysTests {
    /// A hash that two keys share now and then (every key below 2,000 shares one with its
    /// neighbour), so places are told apart by the key check alone.
    func hash(_ key: Int) -> UInt64 {
        key < 2_000 ? UInt64(key / 2) &* 0x9E37_79B9_7F4A_7C15 : UInt64(key) &* 0xBF58_476D_1CE4_E5B9
    }

    @Test func everyKeyIsFoundInItsRunAndNoOtherIs() throws {
        var keys = SpilledKeys(file: MemoryScratchFile(), expecting: 0)
        // Place p holds key `owner[p]`: keys are their places at first.
        var owner = Array(0..<100_000)
        for first in stride(from: 0, to: 100_000, by: 30_000) {
            let run = (first..<min(100_000, first + 30_000)).map { (key: hash($0), value: $0) }
            let added = keys.add(run)
            #expect(added)
        }
        // 100,000 keys where the filter was made for 65,536: it was made again, larger.
        #expect(keys.capacity >= 100_000)
        for key in stride(from: 0, to: 100_000, by: 7) + [0, 1, 1_998, 1_999, 99_999] {
            #expect(keys.place(of: hash(key)) { owner[$0] == key } == key)
        }
        #expect(keys.place(of: hash(1)) { owner[$0] == 0 } == 0)  // the shared hash: the key decides
        for missing in 100_000..<100_200 { #expect(keys.place(of: hash(missing)) { owner[$0] == missing } == nil) }
        // Undone from 90,000 on, then those places taken by other keys.
        keys.removed(from: 90_000)
        #expect(keys.place(of: hash(95_000)) { owner[$0] == 95_000 } == nil)
        let newer = (90_000..<95_000).map { $0 + 1_000_000 }
        for (offset, key) in newer.enumerated() { owner[90_000 + offset] = key }
        let added = keys.add(newer.enumerated().map { (key: hash($1), value: 90_000 + $0) })
        #expect(added)
        #expect(keys.place(of: hash(1_090_010)) { owner[$0] == 1_090_010 } == 90_010)
        #expect(keys.place(of: hash(90_010)) { owner[$0] == 90_010 } == nil)
        #expect(keys.place(of: hash(89_999)) { owner[$0] == 89_999 } == 89_999)
    }

    @Test func aFilterMadeForAMillionKeysRulesOutOthers() {
        var keys = SpilledKeys(file: MemoryScratchFile(), expecting: 1 << 20)
        let added = keys.add((0..<5_000).map { (key: hash($0 + 10_000), value: $0) })
        #expect(added)
        #expect((0..<5_000).allSatisfy { keys.mayContain(hash($0 + 10_000)) })
        #expect((0..<5_000).filter { keys.mayContain(hash($0 + 50_000)) }.count < 50)
        #expect(keys.place(of: hash(14_999)) { $0 == 4_999 } == 4_999)
    }

    @Test func aFileThatRefusesTheRunKeepsNothing() {
        let file = MemoryScratchFile()
        var keys = SpilledKeys(file: file, expecting: 0)
        let first = keys.add([(key: 5, value: 0)])
        file.refusesWrites = true
        let refused = keys.add([(key: 6, value: 1)])
        #expect(first && !refused)
        #expect(keys.runs.count == 1)
        #expect(keys.place(of: 5) { $0 == 0 } == 0)
    }
}
