/// RGBA rows made smaller to any size as they arrive, each new pixel the area average of what it
/// covers (`Bitmap.scaled`'s average): a large PNG made an upload's 2,048 pixels a side in one pass
/// over its rows, with no picture at full or intermediate size. One target row is open at a time
/// (a source row across a boundary closes one and opens the next): each source row is added,
/// weighted, into its sums a column at a time, and it is averaged across once, when its last row
/// has arrived. So the per-pixel work is one weighted add in vector lanes, and the across pass runs
/// once a target row, not a source row. A picture wider than `widestByColumn` (no camera's, a
/// hostile file's) is averaged across a source row at a time instead, so its sums stay the
/// target's width. Sides only shrink (or stay). What a target covers is worked out from the ratio, as
/// `Bitmap.coverage` works it out, never listed a source row or column at a time: a hostile picture of one pixel by sixteen million rows costs what its pixels cost.
struct AreaReducer {
    let width: Int
    let height: Int
    let newWidth: Int
    let newHeight: Int
    private(set) var pixels: [UInt8]
    /// Each target column: its first and last source columns (exclusive), and where its sources'
    /// weights start in `weights` (the share of each it covers, those below a billionth made 0 as
    /// `Bitmap.coverage` leaves them out): one flat table the across pass reads without a branch.
    private var columnFirst: [Int]
    private var columnEnd: [Int]
    private var weightStart: [Int]
    private var weights: [Float]
    private var columnTotals: [Float]
    private let rowScale: Double
    /// The widest picture summed a source column at a time (16 bytes a column).
    static let widestByColumn = 1 << 16
    private let byColumn: Bool
    /// The open target row's sums, premultiplied r, g, b and alpha: a source column at a time
    /// (`byColumn`), else a target column at a time; and its row weight.
    private var sums: [Float]
    private var rowTotal: Float = 0
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
        byColumn = width <= Self.widestByColumn
        sums = [Float](repeating: 0, count: (byColumn ? width : newWidth) * 4)
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
                if byColumn {
                    addByColumn(row, weight: Float(covered), opaque: opaque)
                } else {
                    addAcross(row, weight: Float(covered), opaque: opaque)
                }
                rowTotal += Float(covered)
            }
            // Written once its last row is in (the last row closes every row still open).
            guard end <= bottom || rowsIn == height - 1 else { break }
            emit(target)
            pending = target + 1
            target += 1
        }
        rowsIn += 1
    }

    /// Adds a row's premultiplied pixels, times `weight`, into the sums a source column at a time.
    private mutating func addByColumn(_ row: UnsafePointer<UInt8>, weight: Float, opaque: Bool) {
        let count = width * 4
        let source = UnsafeRawPointer(row)
        sums.withUnsafeMutableBufferPointer { sums in
            guard let base = sums.baseAddress else { return }
            let into = UnsafeMutableRawPointer(base)
            var i = 0
            if opaque {
                // Colour · 255 · w and 255 · w (premultiplied by an alpha of 255), sixteen lanes a step.
                let colour = weight * 255
                let lanes = SIMD16<Float>(
                    colour, colour, colour, weight, colour, colour, colour, weight, colour, colour, colour, weight,
                    colour, colour, colour, weight)
                while i + 16 <= count {
                    let bytes = source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                    let sum =
                        into.loadUnaligned(fromByteOffset: i * 4, as: SIMD16<Float>.self)
                        + SIMD16<Float>(SIMD16<Int32>(truncatingIfNeeded: bytes)) * lanes
                    into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD16<Float>.self)
                    i += 16
                }
            }
            // A pixel at a time: the rest of an opaque row, every pixel of one with alpha.
            while i < count {
                let value = Self.premultiplied(source, at: i, opaque: opaque)
                let sum = into.loadUnaligned(fromByteOffset: i * 4, as: SIMD4<Float>.self) + value * weight
                into.storeBytes(of: sum, toByteOffset: i * 4, as: SIMD4<Float>.self)
                i += 4
            }
        }
    }

    /// Averages a row across, then adds it, times `weight`, into the sums a target column at a time.
    private mutating func addAcross(_ row: UnsafePointer<UInt8>, weight: Float, opaque: Bool) {
        let source = UnsafeRawPointer(row)
        var sums = self.sums
        self.sums = []
        sums.withUnsafeMutableBufferPointer { sums in
            guard let into = sums.baseAddress.map(UnsafeMutableRawPointer.init) else { return }
            across({ Self.premultiplied(source, at: $0 * 4, opaque: opaque) }) { x, sum in
                let total = into.loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self) + sum * weight
                into.storeBytes(of: total, toByteOffset: x * 16, as: SIMD4<Float>.self)
            }
        }
        self.sums = sums
    }

    /// A pixel's r, g, b times its alpha, and its alpha.
    @inline(__always)
    private static func premultiplied(_ row: UnsafeRawPointer, at offset: Int, opaque: Bool) -> SIMD4<Float> {
        var value = SIMD4<Float>(
            SIMD4<Int32>(truncatingIfNeeded: row.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self)))
        if opaque { return value * SIMD4(255, 255, 255, 1) }
        let alpha = value[3]
        value[3] = 1
        return value * alpha
    }

    /// Each target column's weighted sum of what `load` gives for its source columns.
    @inline(__always)
    private func across(_ load: (Int) -> SIMD4<Float>, _ body: (Int, SIMD4<Float>) -> Void) {
        // Through plain pointers: no bounds check or branch a source column.
        columnFirst.withUnsafeBufferPointer { columnFirst in
            columnEnd.withUnsafeBufferPointer { columnEnd in
                weightStart.withUnsafeBufferPointer { weightStart in
                    weights.withUnsafeBufferPointer { weights in
                        guard let weights = weights.baseAddress else { return }
                        for x in 0..<newWidth {
                            var sum = SIMD4<Float>()
                            let (first, end) = (columnFirst[x], columnEnd[x])
                            let weight = weights + (weightStart[x] - first)
                            for source in first..<end { sum += load(source) * weight[source] }
                            body(x, sum)
                        }
                    }
                }
            }
        }
    }

    /// Writes the finished target row and clears the sums: a pixel's four channels divided,
    /// rounded and held to a byte in one step of four lanes.
    private mutating func emit(_ target: Int) {
        let (rowTotal, line) = (rowTotal, target * newWidth * 4)
        var (sums, pixels) = (self.sums, self.pixels)
        (self.sums, self.pixels) = ([], [])
        sums.withUnsafeMutableBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { pixels in
                columnTotals.withUnsafeBufferPointer { columnTotals in
                    guard let base = sums.baseAddress, let out = pixels.baseAddress,
                        let totals = columnTotals.baseAddress
                    else { return }
                    let columns = UnsafeRawPointer(base)
                    let row = UnsafeMutableRawPointer(out + line)
                    func write(_ x: Int, _ sum: SIMD4<Float>) {
                        let a = sum[3]
                        // r, g, b over their weight (none when nothing was covered), alpha over the area.
                        var value = sum / SIMD4(a, a, a, rowTotal * totals[x])
                        if !(a > 0) { value = SIMD4(0, 0, 0, value[3]) }
                        row.storeBytes(of: Self.channels(value), toByteOffset: x * 4, as: SIMD4<UInt8>.self)
                    }
                    if byColumn {
                        across({ columns.loadUnaligned(fromByteOffset: $0 * 16, as: SIMD4<Float>.self) }, write)
                    } else {
                        for x in 0..<newWidth {
                            write(x, columns.loadUnaligned(fromByteOffset: x * 16, as: SIMD4<Float>.self))
                        }
                    }
                    base.update(repeating: 0, count: sums.count)
                }
            }
        }
        (self.sums, self.pixels) = (sums, pixels)
        self.rowTotal = 0
    }

    /// `Bitmap.channel` in four lanes: each value plus a half, held to 0...255, its whole part.
    /// A magnitude below 2²³ added to 2²³ is rounded to the nearest (ties to even) and left in
    /// the low bits of its pattern; one that went up is taken one down, which is the floor.
    @inline(__always)
    static func channels(_ value: SIMD4<Float>) -> SIMD4<UInt8> {
        var held = value + 0.5
        held.replace(with: 0, where: .!(held .> 0))
        held.replace(with: 255, where: held .> 255)
        let shifted = held + 8_388_608
        let nearest = unsafeBitCast(shifted, to: SIMD4<Int32>.self) & 0x7F_FFFF
        let floor = nearest &- SIMD4<Int32>(repeating: 0).replacing(with: 1, where: shifted - 8_388_608 .> held)
        return SIMD4<UInt8>(truncatingIfNeeded: floor)
    }

    var bitmap: Bitmap { Bitmap(width: newWidth, height: newHeight, pixels: pixels) }
}
