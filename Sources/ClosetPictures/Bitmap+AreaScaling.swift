extension Bitmap {
    /// The area average `scaled` makes, a pass at a time in `Float` (`AreaReducer`: each row
    /// averaged across once, then summed into the target rows it covers) when both sides shrink
    /// or stay: for a large reduction (an upload's 3,000-pixel sides made 2,048) a few
    /// multiplications a source pixel instead of one for every pair of covering row and column.
    /// A channel may round one apart from `scaled`'s; a picture made larger is `scaled`.
    public func areaScaled(toWidth newWidth: Int, height newHeight: Int) -> Bitmap {
        guard newWidth > 0, newHeight > 0, width > 0, height > 0, newWidth <= width, newHeight <= height else {
            return scaled(toWidth: newWidth, height: newHeight)
        }
        if newWidth == width, newHeight == height { return self }
        var reducer = AreaReducer(width: width, height: height, newWidth: newWidth, newHeight: newHeight)
        pixels.withUnsafeBufferPointer { rows in
            guard let first = rows.baseAddress else { return }
            // Every alpha 255 (a photo, the upload's picture): each pixel weighed once, in wide lanes.
            var opaque = true
            for alpha in stride(from: 3, to: rows.count, by: 4) where rows[alpha] != 255 {
                opaque = false
                break
            }
            for y in 0..<height { reducer.add(first + y * width * 4, opaque: opaque) }
        }
        return reducer.bitmap
    }

    /// A channel's value rounded to the nearest and held to 0...255.
    @inline(__always)
    static func channel(_ value: Float) -> UInt8 { UInt8(min(max(value + 0.5, 0), 255)) }
}
