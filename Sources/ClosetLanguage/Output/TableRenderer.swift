/// Aligned columns. Plain (for pipes and golden files):
///
///     #  id        category  season
///     -  --------  --------  ------
///     1  3F2A9C1E  top       fall
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
        var rows = grid.rows.map { $0.map(Self.singleLine) }
        var widths = grid.columns.map(TextWidth.of)
        for row in rows { for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], TextWidth.of(cell)) } }
        fit(&widths, rows: &rows, grid: grid)

        var out = boxDrawing ? border("┌", "┬", "┐", widths) : ""
        out += line(grid.columns, widths, numeric: [], bold: color)
        out += boxDrawing ? border("├", "┼", "┤", widths) : line(widths.map { String(repeating: "-", count: $0) }, widths, numeric: [])
        for row in rows { out += line(row, widths, numeric: grid.numericColumns) }
        if boxDrawing { out += border("└", "┴", "┘", widths) }
        if grid.isListing { out += "(\(grid.rows.count) \(grid.rows.count == 1 ? "row" : "rows"))\n" }
        return out
    }

    /// Newlines and tabs inside a cell would break the grid; show them as visible escapes.
    static func singleLine(_ text: String) -> String {
        guard text.contains(where: { $0 == "\n" || $0 == "\t" || $0 == "\r" }) else { return text }
        return text.replacingOccurrences(of: "\r", with: "\\r").replacingOccurrences(of: "\n", with: "\\n")
            .replacingOccurrences(of: "\t", with: "\\t")
    }

    private func fit(_ widths: inout [Int], rows: inout [[String]], grid: Grid) {
        guard let maxWidth else { return }
        let separators = boxDrawing ? 3 * widths.count + 1 : 2 * max(0, widths.count - 1)
        let total = widths.reduce(0, +) + separators
        guard total > maxWidth, let widest = widths.indices.max(by: { widths[$0] < widths[$1] }) else { return }
        let target = max(TextWidth.of(grid.columns[widest]), widths[widest] - (total - maxWidth), 3)
        widths[widest] = target
        for r in rows.indices where widest < rows[r].count {
            rows[r][widest] = TextWidth.truncate(rows[r][widest], toCells: target)
        }
    }

    private func line(_ cells: [String], _ widths: [Int], numeric: Set<Int>, bold: Bool = false) -> String {
        var parts: [String] = []
        for (i, width) in widths.enumerated() {
            let cell = i < cells.count ? cells[i] : ""
            let gap = String(repeating: " ", count: max(0, width - TextWidth.of(cell)))
            let shown = bold && !cell.isEmpty ? "\u{1B}[1m" + cell + "\u{1B}[0m" : cell
            parts.append(numeric.contains(i) ? gap + shown : shown + gap)
        }
        if boxDrawing { return "│ " + parts.joined(separator: " │ ") + " │\n" }
        var text = parts.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text + "\n"
    }

    private func border(_ left: String, _ middle: String, _ right: String, _ widths: [Int]) -> String {
        left + widths.map { String(repeating: "─", count: $0 + 2) }.joined(separator: middle) + right + "\n"
    }
}
