import ClosetCore

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

    /// One line of text per two rows of pixels, each ending by resetting the colours. A cell's
    /// colours are written only where they change. With no `background` (the terminal's own,
    /// which closet cannot know), a pixel less than half opaque shows the terminal's colour and
    /// one at least half opaque its own, so an antialiased edge has no dark rim on a light
    /// terminal (blending onto black made one); with a `background`, pixels are blended onto it.
    public static func render(_ bitmap: Bitmap, background: (UInt8, UInt8, UInt8)? = nil) -> [String] {
        /// nil: the terminal's own colour.
        func colour(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8)? {
            guard y < bitmap.height else { return background }
            let at = (y * bitmap.width + x) * 4
            let alpha = Int(bitmap.pixels[at + 3])
            guard let under = background else {
                return alpha < 128 ? nil : (bitmap.pixels[at], bitmap.pixels[at + 1], bitmap.pixels[at + 2])
            }
            func blend(_ value: UInt8, _ under: UInt8) -> UInt8 {
                UInt8((Int(value) * alpha + Int(under) * (255 - alpha) + 127) / 255)
            }
            return (
                blend(bitmap.pixels[at], under.0), blend(bitmap.pixels[at + 1], under.1),
                blend(bitmap.pixels[at + 2], under.2)
            )
        }
        func sgr(_ layer: Int, _ value: (UInt8, UInt8, UInt8)?) -> String {
            guard let value else { return "\(layer)9" }
            return "\(layer)8;2;\(value.0);\(value.1);\(value.2)"
        }
        return stride(from: 0, to: bitmap.height, by: 2).map { y in
            var line = ""
            var last = ""
            for x in 0..<bitmap.width {
                let (top, bottom) = (colour(x, y), colour(x, y + 1))
                // The upper half as the foreground of ▀; when only the lower half is drawn,
                // ▄ takes it, so the upper stays the terminal's; neither: a space.
                let (glyph, colours): (String, String)
                switch (top, bottom) {
                case (nil, nil): (glyph, colours) = (" ", "\u{1B}[0m")
                case (nil, let bottom?): (glyph, colours) = ("▄", "\u{1B}[\(sgr(3, bottom));49m")
                case (let top?, let bottom): (glyph, colours) = ("▀", "\u{1B}[\(sgr(3, top));\(sgr(4, bottom))m")
                }
                if colours != last { line += colours }
                last = colours
                line += glyph
            }
            return line + "\u{1B}[0m"
        }
    }
}
