/// A picture as Unicode half blocks for any truecolor terminal (tmux included): each character
/// cell shows two pixels, the upper as the `▀`'s foreground and the lower as its background,
/// in 24-bit colour. Transparent pixels are blended onto the given background colour.
public enum HalfBlocks {
    /// The size a picture takes to fit `columns` × `rows` cells with its aspect kept (a cell
    /// is one pixel wide and two tall), never larger than the picture itself.
    public static func fit(width: Int, height: Int, columns: Int, rows: Int) -> (width: Int, height: Int) {
        guard width > 0, height > 0, columns > 0, rows > 0 else { return (0, 0) }
        let scale = min(1, Double(columns) / Double(width), Double(rows * 2) / Double(height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// One line of text per two rows of pixels, each ending by resetting the colours.
    public static func render(_ bitmap: Bitmap, background: (UInt8, UInt8, UInt8) = (0, 0, 0)) -> [String] {
        func colour(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8) {
            guard y < bitmap.height else { return background }
            let at = (y * bitmap.width + x) * 4
            let alpha = Int(bitmap.pixels[at + 3])
            func blend(_ value: UInt8, _ under: UInt8) -> UInt8 {
                UInt8((Int(value) * alpha + Int(under) * (255 - alpha) + 127) / 255)
            }
            return (
                blend(bitmap.pixels[at], background.0), blend(bitmap.pixels[at + 1], background.1),
                blend(bitmap.pixels[at + 2], background.2)
            )
        }
        return stride(from: 0, to: bitmap.height, by: 2).map { y in
            var line = ""
            for x in 0..<bitmap.width {
                let (top, bottom) = (colour(x, y), colour(x, y + 1))
                line += "\u{1B}[38;2;\(top.0);\(top.1);\(top.2);48;2;\(bottom.0);\(bottom.1);\(bottom.2)m▀"
            }
            return line + "\u{1B}[0m"
        }
    }
}
