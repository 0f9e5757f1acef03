extension Bitmap {
    /// The area average `scaled` makes, a pass at a time in `Float`: each source row is averaged
    /// across once, then the rows down, holding only the few rows a target row covers. For a large
    /// reduction (the 3,000-pixel sides of an upload made 2,048) that is a few multiplications a
    /// source pixel instead of one for every pair of covering row and column; a channel may round
    /// one apart from `scaled`'s.
    public func areaScaled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        guard newWidth > 0, newHeight > 0, width > 0, height > 0 else {
            return Bitmap(width: max(newWidth, 0), height: max(newHeight, 0), pixels: [])
        }
        if newWidth == width, newHeight == height { return self }
        let columns = Self.coverage(from: width, to: newWidth)
        let rows = Self.coverage(from: height, to: newHeight)
        // Each target column's covered source columns, flattened.
        var columnStart = [Int](repeating: 0, count: newWidth + 1)
        var columnSource: [Int] = []
        var columnWeight: [Float] = []
        for (x, parts) in columns.enumerated() {
            columnStart[x] = columnSource.count
            for (index, weight) in parts {
                columnSource.append(index)
                columnWeight.append(Float(weight))
            }
        }
        columnStart[newWidth] = columnSource.count
        let columnTotals = columns.map { Float($0.reduce(0) { $0 + $1.weight }) }
        // Source rows averaged across (premultiplied r, g, b and alpha), each in slot
        // `row % slots`: a target row covers fewer rows than there are slots, so none it needs is
        // overwritten while it is made.
        let slots = (rows.map(\.count).max() ?? 1) + 1
        let stride = newWidth * 4
        var ring = [Float](repeating: 0, count: slots * stride)
        var held = [Int](repeating: -1, count: slots)
        var sums = [Float](repeating: 0, count: stride)
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        pixels.withUnsafeBufferPointer { source in
            ring.withUnsafeMutableBufferPointer { ring in
                sums.withUnsafeMutableBufferPointer { sums in
                    result.withUnsafeMutableBufferPointer { result in
                        columnSource.withUnsafeBufferPointer { columnSource in
                            columnWeight.withUnsafeBufferPointer { columnWeight in
                                for (y, parts) in rows.enumerated() {
                                    for i in 0..<stride { sums[i] = 0 }
                                    var rowTotal: Float = 0
                                    for (sourceY, weight) in parts {
                                        let slot = sourceY % slots
                                        let across = ring.baseAddress.map { $0 + slot * stride }
                                        guard let across else { continue }
                                        if held[slot] != sourceY {
                                            held[slot] = sourceY
                                            let line = sourceY * width * 4
                                            for x in 0..<newWidth {
                                                var (r, g, b, a): (Float, Float, Float, Float) = (0, 0, 0, 0)
                                                for part in columnStart[x]..<columnStart[x + 1] {
                                                    let at = line + columnSource[part] * 4
                                                    let alpha = Float(source[at + 3]) * columnWeight[part]
                                                    r += Float(source[at]) * alpha
                                                    g += Float(source[at + 1]) * alpha
                                                    b += Float(source[at + 2]) * alpha
                                                    a += alpha
                                                }
                                                across[x * 4] = r
                                                across[x * 4 + 1] = g
                                                across[x * 4 + 2] = b
                                                across[x * 4 + 3] = a
                                            }
                                        }
                                        let w = Float(weight)
                                        for i in 0..<stride { sums[i] += across[i] * w }
                                        rowTotal += w
                                    }
                                    let line = y * stride
                                    for x in 0..<newWidth {
                                        let a = sums[x * 4 + 3]
                                        if a > 0 {
                                            result[line + x * 4] = Self.channel(sums[x * 4] / a)
                                            result[line + x * 4 + 1] = Self.channel(sums[x * 4 + 1] / a)
                                            result[line + x * 4 + 2] = Self.channel(sums[x * 4 + 2] / a)
                                        }
                                        result[line + x * 4 + 3] = Self.channel(a / (rowTotal * columnTotals[x]))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return Bitmap(width: newWidth, height: newHeight, pixels: result)
    }

    /// A channel's value rounded to the nearest and held to 0...255.
    @inline(__always)
    static func channel(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
}
