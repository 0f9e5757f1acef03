import ClosetCore

/// Aligned columns. Plain (for pipes and golden files):
///
///     #  id        kind   note
///     -  --------  -----  ----
///     1  3F2A9C1E  small  blue
///     (1 row)
///
/// or drawn with box characters on a terminal. Widths count display cells, so Hangul and
/// emoji line up. A narrow terminal narrows the widest columns (cutting with `…`); when
/// nothing fits, and for one entity, a terminal gets `VerticalRenderer`'s layout instead.
public struct TableRenderer: Sendable {
    package var boxDrawing: Bool
    /// The terminal width to fit, if known.
    package var maxWidth: Int?
    /// Bold headers (a terminal without NO_COLOR).
    package var color: Bool
    /// The header row and its rule (`.headers off` leaves them out).
    public var headers = true
    /// Rows under an entity in its detail view: never cut (a field per line when too wide),
    /// and one row stays a table.
    package var isDetailChild = false

    public init(boxDrawing: Bool = false, maxWidth: Int? = nil, color: Bool = false) {
        self.boxDrawing = boxDrawing
        self.maxWidth = maxWidth
        self.color = color
    }

    package func render(_ grid: Grid) -> String {
        // At a terminal, one entity is shown a field per line: never cut.
        if let maxWidth, !grid.isListing, !isDetailChild, grid.rows.count == 1 {
            return VerticalRenderer(width: maxWidth, color: color, boxDrawing: boxDrawing).render(grid)
        }
        var rows = grid.rows.map { $0.map { TerminalText.visible($0) } }
        // Every cell's width once: measuring text is the costly part of drawing a table.
        var cellWidths = rows.map { $0.map(TextWidth.of) }
        let headerWidths = grid.columns.map(TextWidth.of)
        var widths = headerWidths
        for row in cellWidths {
            for (i, width) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], width) }
        }
        let natural = widths
        switch narrow(&widths, columns: grid.columns, wholeColumns: grid.wholeColumns) {
        case .fits: break
        case .cut:
            for column in widths.indices where widths[column] < natural[column] {
                for r in rows.indices where column < rows[r].count {
                    rows[r][column] = TextWidth.truncate(rows[r][column], toCells: widths[column])
                }
            }
            cellWidths = rows.map { $0.map(TextWidth.of) }
        case .tooNarrow:
            return VerticalRenderer(width: maxWidth ?? 0, color: color, boxDrawing: boxDrawing).render(grid)
        }

        var out: [UInt8] = []
        out.reserveCapacity((widths.reduce(0, +) + 3 * widths.count + 2) * (rows.count + 4))
        top(columns: grid.columns, title: grid.title, widths, into: &out)
        for (index, (row, rowWidths)) in zip(rows, cellWidths).enumerated() {
            var marks: [Int: TextMark] = [:]
            if color, !grid.marks.isEmpty {
                for column in row.indices { marks[column] = grid.marks[GridCell(row: index, column: column)] }
            }
            line(row, rowWidths, widths, numeric: grid.numericColumns, marks: marks, into: &out)
        }
        bottom(rows: grid.isListing ? grid.rows.count : nil, footer: grid.footer, widths, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// What comes before the rows: the title, the top border, the header row and its rule.
    func top(columns: [String], title: String?, _ widths: [Int], into out: inout [UInt8]) {
        if let title { out += Array((TerminalText.visible(title) + "\n").utf8) }
        if boxDrawing { border("┌", "┬", "┐", widths, into: &out) }
        if headers {
            line(columns, columns.map(TextWidth.of), widths, numeric: [], bold: color, into: &out)
            if boxDrawing {
                border("├", "┼", "┤", widths, into: &out)
            } else {
                dashes(widths, into: &out)
            }
        }
    }

    /// What comes after the rows: the bottom border, `(N rows)` for a listing, the footer.
    func bottom(rows: Int?, footer: String?, _ widths: [Int], into out: inout [UInt8]) {
        if boxDrawing { border("└", "┴", "┘", widths, into: &out) }
        if let rows { out += Array("(\(rows) \(rows == 1 ? "row" : "rows"))\n".utf8) }
        if let footer { out += Array((footer + "\n").utf8) }
    }

    private static let shortColumn = 20
    private static let narrowestCut = 10

    enum Fit {
        case fits, cut, tooNarrow
    }

    /// Narrows the widest columns in turn (their cells to be cut with `…`) until the table fits
    /// `maxWidth`. Short columns (20 cells or less) are cut only when cutting the others is not
    /// enough, and never below 10 cells (ids and words fit in that) nor instants and other whole
    /// columns; a cut column keeps 10 cells and its header. When that is still too wide, the table
    /// does not fit.
    func narrow(_ widths: inout [Int], columns: [String], wholeColumns: Set<Int>) -> Fit {
        guard let maxWidth else { return .fits }
        let separators = boxDrawing ? 3 * widths.count + 1 : 2 * max(0, widths.count - 1)
        var excess = widths.reduce(0, +) + separators - maxWidth
        guard excess > 0 else { return .fits }
        guard !isDetailChild else { return .tooNarrow }
        let natural = widths
        func minimums(shortest: Int) -> [Int] {
            widths.indices.map {
                natural[$0] <= shortest || wholeColumns.contains($0)
                    ? natural[$0] : max(TextWidth.of(columns[$0]), Self.narrowestCut)
            }
        }
        // Short columns are cut too when nothing else is left to cut (a row of place names),
        // rather than every row becoming a field per line; ids, words and instants never are.
        var minimum = minimums(shortest: Self.shortColumn)
        if widths.indices.reduce(0, { $0 + natural[$1] - minimum[$1] }) < excess {
            minimum = minimums(shortest: Self.narrowestCut)
        }
        while excess > 0 {
            guard let widest = widths.indices.filter({ widths[$0] > minimum[$0] }).max(by: { widths[$0] < widths[$1] })
            else { return .tooNarrow }
            // Down to the next widest column's width at most, so the widest shrink together.
            let next =
                widths.indices.filter { $0 != widest }.map { widths[$0] }.filter { $0 < widths[widest] }.max() ?? 0
            let step = min(excess, widths[widest] - max(minimum[widest], next), widths[widest] - minimum[widest])
            widths[widest] -= max(1, step)
            excess -= max(1, step)
        }
        return .cut
    }

    private static let space = UInt8(ascii: " ")

    /// One row: cells padded to their column's width (numbers on the right), two blanks
    /// between columns, no trailing blanks; or `│ a │ b │` with box drawing.
    func line(
        _ cells: [String], _ cellWidths: [Int], _ widths: [Int], numeric: Set<Int>, bold: Bool = false,
        marks: [Int: TextMark] = [:], into out: inout [UInt8]
    ) {
        let lineStart = out.count
        if boxDrawing { out += Array("│ ".utf8) }
        for (i, width) in widths.enumerated() {
            let cell = i < cells.count ? cells[i] : ""
            let gap = max(0, width - (i < cellWidths.count ? cellWidths[i] : 0))
            if i > 0 { out += boxDrawing ? Array(" │ ".utf8) : [Self.space, Self.space] }
            if numeric.contains(i) { out.append(contentsOf: repeatElement(Self.space, count: gap)) }
            if bold && !cell.isEmpty { out += Array("\u{1B}[1m".utf8) }
            let mark = cell.isEmpty ? nil : marks[i]?.sequences
            if let mark { out += Array(mark.on.utf8) }
            out += cell.utf8
            if let mark { out += Array(mark.off.utf8) }
            if bold && !cell.isEmpty { out += Array("\u{1B}[0m".utf8) }
            if !numeric.contains(i) { out.append(contentsOf: repeatElement(Self.space, count: gap)) }
        }
        if boxDrawing {
            out += Array(" │".utf8)
        } else {
            while out.count > lineStart, out.last == Self.space { out.removeLast() }
        }
        out.append(UInt8(ascii: "\n"))
    }

    // Both rules are written as bytes: `String(repeating:count:)` appends its string once per
    // cell (10,000 instructions for a 36-cell rule, 7 % of a `remove` shown as a table).

    /// The dashes under a plain table's headers: `line` of cells of dashes as wide as their
    /// columns (two blanks between, none trailing).
    func dashes(_ widths: [Int], into out: inout [UInt8]) {
        let lineStart = out.count
        for (i, width) in widths.enumerated() {
            if i > 0 { out += [Self.space, Self.space] }
            out.append(contentsOf: repeatElement(UInt8(ascii: "-"), count: width))
        }
        while out.count > lineStart, out.last == Self.space { out.removeLast() }
        out.append(UInt8(ascii: "\n"))
    }

    private static let horizontal = Array("─".utf8)

    func border(_ left: String, _ middle: String, _ right: String, _ widths: [Int], into out: inout [UInt8]) {
        out += left.utf8
        for (i, width) in widths.enumerated() {
            if i > 0 { out += middle.utf8 }
            for _ in 0..<(width + 2) { out += Self.horizontal }
        }
        out += right.utf8
        out.append(UInt8(ascii: "\n"))
    }
}
