import ClosetCore
import ClosetPictures

/// A result's pictures as terminal output: each decoded, arranged as its app shows them onto one
/// canvas (scaled by area averaging, the aspect kept, within the terminal's width and height),
/// then written the chosen way. A picture that cannot be shown is one line saying why.
struct PictureRenderer {
    /// Not `auto` nor `off`: what the session resolved them to.
    var mode: PictureMode
    /// Cells across the pictures may take, and down (a masonry may run longer, as a feed does).
    var columns: Int
    var rows: Int
    /// A cell's size in the pixels of a graphics protocol (kitty, iTerm2, sixel).
    var cellPixels: (width: Int, height: Int) = (10, 20)
    /// Cells across a thumbnail (`.thumbnails`).
    var thumbnailSide = 12

    /// Pixels per cell across and down for this mode: half blocks show one pixel across and
    /// two down in each.
    var pixelsPerCell: (width: Int, height: Int) { mode == .blocks ? (1, 2) : cellPixels }

    /// The text to write; `stop` is asked between pictures (Ctrl-C stops a long render between
    /// pictures, before anything of the next is written).
    /// `pictures` may be lazy: each is loaded (read, fetched) only when its turn comes, after
    /// `stop` was asked.
    /// `firstNumber`: the listing's row number of the first picture (thumbnails are numbered).
    /// `sections`: thumbnails drawn in named groups (`Pictures.Section`), headed in Korean
    /// when `korean`.
    func render(
        _ pictures: some Sequence<Picture>, _ arrangement: Pictures.Arrangement, firstNumber: Int = 1,
        sections: [Pictures.Section]? = nil, korean: Bool = false, stop: () -> Bool = { false }
    ) -> String {
        var notes: [String] = []
        var shown: [Shown] = []
        let box = drawnWithin(arrangement)
        var iterator = pictures.makeIterator()
        var number = firstNumber - 1
        while true {
            if stop() { return "pictures: stopped\n" }
            guard let picture = iterator.next() else { break }
            number += 1
            switch picture.source {
            case .none: continue
            // A reason may quote a server or a file: shown as text, never as terminal controls.
            case .unavailable(let reason):
                notes.append("picture: " + TerminalText.visible(reason))
                shown.append(Shown(bitmap: nil, display: picture.displaySize, column: picture.column, number: number))
            case .bytes(let bytes):
                do {
                    let bitmap = try PictureDecoder.decode(bytes, drawnWithin: box)
                    shown.append(
                        Shown(bitmap: bitmap, display: picture.displaySize, column: picture.column, number: number))
                } catch {
                    notes.append("picture: " + TerminalText.visible(error.message))
                    shown.append(
                        Shown(bitmap: nil, display: picture.displaySize, column: picture.column, number: number))
                }
            case .collage(let parts):
                // Its parts as a 2×2 grid within the same box, drawn as one picture.
                var quarter = self
                quarter.columns = max(1, box.width / max(1, pixelsPerCell.width))
                quarter.rows = max(1, box.height / max(1, pixelsPerCell.height))
                var drawn: [Shown] = []
                for part in parts {
                    guard case .bytes(let bytes) = part.source else {
                        if case .unavailable(let reason) = part.source {
                            notes.append("picture: " + TerminalText.visible(reason))
                        }
                        continue
                    }
                    do {
                        drawn.append(Shown(bitmap: try PictureDecoder.decode(bytes, drawnWithin: box)))
                    } catch {
                        notes.append("picture: " + TerminalText.visible(error.message))
                    }
                }
                shown.append(Shown(bitmap: quarter.arrange(drawn, .grid(columns: 2)), number: number))
            }
        }
        var out = ""
        if arrangement == .thumbnails, let sections, sections.reduce(0, { $0 + $1.count }) == number - firstNumber + 1 {
            var first = firstNumber
            for section in sections {
                out += "\(korean ? section.korean ?? section.title : section.title) (\(section.count))\n"
                let rows = first..<(first + section.count)
                let inSection = shown.filter { rows.contains($0.number) }
                if inSection.contains(where: { $0.bitmap != nil }) { out += strip(inSection, side: thumbnailSide) }
                first += section.count
            }
        } else if arrangement == .thumbnails {
            out += strip(shown, side: thumbnailSide)
        } else if shown.contains(where: { $0.bitmap != nil }), let canvas = arrange(shown, arrangement) {
            out += encode(canvas)
            if case .masonry(let count) = arrangement { out += masonryNumbers(shown, count: count) }
        }
        for note in notes { out += note + "\n" }
        return out
    }

