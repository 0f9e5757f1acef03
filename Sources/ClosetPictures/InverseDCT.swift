import ClosetCore
import Foundation

/// The 8×8 inverse DCT of T.81 (A.3.3), in floating point and separable: rows of eight samples
/// at a time as `SIMD8`, zero coefficients skipped. Exact to rounding, so within one step of
/// libjpeg's integer transform.
enum InverseDCT {
    /// `basis[u]`: the u-th cosine over the eight positions, `C(u)/2 · cos((2x+1)uπ/16)`.
    static let basis: [SIMD8<Float>] = (0..<8).map { u in
        var row = SIMD8<Float>()
        for x in 0..<8 {
            let scale: Double = u == 0 ? 1 / 2.0.squareRoot() : 1
            let angle = Double((2 * x + 1) * u) * Double.pi / 16
            row[x] = Float(scale / 2 * cos(angle))
        }
        return row
    }

    /// For a block reduced to `side` samples a side (4, 2): `reduced[side][u]` is the u-th
    /// cosine averaged over each run of `8 / side` positions, so the reduced block is exactly the
    /// box average of the full transform (what libjpeg's reduced transforms approximate, and why
    /// they can leave out the frequencies whose averages vanish).
    static let reduced: [[SIMD8<Float>]] = (0...8).map { side in
        guard side == 2 || side == 4 else { return [] }
        let run = 8 / side
        return basis.map { full in
            var row = SIMD8<Float>()
            for x in 0..<side { row[x] = (0..<run).reduce(0) { $0 + full[x * run + $1] } / Float(run) }
            return row
        }
    }

    /// One block's coefficients (`coefficients[at..<at+64]`, row by row) times `table`, into
    /// `side` rows of `side` samples at `out[outAt...]`, `stride` apart: 8 at full size, 4, 2 or
    /// 1 a side reduced (1: the DC alone, the block's mean).
    @inline(__always)
    static func transform(
        _ coefficients: UnsafeBufferPointer<Int16>, at: Int, table: [Float],
        into out: UnsafeMutableBufferPointer<UInt8>,
        at outAt: Int, stride: Int, side: Int = 8
    ) {
        if side == 1 {
            out[outAt] = UInt8(min(max(Float(coefficients[at]) * table[0] / 8 + 128.5, 0), 255))
            return
        }
        if side != 8 {
            transformReduced(coefficients, at: at, table: table, into: out, at: outAt, stride: stride, side: side)
            return
        }
        var rows = (
            SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(),
            SIMD8<Float>(), SIMD8<Float>()
        )
        var used: UInt8 = 0
        basis.withUnsafeBufferPointer { basis in
            withUnsafeMutableBytes(of: &rows) { raw in
                let horizontal = raw.bindMemory(to: SIMD8<Float>.self)
                // Along each row of frequencies: H[u] = Σ_v F[u][v] · basis[v].
                for u in 0..<8 {
                    var sum = SIMD8<Float>()
                    for v in 0..<8 {
                        let coefficient = coefficients[at + u * 8 + v]
                        if coefficient != 0 { sum += Float(coefficient) * table[u * 8 + v] * basis[v] }
                    }
                    if sum != SIMD8<Float>() { used |= 1 << UInt8(u) }
                    horizontal[u] = sum
                }
                // Down the columns: f[y] = Σ_u basis[u][y] · H[u], then level-shifted by 128.
                for y in 0..<8 {
                    // 128.5: the level shift, and a half so that truncating rounds.
                    var sum = SIMD8<Float>(repeating: 128.5)
                    for u in 0..<8 where used & (1 << UInt8(u)) != 0 { sum += basis[u][y] * horizontal[u] }
                    // Lane by lane: a scalar conversion is one instruction, the vector one is not.
                    let base = outAt + y * stride
                    for x in 0..<8 { out[base + x] = UInt8(min(max(sum[x], 0), 255)) }
                }
            }
        }
    }

    /// The transform to 4 or 2 samples a side, through the averaged cosines.
    static func transformReduced(
        _ coefficients: UnsafeBufferPointer<Int16>, at: Int, table: [Float],
        into out: UnsafeMutableBufferPointer<UInt8>, at outAt: Int, stride: Int, side: Int
    ) {
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 8) { horizontal in
            reduced[side].withUnsafeBufferPointer { basis in
                for u in 0..<8 {
                    var sum = SIMD8<Float>()
                    for v in 0..<8 {
                        let coefficient = coefficients[at + u * 8 + v]
                        if coefficient != 0 { sum += Float(coefficient) * table[u * 8 + v] * basis[v] }
                    }
                    horizontal[u] = sum
                }
                for y in 0..<side {
                    var sum = SIMD8<Float>(repeating: 128.5)
                    for u in 0..<8 { sum += basis[u][y] * horizontal[u] }
                    let base = outAt + y * stride
                    for x in 0..<side { out[base + x] = UInt8(min(max(sum[x], 0), 255)) }
                }
            }
        }
    }
}
