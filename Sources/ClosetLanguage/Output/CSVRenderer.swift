/// RFC 4180: CRLF line ends, a header row, and fields quoted when they hold a comma, a quote,
/// CR or LF (quotes doubled). Written as bytes, each field by the export's own quoting
/// (`ExportWriter.appendCSV`): a listing of a million rows was a string a character at a time.
package enum CSVRenderer {
    package static func render(_ grid: Grid, headers: Bool = true) -> String {
        var out: [UInt8] = []
        if headers { row(grid.columns, into: &out) }
        for cells in grid.rows { row(cells, into: &out) }
        return String(decoding: out, as: UTF8.self)
    }

    static func row(_ cells: [String], into out: inout [UInt8]) {
        for (number, cell) in cells.enumerated() {
            if number > 0 { out.append(UInt8(ascii: ",")) }
            ExportWriter.appendCSV(cell, to: &out)
        }
        out += [0x0D, 0x0A]
    }
}
