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
        // Written as UTF-8 bytes: a page of pictures is tens of thousands of numbers, and
        // string interpolation made the text cost more than decoding the photos behind it.
        bitmap.pixels.withUnsafeBufferPointer { pixels in
            /// nil: the terminal's own colour.
            func colour(_ x: Int, _ y: Int) -> (UInt8, UInt8, UInt8)? {
                guard y < bitmap.height else { return background }
                let at = (y * bitmap.width + x) * 4
                let alpha = Int(pixels[at + 3])
                guard let under = background else {
                    return alpha < 128 ? nil : (pixels[at], pixels[at + 1], pixels[at + 2])
                }
                func blend(_ value: UInt8, _ under: UInt8) -> UInt8 {
                    UInt8((Int(value) * alpha + Int(under) * (255 - alpha) + 127) / 255)
                }
                return (blend(pixels[at], under.0), blend(pixels[at + 1], under.1), blend(pixels[at + 2], under.2))
            }
            var line: [UInt8] = []
            line.reserveCapacity(bitmap.width * 40 + 8)
            // A cell's SGR sequence, compared with the last one written: two cells that name
            // the same colours (a `▄` and a `▀` may) need no second sequence.
            var colours: [UInt8] = []
            var last: [UInt8] = []
            colours.reserveCapacity(40)
            last.reserveCapacity(40)
            return stride(from: 0, to: bitmap.height, by: 2).map { y in
                line.removeAll(keepingCapacity: true)
                last.removeAll(keepingCapacity: true)
                for x in 0..<bitmap.width {
                    let (top, bottom) = (colour(x, y), colour(x, y + 1))
                    // The upper half as the foreground of ▀; when only the lower half is drawn,
                    // ▄ takes it, so the upper stays the terminal's; neither: a space.
                    colours.removeAll(keepingCapacity: true)
                    let glyph: StaticString
                    switch (top, bottom) {
                    case (nil, nil):
                        glyph = " "
                        colours.append(contentsOf: reset)
                    case (nil, let bottom?):
                        glyph = "▄"
                        colours.append(contentsOf: introducer)
                        appendSGR(&colours, layer: 3, bottom)
                        colours.append(contentsOf: ";49m".utf8)
                    case (let top?, let bottom):
                        glyph = "▀"
                        colours.append(contentsOf: introducer)
                        appendSGR(&colours, layer: 3, top)
                        colours.append(UInt8(ascii: ";"))
                        appendSGR(&colours, layer: 4, bottom)
                        colours.append(UInt8(ascii: "m"))
                    }
                    if colours != last {
                        line.append(contentsOf: colours)
                        swap(&colours, &last)
                    }
                    glyph.withUTF8Buffer { line.append(contentsOf: $0) }
                }
                line.append(contentsOf: reset)
                return String(decoding: line, as: UTF8.self)
            }
        }
    }

    private static let introducer: [UInt8] = [0x1B, UInt8(ascii: "[")]
    private static let reset: [UInt8] = [0x1B, UInt8(ascii: "["), UInt8(ascii: "0"), UInt8(ascii: "m")]

    /// `38;2;r;g;b` (or `48;…`), or `39`/`49` for the terminal's own colour.
    private static func appendSGR(_ bytes: inout [UInt8], layer: UInt8, _ value: (UInt8, UInt8, UInt8)?) {
        bytes.append(UInt8(ascii: "0") + layer)
        guard let value else {
            bytes.append(UInt8(ascii: "9"))
            return
        }
        bytes.append(contentsOf: "8;2;".utf8)
        appendDecimal(&bytes, value.0)
        bytes.append(UInt8(ascii: ";"))
        appendDecimal(&bytes, value.1)
        bytes.append(UInt8(ascii: ";"))
        appendDecimal(&bytes, value.2)
    }

    private static func appendDecimal(_ bytes: inout [UInt8], _ value: UInt8) {
        if value >= 100 { bytes.append(UInt8(ascii: "0") + value / 100) }
        if value >= 10 { bytes.append(UInt8(ascii: "0") + value / 10 % 10) }
        bytes.append(UInt8(ascii: "0") + value % 10)
    }
}
