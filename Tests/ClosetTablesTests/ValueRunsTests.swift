import ClosetCore
import Testing

@testable import ClosetTables

/// `ValueRuns` holds the numbers appended, in order, as an array would, in runs.
@Suite struct ValueRunsTests {
    @Test(arguments: [0, 1] as [UInt32]) func appendedNumbersComeBackAsAnArrayHoldsThem(step: UInt32) {
        var runs = ValueRuns(step: step)
        var array: [UInt32] = []
        var random = SplitMix64(seed: UInt64(step))
        var next: UInt32 = 0
        for _ in 0..<5_000 {
            switch random.next() % 10 {
            case 0..<6:
                // Mostly the value that continues the run, now and then another.
                let value = random.next() % 8 == 0 ? UInt32(truncatingIfNeeded: random.next() % 50) : next
                runs.append(value)
                array.append(value)
                next = value &+ step
            case 6..<9:
                #expect(runs.removeLast() == array.popLast())
                next = (array.last ?? 0) &+ step
            default:
                #expect(Array(runs) == array)
            }
            #expect(runs.count == array.count)
        }
        #expect(Array(runs) == array)
        #expect(runs.distinct == Set(array))
        // A run, not a number, for each break in the steps.
        #expect(runs.runs.count < array.count / 3)
        runs.removeAll()
        #expect(runs.isEmpty && runs.removeLast() == nil && Array(runs).isEmpty)
    }
}
