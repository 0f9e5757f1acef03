/// One `key = value` per line, keys right-aligned (as sqlite3's line mode), a blank line
/// between rows. Values are terminal-safe (`TerminalText`): a newline in a value stays on its line.
/// Written as bytes, each key's padding made once: a listing of a million rows is six million lines.
package enum LineRenderer {
    package static func render(_ grid: Grid) -> String {
        var writer = Writer(columns: grid.columns)
        var out: [UInt8] = []
        for row in grid.rows { writer.add(row, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    /// Rows written one after another (a listing streamed a record at a time writes what
    /// `render` writes for its grid).
    package struct Writer {
        let labels: [[UInt8]]
        var rows = 0

        package init(columns: [String]) {
            let keyWidth = columns.map(TextWidth.of).max() ?? 0
            labels = columns.map { key in
                Array((String(repeating: " ", count: keyWidth - TextWidth.of(key)) + key + " = ").utf8)
            }
        }

        package mutating func add(_ row: [String], into out: inout [UInt8]) {
            if rows > 0 { out.append(0x0A) }
            rows += 1
            for (label, value) in zip(labels, row) {
                out += label
                LineRenderer.appendVisible(value, to: &out)
                out.append(0x0A)
            }
        }
    }

    /// Printable ASCII as it is; anything else through `TerminalText.visible`.
    static func appendVisible(_ value: String, to out: inout [UInt8]) {
        var value = value
        let plain = value.withUTF8 { bytes in
            guard bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain { out += TerminalText.visible(value).utf8 }
    }
}
