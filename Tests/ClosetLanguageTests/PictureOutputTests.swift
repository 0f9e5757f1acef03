import ClosetCore
import ClosetPictures
import Testing

@testable import ClosetLanguage

/// Issue 26: which output a terminal gets, and how a result's pictures are arranged.
@Suite struct PictureOutputTests {
    @Test func theAutomaticChoiceForEachTerminal() {
        let cases: [([String: String], String?, PictureMode)] = [
            (["TERM": "xterm-kitty"], nil, .kitty),
            (["KITTY_WINDOW_ID": "3", "TERM": "xterm-256color"], nil, .kitty),
            (["TERM": "xterm-ghostty"], nil, .kitty),
            (["KONSOLE_VERSION": "230804", "TERM": "xterm-256color"], nil, .kitty),
            (["TERM_PROGRAM": "iTerm.app"], nil, .iterm),
            (["TERM_PROGRAM": "WezTerm", "TERM": "xterm-256color"], nil, .iterm),
            (["TERM_PROGRAM": "vscode", "COLORTERM": "truecolor"], nil, .iterm),
            (["TERM": "foot"], nil, .sixel),
            (["TERM": "xterm-256color"], "\u{1B}[?63;1;2;4;6;9;15;22c", .sixel),
            (["TERM": "xterm-256color", "COLORTERM": "truecolor"], "\u{1B}[?62;22c", .blocks),
            (["TERM": "xterm-256color", "COLORTERM": "24bit"], nil, .blocks),
            (["TERM": "xterm-direct"], nil, .blocks),
            // tmux passes no graphics protocol through: half blocks, whatever runs outside it.
            (["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color", "KITTY_WINDOW_ID": "1"], nil, .blocks),
            (["TERM": "screen-256color"], "\u{1B}[?62;4c", .blocks),
            (["TERM": "xterm-256color"], nil, .off),
            (["TERM": "linux"], "\u{1B}[?6c", .off),
            (["TERM": "dumb", "COLORTERM": "truecolor"], nil, .off),
            (["TERM": "xterm-kitty", "NO_COLOR": "1"], nil, .off),
        ]
        for (environment, answer, expected) in cases {
            #expect(PictureDetection.choose(environment, deviceAttributes: answer) == expected, "\(environment)")
        }
    }

    static func solid(_ width: Int, _ height: Int, _ value: UInt8) -> Picture {
        .bytes(
            PNGEncoder.encode(
                Bitmap(
                    width: width, height: height,
                    pixels: Array([[UInt8]](repeating: [value, value, value, 255], count: width * height).joined()))))
    }

    func arranged(_ pictures: [Picture], _ arrangement: Pictures.Arrangement, columns: Int = 40, rows: Int = 20)
        -> Bitmap?
    {
        let renderer = PictureRenderer(mode: .blocks, columns: columns, rows: rows)
        // As the renderer keeps them: a picture that does not decode is a place without one.
        let shown = pictures.map { picture in
            var bitmap: Bitmap?
            if case .bytes(let bytes) = picture.source { bitmap = try? PictureDecoder.decode(bytes) }
            return PictureRenderer.Shown(bitmap: bitmap, display: picture.displaySize, column: picture.column)
        }
        return renderer.arrange(shown, arrangement)
    }

    @Test func onePictureFitsTheWidthAndHeightWithItsAspect() {
        // 200×100 into 40 cells by 20 rows (40 half-block pixels): 40×20.
        let canvas = arranged([Self.solid(200, 100, 9)], .single)
        #expect(canvas.map { [$0.width, $0.height] } == [40, 20])
        // Tall: the rows decide; never enlarged.
        #expect(arranged([Self.solid(100, 400, 9)], .single).map { [$0.width, $0.height] } == [10, 40])
        #expect(arranged([Self.solid(5, 3, 9)], .single).map { [$0.width, $0.height] } == [5, 3])
    }

    @Test func aRowSharesOneHeightWithACellBetween() {
        // 20×20 and 40×20 at one height: widths 1:2, a cell's gap; 40 cells: height 13.
        let canvas = arranged([Self.solid(20, 20, 9), Self.solid(40, 20, 9)], .row)
        #expect(canvas.map { [$0.width, $0.height] } == [40, 13])
    }

    @Test func aCollageIsSquareCellsTwoAcross() {
        let four = Array(repeating: Self.solid(30, 60, 200), count: 4)
        let canvas = arranged(four, .grid(columns: 2))
        // Cells of 19×19 pixels (two down must fit 40 pixels with a two-pixel gap), one cell between.
        #expect(canvas.map { [$0.width, $0.height] } == [39, 40])
        // Each picture is centred in its cell: a 10×19 picture leaves columns 0-4 clear.
        #expect(canvas.map { $0.pixels[3] } == 0)
        #expect(canvas.map { $0.pixels[(5) * 4] } == 200)
    }

    @Test func aMasonryPutsEachPictureInTheShortestColumnAtItsDisplayHeight() {
        // Display sizes as the feed computes them: 150 points wide.
        let pictures = [
            Picture(Self.solid(10, 20, 50).source, displaySize: (150, 300)),
            Picture(Self.solid(10, 10, 50).source, displaySize: (150, 150)),
            Picture(Self.solid(10, 10, 50).source, displaySize: (150, 150)),
        ]
        // Columns 19 wide (40 cells, one between): 38, then 19 beside it, then 19 under that.
        let canvas = arranged(pictures, .masonry(columns: 2))
        #expect(canvas.map { [$0.width, $0.height] } == [39, 40])
        guard let canvas else { return }
        func alpha(_ x: Int, _ y: Int) -> UInt8 { canvas.pixels[(y * canvas.width + x) * 4 + 3] }
        // Never enlarged: the left place is 19×38, its 10×20 picture centred at its own size.
        #expect(alpha(4, 0) == 255 && alpha(3, 0) == 0 && alpha(4, 19) == 255 && alpha(4, 20) == 0)
        // The right column: two places of 19×19, each 10×10 picture centred across, at the top.
        #expect(alpha(24, 0) == 255 && alpha(24, 9) == 255 && alpha(24, 10) == 0 && alpha(24, 21) == 255)
    }

