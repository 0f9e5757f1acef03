/// One `key = value` per line, keys right-aligned (as sqlite3's line mode), a blank line
/// between rows. Values are terminal-safe (`TerminalText`): a newline in a value stays on its line.
package enum LineRenderer {
    package static func render(_ grid: Grid) -> String {
        let keyWidth = grid.columns.map(TextWidth.of).max() ?? 0
        return grid.rows.map { row in
            zip(grid.columns, row).map { key, value in
                String(repeating: " ", count: keyWidth - TextWidth.of(key)) + key + " = " + TerminalText.visible(value)
                    + "\n"
            }.joined()
        }.joined(separator: "\n")
    }
}
