/// Aligned columns. Plain (for pipes and golden files):
///
///     #  id        kind   note
///     -  --------  -----  ----
///     1  3F2A9C1E  small  blue
///     (1 row)
///
/// or drawn with box characters on a terminal. Widths count display cells, so Hangul and
/// emoji line up. A narrow terminal cuts the widest text column with `…`.
public struct TableRenderer: Sendable {
    public var boxDrawing: Bool
    /// The terminal width to fit, if known.
    public var maxWidth: Int?
    /// Bold headers (a terminal without NO_COLOR).
    public var color: Bool

    public init(boxDrawing: Bool = false, maxWidth: Int? = nil, color: Bool = false) {
        self.boxDrawing = boxDrawing
        self.maxWidth = maxWidth
        self.color = color
    }

    public func render(_ grid: Grid) -> String {
        var rows = grid.rows.map { $0.map { TerminalText.visible($0) } }
        // Every cell's width once: measuring text is the costly part of drawing a table.
        var cellWidths = rows.map { $0.map(TextWidth.of) }
        let headerWidths = grid.columns.map(TextWidth.of)
        var widths = headerWidths
        for row in cellWidths {
            for (i, width) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], width) }
        }
        if fit(&widths, rows: &rows, grid: grid) { cellWidths = rows.map { $0.map(TextWidth.of) } }

        var out: [UInt8] = []
        out.reserveCapacity((widths.reduce(0, +) + 3 * widths.count + 2) * (rows.count + 4))
        if boxDrawing { border("┌", "┬", "┐", widths, into: &out) }
        line(grid.columns, headerWidths, widths, numeric: [], bold: color, into: &out)
        if boxDrawing {
            border("├", "┼", "┤", widths, into: &out)
        } else {
            line(widths.map { String(repeating: "-", count: $0) }, widths, widths, numeric: [], into: &out)
        }
        for (index, (row, rowWidths)) in zip(rows, cellWidths).enumerated() {
            let struck = color ? Set(row.indices.filter { grid.struck.contains(GridCell(row: index, column: $0)) }) : []
            line(row, rowWidths, widths, numeric: grid.numericColumns, struck: struck, into: &out)
        }
        if boxDrawing { border("└", "┴", "┘", widths, into: &out) }
        if grid.isListing { out += Array("(\(grid.rows.count) \(grid.rows.count == 1 ? "row" : "rows"))\n".utf8) }
        if let footer = grid.footer { out += Array((footer + "\n").utf8) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Cuts the widest column so the table fits `maxWidth`; returns whether it cut anything.
    private func fit(_ widths: inout [Int], rows: inout [[String]], grid: Grid) -> Bool {
        guard let maxWidth else { return false }
        let separators = boxDrawing ? 3 * widths.count + 1 : 2 * max(0, widths.count - 1)
        let total = widths.reduce(0, +) + separators
        guard total > maxWidth, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }) else { return false }
        let target = max(TextWidth.of(grid.columns[widest]), widths[widest] - (total - maxWidth), 3)
        widths[widest] = target
        for r in rows.indices where widest < rows[r].count {
            rows[r][widest] = TextWidth.truncate(rows[r][widest], toCells: target)
        }
        return true
    }

    private static let space = UInt8(ascii: " ")

    /// One row: cells padded to their column's width (numbers on the right), two blanks
    /// between columns, no trailing blanks; or `│ a │ b │` with box drawing.
    private func line(
        _ cells: [String], _ cellWidths: [Int], _ widths: [Int], numeric: Set<Int>, bold: Bool = false,
        struck: Set<Int> = [], into out: inout [UInt8]
    ) {
        let lineStart = out.count
        if boxDrawing { out += Array("│ ".utf8) }
        for (i, width) in widths.enumerated() {
            let cell = i < cells.count ? cells[i] : ""
            let gap = max(0, width - (i < cellWidths.count ? cellWidths[i] : 0))
            if i > 0 { out += boxDrawing ? Array(" │ ".utf8) : [Self.space, Self.space] }
            if numeric.contains(i) { out.append(contentsOf: repeatElement(Self.space, count: gap)) }
            if bold && !cell.isEmpty { out += Array("\u{1B}[1m".utf8) }
            if struck.contains(i) && !cell.isEmpty { out += Array("\u{1B}[9m".utf8) }
            out += cell.utf8
            if struck.contains(i) && !cell.isEmpty { out += Array("\u{1B}[29m".utf8) }
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

    private func border(_ left: String, _ middle: String, _ right: String, _ widths: [Int], into out: inout [UInt8]) {
        out += Array(
            (left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right + "\n").utf8)
    }
}
