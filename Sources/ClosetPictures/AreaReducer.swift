/// RGBA rows made smaller to any size as they arrive, each new pixel the area average of what it
/// covers (`Bitmap.scaled`'s average): a large PNG made an upload's 2,048 pixels a side in one pass
/// over its rows, with no picture at full or intermediate size. Each row is averaged across once;
/// a target row is summed from the rows it covers (two at most, when reducing) and written when
/// its last row has arrived. Sides only shrink (or stay). What a target covers is worked out from
/// the ratio, as `Bitmap.coverage` works it out, never listed a source row or column at a time: a
/// hostile picture of one pixel by sixteen million rows costs what its pixels cost.
struct AreaReducer {
    let width: Int
    let height: Int
    let newWidth: Int
    let newHeight: Int
    private(set) var pixels: [UInt8]
    /// Each target column: its first and last source columns (exclusive), and where its sources'
    /// weights start in `weights` (the share of each it covers, those below a billionth made 0 as
    /// `Bitmap.coverage` leaves them out): one flat table the row loop reads without a branch.
    private var columnFirst: [Int]
    private var columnEnd: [Int]
    private var weightStart: [Int]
    private var weights: [Float]
    private var columnTotals: [Float]
    private let rowScale: Double
    /// Two target rows being summed (slot `target % 2`), premultiplied r, g, b and alpha, and
    /// their row weights.
    private var sums: [Float]
    private var rowTotals: [Float] = [0, 0]
    private var across: [Float]
    /// The first target row not written yet.
    private var pending = 0
    private var rowsIn = 0

    init(width: Int, height: Int, newWidth: Int, newHeight: Int) {
        self.width = width
        self.height = height
        self.newWidth = newWidth
        self.newHeight = newHeight
        pixels = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let scale = Double(width) / Double(newWidth)
        (columnFirst, columnEnd, weightStart, weights, columnTotals) = ([], [], [], [], [])
        for target in 0..<newWidth {
            let start = Double(target) * scale
            let end = start + scale
            let first = Int(start)
            var last = first
            while Double(last) < end, last < width { last += 1 }
            let share = { (source: Int) in Float(min(end, Double(source + 1)) - max(start, Double(source))) }
            let columnEnd = max(last, first + 1)
            columnFirst.append(first)
            self.columnEnd.append(columnEnd)
            weightStart.append(weights.count)
            let (firstShare, lastShare) = (share(first), share(max(first, last - 1)))
            var total: Float = 0
            for source in first..<columnEnd {
                let weight = source == first ? firstShare : source == columnEnd - 1 ? lastShare : 1
                weights.append(weight > 1e-9 ? weight : 0)
                if weight > 1e-9 { total += weight }
            }
            columnTotals.append(total)
        }
        rowScale = Double(height) / Double(newHeight)
        sums = [Float](repeating: 0, count: newWidth * 8)
        across = [Float](repeating: 0, count: newWidth * 4)
    }

    /// The next row: `width` RGBA pixels; `opaque` when every alpha is 255 (a picture without
    /// an alpha channel), which weighs each pixel once rather than by its alpha.
    mutating func add(_ row: UnsafePointer<UInt8>, opaque: Bool = false) {
        guard rowsIn < height else { return }
        let stride = newWidth * 4
        let raw = UnsafeRawPointer(row)
        // Through plain pointers: no bounds check or branch a source pixel.
        across.withUnsafeMutableBufferPointer { across in
            columnFirst.withUnsafeBufferPointer { columnFirst in
                columnEnd.withUnsafeBufferPointer { columnEnd in
                    weightStart.withUnsafeBufferPointer { weightStart in
                        weights.withUnsafeBufferPointer { weights in
                            guard let into = across.baseAddress, let weights = weights.baseAddress else { return }
                            let sums = UnsafeMutableRawPointer(into)
                            for x in 0..<newWidth {
                                var sum = SIMD4<Float>()
                                let (first, end) = (columnFirst[x], columnEnd[x])
                                let weight = weights + (weightStart[x] - first)
                                if opaque {
                                    for source in first..<end {
                                        let pixel = raw.loadUnaligned(fromByteOffset: source * 4, as: SIMD4<UInt8>.self)
                                        sum += SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel)) * weight[source]
                                    }
                                    // Σ colour · w and Σ 255 · w, made premultiplied (Σ colour · 255 · w).
                                    sum *= SIMD4(255, 255, 255, 1)
                                } else {
                                    for source in first..<end {
                                        let pixel = raw.loadUnaligned(fromByteOffset: source * 4, as: SIMD4<UInt8>.self)
                                        var value = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
                                        let alpha = value[3] * weight[source]
                                        value[3] = 1
                                        sum += value * alpha
                                    }
                                }
                                sums.storeBytes(of: sum, toByteOffset: x * 16, as: SIMD4<Float>.self)
                            }
                        }
                    }
                }
            }
        }
        // The target rows this row falls in (one, or two across a boundary), as shares of it.
        let (top, bottom) = (Double(rowsIn), Double(rowsIn + 1))
        var target = pending
        while target < newHeight {
            let start = Double(target) * rowScale
            let end = start + rowScale
            guard start < bottom else { break }
            let covered = min(end, bottom) - max(start, top)
            if covered > 1e-9 {
                let slot = target % 2
                let weight = Float(covered)
                sums.withUnsafeMutableBufferPointer { sums in
                    across.withUnsafeBufferPointer { across in
                        guard let base = sums.baseAddress, let from = across.baseAddress else { return }
                        // Eight lanes a step (`stride` is a multiple of four: the rest by four).
                        let into = UnsafeMutableRawPointer(base + slot * stride)
                        let source = UnsafeRawPointer(from)
                        var i = 0
                        while i + 8 <= stride {
                            let sum =
                                into.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self)
                                + source.loadUnaligned(fromByteOffset: i * 4, as: SIMD8<Float>.self) * weight
                            into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD8<Float>.self)
                            i += 8
                        }
                        while i < stride {
                            let sum =
                                into.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self)
                                + source.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self) * weight
                            into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD4<Float>.self)
                            i += 4
                        }
                    }
                }
                rowTotals[slot] += weight
            }
            // Written once its last row is in (the last row closes every row still open).
            guard end <= bottom || rowsIn == height - 1 else { break }
            emit(target)
            pending = target + 1
            target += 1
        }
        rowsIn += 1
    }

    /// Writes a finished target row and clears its slot.
    private mutating func emit(_ target: Int) {
        let slot = target % 2
        let stride = newWidth * 4
        let rowTotal = rowTotals[slot]
        sums.withUnsafeMutableBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { pixels in
                let line = target * stride
                for x in 0..<newWidth {
                    let at = slot * stride + x * 4
                    let a = sums[at + 3]
                    if a > 0 {
                        pixels[line + x * 4] = Bitmap.channel(sums[at] / a)
                        pixels[line + x * 4 + 1] = Bitmap.channel(sums[at + 1] / a)
                        pixels[line + x * 4 + 2] = Bitmap.channel(sums[at + 2] / a)
                    }
                    pixels[line + x * 4 + 3] = Bitmap.channel(a / (rowTotal * columnTotals[x]))
                }
                for i in 0..<stride { sums[slot * stride + i] = 0 }
            }
        }
        rowTotals[slot] = 0
    }

    var bitmap: Bitmap { Bitmap(width: newWidth, height: newHeight, pixels: pixels) }
}