    /// Thumbnails `side` cells across (square in pixels, never past the height allowed), as many
    /// to a line as fit with a cell between, each line followed by its pictures' row numbers,
    /// each number under the first cell of its picture.
    func strip(_ all: [Shown], side: Int) -> String {
        let (cellWidth, cellHeight) = pixelsPerCell
        let sideCells = max(1, min(side, columns, rows * cellHeight / max(1, cellWidth)))
        let pixels = sideCells * cellWidth
        let perLine = max(1, (columns + 1) / (sideCells + 1))
        let drawn = all.compactMap { item in item.bitmap.map { (bitmap: $0, number: item.number) } }
        var out = ""
        for start in stride(from: 0, to: drawn.count, by: perLine) {
            let line = drawn[start..<min(start + perLine, drawn.count)]
            var canvas = Bitmap(width: line.count * pixels + (line.count - 1) * cellWidth, height: pixels)
            var numbers = ""
            for (place, item) in line.enumerated() {
                let picture = Self.fitted(item.bitmap, pixels, pixels)
                let x = place * (pixels + cellWidth)
                canvas.draw(picture, x: x + (pixels - picture.width) / 2, y: (pixels - picture.height) / 2)
                let column = max(place * (sideCells + 1), numbers.count + (numbers.isEmpty ? 0 : 1))
                numbers += String(repeating: " ", count: column - numbers.count) + String(item.number)
            }
            out += encode(canvas) + numbers + "\n"
        }
        return out
    }

    /// A picture fitted into `width` × `height`, never enlarged past its own size.
    static func fitted(_ bitmap: Bitmap, _ width: Int, _ height: Int) -> Bitmap {
        let scale = min(1, Double(width) / Double(bitmap.width), Double(height) / Double(bitmap.height))
        return bitmap.scaled(
            toWidth: max(1, Int((Double(bitmap.width) * scale).rounded())),
            height: max(1, Int((Double(bitmap.height) * scale).rounded())))
    }

    /// The most any one picture of the arrangement is drawn at, in this mode's pixels: a
    /// masonry's column across (its height follows the picture), else the whole canvas.
    func drawnWithin(_ arrangement: Pictures.Arrangement) -> (width: Int, height: Int) {
        let (cellWidth, cellHeight) = pixelsPerCell
        let (maxWidth, maxHeight) = (columns * cellWidth, rows * cellHeight)
        switch arrangement {
        case .masonry(let count):
            let count = max(1, count)
            return (max(1, (maxWidth - (count - 1) * cellWidth) / count), Int.max / 2)
        case .thumbnails:
            let pixels = max(1, min(thumbnailSide, columns) * cellWidth)
            return (pixels, pixels)
        case .single, .row, .grid: break
        }
        return (max(1, maxWidth), max(1, maxHeight))
    }

    /// A picture as decoded for the arrangement; nil where it could not be shown (a masonry
    /// keeps its place).
    struct Shown {
        var bitmap: Bitmap?
        var display: (width: Int, height: Int)?
        var column: Int?
        /// Its row in the listing.
        var number = 1
    }

