import ClosetCore

/// Scaling by area averaging: each new pixel is the mean of the source area it covers, partly
/// covered pixels weighted by how much of them it covers (never nearest neighbour, which drops
/// detail and shimmers). Colours are averaged premultiplied by alpha, so a transparent pixel's
/// colour does not bleed into its neighbours.
extension Bitmap {
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        guard newWidth > 0, newHeight > 0, width > 0, height > 0 else {
            return Bitmap(width: max(newWidth, 0), height: max(newHeight, 0), pixels: [])
        }
        if newWidth == width, newHeight == height { return self }
        let columns = Self.coverage(from: width, to: newWidth)
        let rows = Self.coverage(from: height, to: newHeight)
        // The columns' parts laid out flat, so the inner loop reads plain memory; each pixel's
        // sums still run row part by column part, so the result does not depend on the layout.
        let columnStarts = columns.reduce(into: [0]) { $0.append($0[$0.count - 1] + $1.count) }
        let columnParts = columns.flatMap { $0 }
        var result = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let width = width
        pixels.withUnsafeBufferPointer { pixels in
            columnParts.withUnsafeBufferPointer { columnParts in
                result.withUnsafeMutableBufferPointer { result in
                    for (y, rowParts) in rows.enumerated() {
                        for x in 0..<newWidth {
                            var (r, g, b, a, total) = (0.0, 0.0, 0.0, 0.0, 0.0)
                            for (sourceY, rowWeight) in rowParts {
                                let line = sourceY * width
                                for part in columnStarts[x]..<columnStarts[x + 1] {
                                    let (sourceX, columnWeight) = columnParts[part]
                                    let weight = rowWeight * columnWeight
                                    let at = (line + sourceX) * 4
                                    let alpha = Double(pixels[at + 3]) * weight
                                    r += Double(pixels[at]) * alpha
                                    g += Double(pixels[at + 1]) * alpha
                                    b += Double(pixels[at + 2]) * alpha
                                    a += alpha
                                    total += weight
                                }
                            }
                            let at = (y * newWidth + x) * 4
                            if a > 0 {
                                result[at] = UInt8((r / a).rounded().clamped(0, 255))
                                result[at + 1] = UInt8((g / a).rounded().clamped(0, 255))
                                result[at + 2] = UInt8((b / a).rounded().clamped(0, 255))
                            }
                            result[at + 3] = UInt8((a / total).rounded().clamped(0, 255))
                        }
                    }
                }
            }
        }
        return Bitmap(width: newWidth, height: newHeight, pixels: result)
    }

    /// For each new index, the source indices it covers and how much of each (summing to
    /// `old / new` source pixels per new pixel).
    static func coverage(from old: Int, to new: Int) -> [[(index: Int, weight: Double)]] {
        let scale = Double(old) / Double(new)
        return (0..<new).map { target in
            let start = Double(target) * scale
            let end = start + scale
            var parts: [(Int, Double)] = []
            var source = Int(start)
            while Double(source) < end, source < old {
                let covered = min(end, Double(source + 1)) - max(start, Double(source))
                if covered > 1e-9 { parts.append((source, covered)) }
                source += 1
            }
            return parts
        }
    }
}

extension Double {
    func clamped(_ low: Double, _ high: Double) -> Double { Swift.min(Swift.max(self, low), high) }
}
