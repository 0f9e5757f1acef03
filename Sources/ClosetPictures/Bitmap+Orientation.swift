import ClosetCore

/// EXIF orientations (TIFF tag 0x0112): how a camera's picture is turned to be seen upright.
extension Bitmap {
    /// The bitmap as orientation `value` (1-8) says to show it; 1 and unknown values leave it.
    public func oriented(_ value: Int) -> Bitmap {
        guard (2...8).contains(value) else { return self }
        // 5-8 swap width and height.
        let turned = value >= 5
        let (newWidth, newHeight) = turned ? (height, width) : (width, height)
        var result = [UInt8](repeating: 0, count: pixels.count)
        for y in 0..<newHeight {
            for x in 0..<newWidth {
                // Which source pixel lands at (x, y).
                let (sourceX, sourceY): (Int, Int)
                switch value {
                case 2: (sourceX, sourceY) = (width - 1 - x, y)
                case 3: (sourceX, sourceY) = (width - 1 - x, height - 1 - y)
                case 4: (sourceX, sourceY) = (x, height - 1 - y)
                case 5: (sourceX, sourceY) = (y, x)
                case 6: (sourceX, sourceY) = (y, height - 1 - x)
                case 7: (sourceX, sourceY) = (width - 1 - y, height - 1 - x)
                default: (sourceX, sourceY) = (width - 1 - y, x)
                }
                let from = (sourceY * width + sourceX) * 4
                let to = (y * newWidth + x) * 4
                result[to] = pixels[from]
                result[to + 1] = pixels[from + 1]
                result[to + 2] = pixels[from + 2]
                result[to + 3] = pixels[from + 3]
            }
        }
        return Bitmap(width: newWidth, height: newHeight, pixels: result)
    }
}
