/// RGBA rows made smaller to any size as they arrive, each new pixel the area average of what it
/// covers (`Bitmap.scaled`'s average): a large PNG made an upload's 2,048 pixels a side in one pass
/// over its rows, with no picture at full or intermediate size. Each source row is added, weighted,
/// into the sums of the target rows it falls in (two at most, when reducing), a column at a time;
/// a target row is averaged across once, when its last row has arrived: the per-pixel work is
/// one weighted add in vector lanes, and the across pass runs once a target row, not a source
/// row. Sides only shrink (or stay). What a target covers is worked out from the ratio, as
/// `Bitmap.coverage` works it out, never listed a source row or column at a time: a hostile picture of one pixel by sixteen million rows costs what its pixels cost.
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
    /// Two target rows being summed (slot `target % 2`), a source column at a time: premultiplied
    /// r, g, b and alpha; and their row weights.
    private var sums: [Float]
    private var rowTotals: [Float] = [0, 0]
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
        sums = [Float](repeating: 0, count: width * 8)
    }

    /// The next row: `width` RGBA pixels; `opaque` when every alpha is 255 (a picture without
    /// an alpha channel), which weighs each pixel once rather than by its alpha.
    mutating func add(_ row: UnsafePointer<UInt8>, opaque: Bool = false) {
        guard rowsIn < height else { return }
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
                addRow(row, into: slot, weight: Float(covered), opaque: opaque)
                rowTotals[slot] += Float(covered)
            }
            // Written once its last row is in (the last row closes every row still open).
            guard end <= bottom || rowsIn == height - 1 else { break }
            emit(target)
            pending = target + 1
            target += 1
        }
        rowsIn += 1
    }

    /// Adds a row's premultiplied pixels, times `weight`, into a slot's column sums.
    private mutating func addRow(_ row: UnsafePointer<UInt8>, into slot: Int, weight: Float, opaque: Bool) {
        let count = width * 4
        let source = UnsafeRawPointer(row)
        sums.withUnsafeMutableBufferPointer { sums in
            guard let base = sums.baseAddress else { return }
            let into = UnsafeMutableRawPointer(base + slot * count)
            if opaque {
                // Colour · 255 · w and 255 · w: premultiplied by an alpha of 255, sixteen lanes a step.
                let colour = weight * 255
                let lanes = SIMD16<Float>(
                    colour, colour, colour, weight, colour, colour, colour, weight, colour, colour, colour, weight,
                    colour, colour, colour, weight)
                var i = 0
                while i + 16 <= count {
                    let bytes = source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    let sum =
                        into.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
                        + SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: bytes)) * lanes
                    into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD16<Float>.self)
                    i += 16
                }
                let four = lanes.lowHalf.lowHalf
                while i < count {
                    let bytes = source.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
                    let sum =
                        into.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self)
                        + SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes)) * four
                    into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD4<Float>.self)
                    i += 4
                }
            } else {
                for i in stride(from: 0, to: count, by: 4) {
                    var value = SIMD4<Float>(
                        SIMD4<Int32>(truncatingIfNeeded: source.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
                    )
                    let alpha = value[3] * weight
                    value[3] = 1
                    let sum = into.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self) + value * alpha
                    into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD4<Float>.self)
                }
            }
        }
    }

    /// Averages a finished target row across, writes it, and clears its slot.
    private mutating func emit(_ target: Int) {
        let slot = target % 2
        let count = width * 4
        let rowTotal = rowTotals[slot]
        let line = target * newWidth * 4
        // Through plain pointers: no bounds check or branch a source column.
        sums.withUnsafeMutableBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { pixels in
                columnFirst.withUnsafeBufferPointer { columnFirst in
                    columnEnd.withUnsafeBufferPointer { columnEnd in
                        weightStart.withUnsafeBufferPointer { weightStart in
                            weights.withUnsafeBufferPointer { weights in
                                guard let base = sums.baseAddress, let weights = weights.baseAddress else { return }
                                let columns = UnsafeRawPointer(base + slot * count)
                                for x in 0..<newWidth {
                                    var sum = SIMD4<Float>()
                                    let (first, end) = (columnFirst[x], columnEnd[x])
                                    let weight = weights + (weightStart[x] - first)
                                    for source in first..<end {
                                        sum +=
                                            columns.loadUnaligned(fromByteOffset: source * 16, as: SIMD4<Float>.self)
                                            * weight[source]
                                    }
                                    let a = sum[3]
                                    if a > 0 {
                                        pixels[line + x * 4] = Bitmap.channel(sum[0] / a)
                                        pixels[line + x * 4 + 1] = Bitmap.channel(sum[1] / a)
                                        pixels[line + x * 4 + 2] = Bitmap.channel(sum[2] / a)
                                    }
                                    pixels[line + x * 4 + 3] = Bitmap.channel(a / (rowTotal * columnTotals[x]))
                                }
                                (base + slot * count).update(repeating: 0, count: count)
                            }
                        }
                    }
                }
            }
        }
        rowTotals[slot] = 0
    }

    var bitmap: Bitmap { Bitmap(width: newWidth, height: newHeight, pixels: pixels) }
}
