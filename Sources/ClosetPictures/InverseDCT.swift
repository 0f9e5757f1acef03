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

    /// For a block reduced to `side` samples a side (4, 2): the u-th cosine averaged over each
    /// run of `8 / side` positions, so the reduced block is exactly the box average of the full
    /// transform (what libjpeg's reduced transforms approximate). Eight vectors for side 4, then
    /// eight for side 2, in memory that lives as long as the process: the hot loop reads them
    /// with no reference counting (written once, then only read: safe to share).
    nonisolated(unsafe) static let reduced: UnsafePointer<SIMD8<Float>> = {
        let table = UnsafeMutablePointer<SIMD8<Float>>.allocate(capacity: 16)
        for (at, side) in [(0, 4), (8, 2)] {
            let run = 8 / side
            for u in 0..<8 {
                var row = SIMD8<Float>()
                for x in 0..<side { row[x] = (0..<run).reduce(0) { $0 + basis[u][x * run + $1] } / Float(run) }
                table[at + u] = row
            }
        }
        return UnsafePointer(table)
    }()

    /// The same averaged cosines as single numbers, `[u * 8 + x]`: 64 for side 4, then 64 for
    /// side 2, for a block with few coefficients (`transformSparse`).
    nonisolated(unsafe) static let reducedScalars: UnsafePointer<Float> = {
        let table = UnsafeMutablePointer<Float>.allocate(capacity: 128)
        for (at, vectors) in [(0, 0), (64, 8)] {
            for u in 0..<8 {
                for x in 0..<8 { table[at + u * 8 + x] = reduced[vectors + u][x] }
            }
        }
        return UnsafePointer(table)
    }()

    /// A reduced block (side 4 or 2) from its nonzero coefficients alone, `positions[0..<count]`
    /// in row-by-row order: each adds its averaged cosines' product to the few samples. A
    /// baseline block knows which coefficients it read, and most are zero.
    @inline(__always)
    static func transformSparse(
        _ block: UnsafeMutableBufferPointer<Int16>, positions: UnsafePointer<UInt8>, count: Int,
        table: UnsafePointer<Float>, into out: UnsafeMutableBufferPointer<UInt8>, at outAt: Int, stride: Int,
        side: Int
    ) {
        let basis = reducedScalars + (side == 4 ? 0 : 64)
        var sums = SIMD16<Float>(repeating: 128.5)
        for index in 0..<count {
            let position = Int(positions[index])
            let value = Float(block[position]) * table[position]
            let (u, v) = (position >> 3, position & 7)
            var across = SIMD4<Float>()
            for x in 0..<side { across[x] = basis[v * 8 + x] }
            for y in 0..<side {
                let scaled = across * (value * basis[u * 8 + y])
                for x in 0..<side { sums[y * 4 + x] += scaled[x] }
            }
        }
        for y in 0..<side {
            let base = outAt + y * stride
            for x in 0..<side { out[base + x] = UInt8(min(max(sums[y * 4 + x], 0), 255)) }
        }
    }

    /// The frequencies whose averaged cosine is not zero, as a bit mask per side (the even ones
    /// above 0 vanish at side 2, the fourth at side 4): the others are never multiplied.
    static let reducedFrequencies: (four: UInt8, two: UInt8) = {
        func mask(_ at: Int) -> UInt8 {
            (0..<8).reduce(UInt8(0)) { mask, u in
                (0..<8).contains { abs(reduced[at + u][$0]) > 1e-6 } ? mask | 1 << UInt8(u) : mask
            }
        }
        return (mask(0), mask(8))
    }()

    /// One block's coefficients (`coefficients[at..<at+64]`, row by row) times `table`, into
    /// `side` rows of `side` samples at `out[outAt...]`, `stride` apart: 8 at full size, 4, 2 or
    /// 1 a side reduced (1: the DC alone, the block's mean).
    @inline(__always)
    static func transform(
        _ coefficients: UnsafeBufferPointer<Int16>, at: Int, table: UnsafePointer<Float>,
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
        _ coefficients: UnsafeBufferPointer<Int16>, at: Int, table: UnsafePointer<Float>,
        into out: UnsafeMutableBufferPointer<UInt8>, at outAt: Int, stride: Int, side: Int
    ) {
        let basis = reduced + (side == 4 ? 0 : 8)
        let frequencies = side == 4 ? reducedFrequencies.four : reducedFrequencies.two
        var rows = (
            SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(), SIMD8<Float>(),
            SIMD8<Float>(), SIMD8<Float>()
        )
        var used: UInt8 = 0
        withUnsafeMutableBytes(of: &rows) { raw in
            let horizontal = raw.bindMemory(to: SIMD8<Float>.self)
            for u in 0..<8 where frequencies & (1 << UInt8(u)) != 0 {
                var sum = SIMD8<Float>()
                for v in 0..<8 where frequencies & (1 << UInt8(v)) != 0 {
                    let coefficient = coefficients[at + u * 8 + v]
                    if coefficient != 0 { sum += Float(coefficient) * table[u * 8 + v] * basis[v] }
                }
                if sum != SIMD8<Float>() { used |= 1 << UInt8(u) }
                horizontal[u] = sum
            }
            for y in 0..<side {
                var sum = SIMD8<Float>(repeating: 128.5)
                for u in 0..<8 where used & (1 << UInt8(u)) != 0 { sum += basis[u][y] * horizontal[u] }
                let base = outAt + y * stride
                for x in 0..<side { out[base + x] = UInt8(min(max(sum[x], 0), 255)) }
            }
        }
    }
}
