import ClosetCore

/// One field per line, long values wrapped to the terminal and never cut (psql's expanded
/// display): a single entity at a terminal, and a listing too wide for it.
///
///     id     3F2A9C1E
///     kind   small
///     note   a note long enough to be wrapped at the
///            terminal's edge
///     ──────────────────────────
///
/// Records of a listing are separated by a rule; a listing still ends with `(N rows)`.
struct VerticalRenderer {
    var width: Int
    var color: Bool
    var boxDrawing: Bool

    func render(_ grid: Grid) -> String {
        let labelWidth = grid.columns.map(TextWidth.of).max() ?? 0
        // Values keep at least a few cells, however narrow the terminal.
        let valueWidth = max(8, width - labelWidth - 2)
        var out = grid.title.map { TerminalText.visible($0) + "\n" } ?? ""
        for (index, row) in grid.rows.enumerated() {
            if index > 0 {
                let rule = min(width, labelWidth + 2 + valueWidth)
                out += String(repeating: boxDrawing ? "─" : "-", count: max(1, rule)) + "\n"
            }
            for (column, label) in grid.columns.enumerated() {
                let value = column < row.count ? TerminalText.visible(row[column]) : ""
                let mark = color ? grid.marks[GridCell(row: index, column: column)]?.sequences : nil
                let pieces = TextWidth.wrap(value, toCells: valueWidth)
                let shownLabel = color ? "\u{1B}[1m" + label + "\u{1B}[0m" : label
                let padding = String(repeating: " ", count: labelWidth - TextWidth.of(label))
                if pieces.isEmpty {
                    out += shownLabel + "\n"
                    continue
                }
                for (number, piece) in pieces.enumerated() {
                    out += number == 0 ? shownLabel + padding + "  " : String(repeating: " ", count: labelWidth + 2)
                    out += mark.map { $0.on + piece + $0.off } ?? piece
                    out += "\n"
                }
            }
        }
        if grid.isListing { out += "(\(grid.rows.count) \(grid.rows.count == 1 ? "row" : "rows"))\n" }
        if let footer = grid.footer { out += footer + "\n" }
        return out
    }
}
