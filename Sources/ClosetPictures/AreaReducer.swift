/// RGBA rows made smaller to any size as they arrive, each new pixel the area average of what it
/// covers (`Bitmap.scaled`'s average): a large PNG made an upload's 2,048 pixels a side in one pass
/// over its rows, with no picture at full or intermediate size. Each row is averaged across once;
/// a target row is summed from the rows it covers (two at most, when reducing) and written when
/// its last row has arrived. Sides only shrink (or stay).
struct AreaReducer {
    let width: Int
    let newWidth: Int
    let newHeight: Int
    private(set) var pixels: [UInt8]
    /// Each target column's covered source columns and weights, flattened.
    private var columnStart: [Int]
    private var columnSource: [Int]
    private var columnWeight: [Float]
    private var columnTotals: [Float]
    /// Each source row's target rows and weights (one or two).
    private var feeds: [[(target: Int, weight: Float)]]
    /// Each target row's last source row.
    private var lastRow: [Int]
    /// Two target rows being summed (slot `target % 2`), premultiplied r, g, b and alpha, and
    /// their row weights.
    private var sums: [Float]
    private var rowTotals: [Float] = [0, 0]
    private var across: [Float]
    private var rowsIn = 0

    init(width: Int, height: Int, newWidth: Int, newHeight: Int) {
        self.width = width
        self.newWidth = newWidth
        self.newHeight = newHeight
        pixels = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let columns = Bitmap.coverage(from: width, to: newWidth)
        columnStart = [0]
        columnSource = []
        columnWeight = []
        for parts in columns {
            for (index, weight) in parts {
                columnSource.append(index)
                columnWeight.append(Float(weight))
            }
            columnStart.append(columnSource.count)
        }
        columnTotals = columns.map { Float($0.reduce(0) { $0 + $1.weight }) }
        feeds = Array(repeating: [], count: height)
        lastRow = Array(repeating: 0, count: newHeight)
        for (target, parts) in Bitmap.coverage(from: height, to: newHeight).enumerated() {
            for (source, weight) in parts { feeds[source].append((target, Float(weight))) }
            lastRow[target] = parts.last?.index ?? 0
        }
        sums = [Float](repeating: 0, count: newWidth * 8)
        across = [Float](repeating: 0, count: newWidth * 4)
    }

    /// The next row: `width` RGBA pixels; `opaque` when every alpha is 255 (a picture without
    /// an alpha channel), which weighs each pixel once rather than by its alpha.
    mutating func add(_ row: UnsafePointer<UInt8>, opaque: Bool = false) {
        guard rowsIn < feeds.count else { return }
        let stride = newWidth * 4
        let raw = UnsafeRawPointer(row)
        across.withUnsafeMutableBufferPointer { across in
            columnSource.withUnsafeBufferPointer { source in
                columnWeight.withUnsafeBufferPointer { weight in
                    columnStart.withUnsafeBufferPointer { start in
                        for x in 0..<newWidth {
                            var sum = SIMD4<Float>()
                            if opaque {
                                // Σ colour · w and Σ 255 · w; the colours are made Σ colour · 255 · w
                                // (premultiplied, as below) once for the column.
                                for part in start[x]..<start[x + 1] {
                                    let pixel = raw.loadUnaligned(
                                        fromByteOffset: source[part] * 4, as: SIMD4<UInt8>.self)
                                    sum += SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel)) * weight[part]
                                }
                                sum *= SIMD4(255, 255, 255, 1)
                            } else {
                                for part in start[x]..<start[x + 1] {
                                    let pixel = raw.loadUnaligned(
                                        fromByteOffset: source[part] * 4, as: SIMD4<UInt8>.self)
                                    var value = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: pixel))
                                    let alpha = value[3] * weight[part]
                                    value[3] = 1
                                    sum += value * alpha
                                }
                            }
                            across[x * 4] = sum[0]
                            across[x * 4 + 1] = sum[1]
                            across[x * 4 + 2] = sum[2]
                            across[x * 4 + 3] = sum[3]
                        }
                    }
                }
            }
        }
        for (target, weight) in feeds[rowsIn] {
            let slot = target % 2
            sums.withUnsafeMutableBufferPointer { sums in
                across.withUnsafeBufferPointer { across in
                    guard let base = sums.baseAddress, let from = across.baseAddress else { return }
                    // Through plain pointers: a loop the compiler can vectorize.
                    let into = base + slot * stride
                    for i in 0..<stride { into[i] += from[i] * weight }
                }
            }
            rowTotals[slot] += weight
            if lastRow[target] == rowsIn { emit(target) }
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
