import ClosetCore

/// Pictures laid out together (a gallery in a row, a collage, a masonry) are drawn onto one
/// canvas, so every terminal output shows an arrangement as one picture.
extension Bitmap {
    /// A transparent canvas.
    public init(width: Int, height: Int) {
        self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: max(0, width * height * 4)))
    }

    /// Copies `picture` with its top-left corner at (x, y); what falls outside is cut off.
    public mutating func draw(_ picture: Bitmap, x: Int, y: Int) {
        for row in 0..<picture.height where y + row >= 0 && y + row < height {
            for column in 0..<picture.width where x + column >= 0 && x + column < width {
                let from = (row * picture.width + column) * 4
                let to = ((y + row) * width + x + column) * 4
                for channel in 0..<4 { pixels[to + channel] = picture.pixels[from + channel] }
            }
        }
    }
}
