import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Where new entities get their id.
public protocol IDGenerator: AnyObject {
    func next() -> UUID
    /// Whether its ids can repeat ids already stored: a seeded sequence starts over in every
    /// process; 122 random bits do not repeat.
    var mayRepeat: Bool { get }
}

/// Random version-4 UUIDs from the kernel's generator, fetched in batches through one open
/// /dev/urandom. Foundation's `UUID()` on Linux opens /dev/urandom for every id, and even one
/// getrandom call per word was a tenth of a 100,000-row seed replay. Batches start at 4 KB (a
/// statement that makes one id reads no more) and double to 64 KB: an import of 100,000 rows
/// had opened, read and closed the device 391 times.
public final class RandomIDGenerator: IDGenerator {
    public var mayRepeat: Bool { false }

    private static let firstBatch = 512
    private static let largestBatch = 8192
    private var words: [UInt64] = []
    private var used = 0
    private var device: Int32 = -1

    public init() {}

    deinit { if device >= 0 { close(device) } }

    public func next() -> UUID {
        if used + 2 > words.count { refill() }
        defer { used += 2 }
        return UUID.version4(high: words[used], low: words[used + 1])
    }

    private func refill() {
        let batch = words.isEmpty ? Self.firstBatch : min(words.count * 2, Self.largestBatch)
        words = [UInt64](repeating: 0, count: batch)
        if device < 0 { device = open("/dev/urandom", O_RDONLY | O_CLOEXEC) }
        let filled = device < 0 ? -1 : words.withUnsafeMutableBytes { read(device, $0.baseAddress, $0.count) }
        if filled != batch * 8 {
            var system = SystemRandomNumberGenerator()  // no /dev/urandom: one call per word
            for i in words.indices { words[i] = system.next() }
        }
        used = 0
    }
}

extension UUID {
    /// A version-4, RFC 4122 variant UUID from 128 bits.
    static func version4(high: UInt64, low: UInt64) -> UUID {
        // The 16 bytes in order, high word first, without an array per id.
        let words = (high.bigEndian, low.bigEndian)
        var uuid = withUnsafeBytes(of: words) { $0.loadUnaligned(as: uuid_t.self) }
        uuid.6 = (uuid.6 & 0x0F) | 0x40  // version 4
        uuid.8 = (uuid.8 & 0x3F) | 0x80  // RFC 4122 variant
        return UUID(uuid: uuid)
    }

}

/// `--deterministic`: version-4-shaped UUIDs from a SplitMix64 stream seeded by `--seed`,
/// so the same script and seed give the same ids on every machine.
package final class SeededIDGenerator: IDGenerator {
    public var mayRepeat: Bool { true }

    private var stream: SplitMix64

    public init(seed: UInt64) { stream = SplitMix64(seed: seed) }

    private func nextWord() -> UInt64 { stream.next() }

    public func next() -> UUID {
        let high = nextWord()
        return UUID.version4(high: high, low: nextWord())
    }
}
