/// A GitHub-flavoured Markdown table, for pasting into issues and documents:
///
///     | # | id       | kind  |
///     |---|----------|-------|
///     | 1 | 3F2A9C1E | small |
///
/// Cells are padded to their column (display cells) and `|` in a cell is escaped; numbers are
/// right-aligned (`---:`). Control characters are shown escaped, as in every text for people.
package enum MarkdownRenderer {
    package static func render(_ grid: Grid, headers: Bool = true) -> String {
        let rows = grid.rows.map { $0.map { TerminalText.visible($0).replacingOccurrences(of: "|", with: "\\|") } }
        var widths = grid.columns.map { max(3, TextWidth.of($0)) }
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], TextWidth.of(cell)) }
        }
        func line(_ cells: [String]) -> String {
            "| "
                + widths.indices.map { i in
                    let cell = i < cells.count ? cells[i] : ""
                    let padding = String(repeating: " ", count: widths[i] - TextWidth.of(cell))
                    return grid.numericColumns.contains(i) ? padding + cell : cell + padding
                }.joined(separator: " | ") + " |\n"
        }
        // Markdown needs a header row; without headers it is left empty.
        var out = grid.title.map { "**" + TerminalText.visible($0) + "**\n\n" } ?? ""
        out += line(headers ? grid.columns : [])
        out +=
            "|"
            + widths.indices.map { i in
                let dashes = String(repeating: "-", count: widths[i] + 2)
                return grid.numericColumns.contains(i) ? String(dashes.dropLast()) + ":" : dashes
            }.joined(separator: "|") + "|\n"
        for row in rows { out += line(row) }
        if let footer = grid.footer { out += "\n" + TerminalText.visible(footer) + "\n" }
        return out
    }
}