    /// The table's column decides (a page of the feed starts with both columns empty, the app's
    /// layout did not), and a picture that cannot be shown keeps its place, so the pictures after
    /// it stay in the table's columns.
    @Test func aMasonryKeepsTheTablesColumnsAndThePlaceOfAPictureNotShown() {
        let pictures = [
            Picture(.unavailable("missing from the store"), displaySize: (150, 300), column: 0),
            Picture(Self.solid(40, 40, 50).source, displaySize: (150, 150), column: 1),
            Picture(Self.solid(40, 40, 90).source, displaySize: (150, 150), column: 1),
            Picture(Self.solid(40, 40, 130).source, displaySize: (150, 150), column: 0),
        ]
        let canvas = arranged(pictures, .masonry(columns: 2))
        guard let canvas else { return }
        func colour(_ x: Int, _ y: Int) -> UInt8 { canvas.pixels[(y * canvas.width + x) * 4] }
        func alpha(_ x: Int, _ y: Int) -> UInt8 { canvas.pixels[(y * canvas.width + x) * 4 + 3] }
        // Left: 38 rows kept for the missing picture, then the fourth below its place.
        #expect(alpha(5, 0) == 0 && alpha(5, 37) == 0)
        #expect(colour(5, 40) == 130)
        // Right: the second and third, one above the other.
        #expect(colour(25, 0) == 50 && colour(25, 21) == 90)
    }

    /// A listing's thumbnails: square, as many to a line as fit, each line followed by the row
    /// numbers of its pictures under their first cells; a row without a picture has none and
    /// the numbers after it stay the table's.
    @Test func thumbnailsAreNumberedByTheirRows() {
        var renderer = PictureRenderer(mode: .blocks, columns: 19, rows: 20)
        renderer.thumbnailSide = 6
        let pictures = [
            Self.solid(30, 60, 50), Picture.none, Self.solid(60, 30, 90), Self.solid(10, 10, 130),
            Picture(.unavailable("missing from the store")),
        ]
        let text = renderer.render(pictures, .thumbnails, firstNumber: 21)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Two fit across 19 cells (6 and a gap each; three need 20): three lines of half blocks (six pixels
        // down), then the numbers; the third picture on a line of its own.
        #expect(lines.count == 4 + 4 + 1 + 1, "\(lines)")
        #expect(lines[3] == "21     23")
        #expect(lines[7] == "24")
        #expect(lines[8] == "picture: missing from the store")
        // Fitted into 6×6 and centred: the tall picture's cells are 3 wide, from the second.
        #expect(lines[0].contains("▀") && !lines[0].hasPrefix("\u{1B}[38;2;50"))
    }

    /// Under a masonry, each column's row numbers top to bottom, under its first cell, a picture
    /// not shown keeping its number where its place is.
    @Test func aMasonryNamesEachColumnsRows() {
        let renderer = PictureRenderer(mode: .blocks, columns: 40, rows: 20)
        let pictures = [
            Picture(Self.solid(40, 40, 50).source, displaySize: (150, 150), column: 0),
            Picture(.unavailable("missing from the store"), displaySize: (150, 150), column: 1),
            Picture(Self.solid(40, 40, 90).source, displaySize: (150, 150), column: 1),
            Picture(Self.solid(40, 40, 130).source, displaySize: (150, 150), column: 0),
        ]
        let lines = renderer.render(pictures, .masonry(columns: 2), firstNumber: 16).split(separator: "\n")
        // Columns 19 cells wide with one between: the right column starts at cell 20.
        #expect(lines.dropLast().last.map(String.init) == "16 19" + String(repeating: " ", count: 15) + "17 18")
        #expect(lines.last.map(String.init) == "picture: missing from the store")
    }

    @Test func whatCannotBeShownIsALineSayingWhy() {
        let renderer = PictureRenderer(mode: .blocks, columns: 10, rows: 5)
        let text = renderer.render(
            [Picture(.unavailable("missing from the store")), .bytes([1, 2, 3]), Self.solid(2, 2, 255)], .row)
        #expect(text.hasSuffix("picture: missing from the store\npicture: not a PNG or JPEG picture\n"))
        #expect(text.hasPrefix("\u{1B}[38;2;255;255;255;48;2;255;255;255m▀▀\u{1B}[0m\n"))
        // Stopped (Ctrl-C) before the first picture: nothing of it is written.
        #expect(renderer.render([Self.solid(2, 2, 255)], .single, stop: { true }) == "pictures: stopped\n")
    }
}

extension PictureOutputTests {
    @Test func aReasonFromOutsideReachesTheTerminalAsText() {
        let renderer = PictureRenderer(mode: .blocks, columns: 10, rows: 5)
        let text = renderer.render([Picture(.unavailable("HTTP 500: \u{1B}]0;owned\u{07}"))], .single)
        #expect(!text.contains("\u{1B}") && !text.contains("\u{07}") && text.hasPrefix("picture: HTTP 500: "))
    }
}
