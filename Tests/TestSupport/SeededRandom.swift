import ClosetCore

/// The engine's SplitMix64 as a generator for property tests, so a failing case can be made
/// again from its seed.
package struct SeededRandom: RandomNumberGenerator {
    private var words: SplitMix64

    package init(seed: UInt64) { words = SplitMix64(seed: seed) }

    package mutating func next() -> UInt64 { words.next() }
}