    /// The canvas every picture is drawn on, in this mode's pixels.
    func arrange(_ all: [Shown], _ arrangement: Pictures.Arrangement) -> Bitmap? {
        // Only a masonry keeps a place for a picture that is not there.
        let shown = all.compactMap { item in item.bitmap.map { (bitmap: $0, display: item.display) } }
        guard !shown.isEmpty else { return nil }
        let (cellWidth, cellHeight) = pixelsPerCell
        let (maxWidth, maxHeight) = (columns * cellWidth, rows * cellHeight)
        guard maxWidth > 0, maxHeight > 0 else { return nil }
        let fitted = Self.fitted
        switch arrangement {
        case .single:
            return fitted(shown[0].bitmap, maxWidth, maxHeight)
        case .row:
            // One height for all, as large as fits the width (gaps of a cell) and the height.
            let gaps = (shown.count - 1) * cellWidth
            let aspects = shown.map { Double($0.bitmap.width) / Double($0.bitmap.height) }
            let tallest = shown.map(\.bitmap.height).max() ?? 1
            let height = max(
                1, min(maxHeight, tallest, Int(Double(max(1, maxWidth - gaps)) / aspects.reduce(0, +))))
            let scaled = zip(shown, aspects).map { item, aspect in
                item.bitmap.scaled(toWidth: max(1, Int((Double(height) * aspect).rounded())), height: height)
            }
            var canvas = Bitmap(width: min(maxWidth, scaled.map(\.width).reduce(gaps, +)), height: height)
            var x = 0
            for picture in scaled {
                canvas.draw(picture, x: x, y: 0)
                x += picture.width + cellWidth
            }
            return canvas
        case .grid(let across):
            let across = max(1, min(across, shown.count))
            let down = (shown.count + across - 1) / across
            // Square cells (a half-block cell is one pixel across and two down, so squares).
            let side = max(
                1, min((maxWidth - (across - 1) * cellWidth) / across, (maxHeight - (down - 1) * cellHeight) / down))
            var canvas = Bitmap(
                width: across * side + (across - 1) * cellWidth, height: down * side + (down - 1) * cellHeight)
            for (index, item) in shown.enumerated() {
                let picture = fitted(item.bitmap, side, side)
                let (column, row) = (index % across, index / across)
                canvas.draw(
                    picture, x: column * (side + cellWidth) + (side - picture.width) / 2,
                    y: row * (side + cellHeight) + (side - picture.height) / 2)
            }
            return canvas
        case .masonry(let count):
            let (width, places, heights) = masonryPlaces(all, count: count)
            var canvas = Bitmap(
                width: count * width + (count - 1) * cellWidth, height: max(1, (heights.max() ?? 1) - cellHeight))
            for (item, place) in zip(all, places) {
                guard let bitmap = item.bitmap else { continue }
                // Fitted in its place, never enlarged, centred across it.
                let picture = fitted(bitmap, width, place.height)
                canvas.draw(picture, x: place.column * (width + cellWidth) + (width - picture.width) / 2, y: place.y)
            }
            return canvas
        case .thumbnails:
            return nil  // a line at a time, with their numbers (`strip`)
        }
    }

    /// Where a masonry puts each picture: the column the app placed it in (else the shortest, the
    /// leftmost of equals: the app's rule), at the column's height, as tall as its display size at
    /// the column's width; a picture not shown keeps its place. With the columns' width and heights.
    func masonryPlaces(_ all: [Shown], count: Int) -> (
        width: Int, places: [(column: Int, y: Int, height: Int)], heights: [Int]
    ) {
        let (cellWidth, cellHeight) = pixelsPerCell
        let count = max(1, count)
        let width = max(1, (columns * cellWidth - (count - 1) * cellWidth) / count)
        var heights = [Int](repeating: 0, count: count)
        var places: [(column: Int, y: Int, height: Int)] = []
        for item in all {
            let (displayWidth, displayHeight) =
                item.display ?? item.bitmap.map { ($0.width, $0.height) } ?? (width, width)
            let height = max(1, Int((Double(width) * Double(displayHeight) / Double(max(1, displayWidth))).rounded()))
            let column =
                item.column.map { min(max($0, 0), count - 1) } ?? heights.indices.min { heights[$0] < heights[$1] } ?? 0
            places.append((column, heights[column], height))
            heights[column] += height + cellHeight
        }
        return (width, places, heights)
    }

    /// The line under a masonry: each column's row numbers, top to bottom, under its first cell.
    func masonryNumbers(_ all: [Shown], count: Int) -> String {
        let (width, places, _) = masonryPlaces(all, count: count)
        var line = ""
        for column in 0..<max(1, count) {
            let numbers = zip(all, places).filter { $0.1.column == column }.map { String($0.0.number) }
            guard !numbers.isEmpty else { continue }
            let start = max(
                column * (width + pixelsPerCell.width) / max(1, pixelsPerCell.width),
                line.count + (line.isEmpty ? 0 : 2))
            line += String(repeating: " ", count: start - line.count) + numbers.joined(separator: " ")
        }
        return line.isEmpty ? "" : line + "\n"
    }

    func encode(_ canvas: Bitmap) -> String {
        let (cellWidth, cellHeight) = pixelsPerCell
        let (columns, rows) = (
            (canvas.width + cellWidth - 1) / cellWidth, (canvas.height + cellHeight - 1) / cellHeight
        )
        switch mode {
        case .blocks: return HalfBlocks.render(canvas).joined(separator: "\n") + "\n"
        case .kitty: return KittyGraphics.escape(canvas, columns: columns, rows: rows) + "\n"
        case .iterm: return InlineImages.escape(canvas, columns: columns, rows: rows) + "\n"
        case .sixel: return Sixel.escape(canvas) + "\n"
        case .auto, .off: return ""
        }
    }
}
