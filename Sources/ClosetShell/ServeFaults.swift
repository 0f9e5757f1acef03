import ClosetCore
import ClosetNetwork
import Foundation

/// `--latency`, `--fail`, `--drop` and `--seed`: faults on purpose, for the apps' error paths,
/// the same sequence for the same seed (SplitMix64). A failed request is never run: the API's
/// own error answers it instead, so nothing is half-written.
struct ServeFaults {
    var latency: ClosedRange<Int>?
    var failRate: Double
    var dropRate: Double
    private var stream: SplitMix64

    init(_ options: ServeOptions) {
        latency = options.latency
        failRate = options.failRate
        dropRate = options.dropRate
        stream = SplitMix64(seed: options.seed &+ 0x9E37_79B9_7F4A_7C15)
    }

    var isNone: Bool { latency == nil && failRate == 0 && dropRate == 0 }

    mutating func next() -> UInt64 { stream.next() }

    /// A number in [0, 1).
    mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }

    struct Draw {
        var delay: Double = 0
        var fail = false
        var drop = false

        /// What the request log says of it: `latency 120ms`, `fail`, `drop`.
        var names: [String] {
            var names: [String] = []
            if delay > 0 { names.append("latency \(Int((delay * 1000).rounded()))ms") }
            if fail { names.append("fail") }
            if drop { names.append("drop") }
            return names
        }
    }

    /// The faults of the next request: every draw made, whatever the rates, so one flag does
    /// not change the others' sequence.
    mutating func draw() -> Draw {
        let (latencyDraw, failDraw, dropDraw) = (next(), unit(), unit())
        var draw = Draw()
        if let latency {
            let span = UInt64(latency.upperBound - latency.lowerBound + 1)
            draw.delay = Double(latency.lowerBound + Int(latencyDraw % span)) / 1000
        }
        draw.fail = failDraw < failRate
        draw.drop = !draw.fail && dropDraw < dropRate
        return draw
    }
}
