/// RGBA rows averaged over squares of `factor` pixels as they arrive, so a large picture drawn
/// small is never held at full size (a PNG reduced as its rows are unfiltered). Colours are
/// averaged weighted by their alpha and alpha plainly, as `Bitmap.scaled` does; squares at the
/// right and bottom edges hold what is left.
struct BoxReducer {
    let width: Int
    let height: Int
    let factor: Int
    let reducedWidth: Int
    let reducedHeight: Int
    private(set) var pixels: [UInt8]
    /// Per reduced column of the band being summed: Σ r·a, Σ g·a, Σ b·a, Σ a.
    private var sums: [Int]
    private var rowsIn = 0

    init(width: Int, height: Int, factor: Int) {
        self.width = width
        self.height = height
        self.factor = factor
        reducedWidth = (width + factor - 1) / factor
        reducedHeight = (height + factor - 1) / factor
        pixels = [UInt8](repeating: 0, count: reducedWidth * reducedHeight * 4)
        sums = [Int](repeating: 0, count: reducedWidth * 4)
    }

    /// The largest power of two a picture of `width` × `height` drawn within `box` (its sides
    /// kept in proportion) can be reduced by and still cover the drawn size.
    static func factor(width: Int, height: Int, box: (width: Int, height: Int)?) -> Int {
        guard let box, box.width > 0, box.height > 0, width > 0, height > 0 else { return 1 }
        let fit = min(Double(box.width) / Double(width), Double(box.height) / Double(height))
        var factor = 1
        while Double(factor * 2) * fit <= 1, factor < 1 << 12 { factor *= 2 }
        return factor
    }

    /// The next row: `width` RGBA pixels.
    mutating func add(_ row: UnsafePointer<UInt8>) {
        sums.withUnsafeMutableBufferPointer { sums in
            for column in 0..<reducedWidth {
                var (r, g, b, a) = (0, 0, 0, 0)
                for x in (column * factor)..<min(width, (column + 1) * factor) {
                    let alpha = Int(row[4 * x + 3])
                    r += Int(row[4 * x]) * alpha
                    g += Int(row[4 * x + 1]) * alpha
                    b += Int(row[4 * x + 2]) * alpha
                    a += alpha
                }
                sums[4 * column] += r
                sums[4 * column + 1] += g
                sums[4 * column + 2] += b
                sums[4 * column + 3] += a
            }
        }
        rowsIn += 1
        if rowsIn % factor == 0 || rowsIn == height { emitBand() }
    }

    private mutating func emitBand() {
        let band = (rowsIn - 1) / factor
        let bandRows = rowsIn - band * factor
        let start = band * reducedWidth * 4
        for column in 0..<reducedWidth {
            let columns = min(width, (column + 1) * factor) - column * factor
            let count = columns * bandRows
            let alpha = sums[4 * column + 3]
            let at = start + 4 * column
            if alpha > 0 {
                for channel in 0..<3 { pixels[at + channel] = UInt8((sums[4 * column + channel] + alpha / 2) / alpha) }
            }
            pixels[at + 3] = UInt8((alpha + count / 2) / count)
        }
        for index in sums.indices { sums[index] = 0 }
    }

    var bitmap: Bitmap { Bitmap(width: reducedWidth, height: reducedHeight, pixels: pixels) }
}
