/// A picture's blocks after the forward DCT and before quantization, strip by strip in the order
/// the scan codes them (each MCU of 16×16 pixels: four luminance blocks, then one Cb and one Cr,
/// the mean of each 2×2; edges repeat the last pixel). Quantizing is all a quality changes, so an
/// encoder trying several keeps every strip (`StripTransforms`); one encoding keeps one strip at
/// a time, here (`strip`).
struct JPEGBlocks {
    let mcusAcross: Int
    /// Coefficients a strip holds.
    let stripCount: Int
    /// The last strip transformed into this value's own room (empty when the caller keeps the
    /// strips).
    var strip: [Float]
    /// One strip's colours (`width` × 16 each), converted before its blocks are transformed.
    private var y: [Float]
    private var cb: [Float]
    private var cr: [Float]

    /// `keepsStrip`: room for one strip here (else the caller gives the room, `transform(_:stripAt:into:)`).
    init(_ bitmap: Bitmap, keepsStrip: Bool) {
        mcusAcross = (bitmap.width + 15) / 16
        stripCount = mcusAcross * 6 * 64
        strip = [Float](repeating: 0, count: keepsStrip ? stripCount : 0)
        y = [Float](repeating: 0, count: bitmap.width * 16)
        cb = y
        cr = y
    }

    /// Converts the strip of rows from `top` and transforms its blocks into `strip`.
    mutating func transform(_ bitmap: Bitmap, stripAt top: Int) {
        var strip = self.strip
        self.strip = []
        strip.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            transform(bitmap, stripAt: top, into: base)
        }
        self.strip = strip
    }

    /// Converts the strip of rows from `top` (the last row repeated past the picture's end) and
    /// transforms its blocks into `out` (`stripCount` values).
    mutating func transform(_ bitmap: Bitmap, stripAt top: Int, into out: UnsafeMutablePointer<Float>) {
        let (width, height) = (bitmap.width, bitmap.height)
        for row in 0..<16 {
            let sourceRow = min(top + row, height - 1)
            for x in 0..<width {
                let at = 4 * (sourceRow * width + x)
                let alpha = Float(bitmap.pixels[at + 3]) / 255
                // Transparent pixels are flattened onto white.
                func flat(_ value: UInt8) -> Float { Float(value) * alpha + 255 * (1 - alpha) }
                let (r, g, b) = (flat(bitmap.pixels[at]), flat(bitmap.pixels[at + 1]), flat(bitmap.pixels[at + 2]))
                let i = row * width + x
                y[i] = 0.299 * r + 0.587 * g + 0.114 * b
                cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b + 128
                cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b + 128
            }
        }
        var next = 0
        withUnsafeTemporaryAllocation(of: Float.self, capacity: 64) { block in
            for left in stride(from: 0, to: width, by: 16) {
                for quadrant in 0..<4 {
                    let (dy, dx) = (quadrant / 2 * 8, quadrant % 2 * 8)
                    for row in 0..<8 {
                        let stripRow = dy + row
                        for column in 0..<8 {
                            block[row * 8 + column] = y[stripRow * width + min(left + dx + column, width - 1)] - 128
                        }
                    }
                    Self.forward(block, into: out + next)
                    next += 64
                }
                for component in 1...2 {
                    let plane = component == 1 ? cb : cr
                    for row in 0..<8 {
                        let upper = row * 2 * width
                        let lower = upper + width
                        for column in 0..<8 {
                            let (x, following) = (
                                min(left + column * 2, width - 1), min(left + column * 2 + 1, width - 1)
                            )
                            let sum =
                                plane[upper + x] + plane[upper + following] + plane[lower + x]
                                + plane[lower + following]
                            block[row * 8 + column] = sum / 4 - 128
                        }
                    }
                    Self.forward(block, into: out + next)
                    next += 64
                }
            }
        }
    }

    /// The forward DCT with the decoder's basis (`F = Σ basis[u][y] basis[v][x] f`), row-major.
    static func forward(_ samples: UnsafeMutableBufferPointer<Float>, into out: UnsafeMutablePointer<Float>) {
        let basis = InverseDCT.basis
        withUnsafeTemporaryAllocation(of: SIMD8<Float>.self, capacity: 8) { rows in
            // Along each row: R[y][v] = Σ_x f[y][x] basis[v][x].
            for y in 0..<8 {
                var row = SIMD8<Float>()
                for x in 0..<8 { row[x] = samples[y * 8 + x] }
                var transformed = SIMD8<Float>()
                for v in 0..<8 { transformed[v] = (row * basis[v]).sum() }
                rows[y] = transformed
            }
            for u in 0..<8 {
                var column = SIMD8<Float>()
                for y in 0..<8 { column += basis[u][y] * rows[y] }
                for v in 0..<8 { out[u * 8 + v] = column[v] }
            }
        }
    }
}
