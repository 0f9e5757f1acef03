/// RFC 4180: CRLF line ends, a header row, and fields quoted when they hold a comma, a quote,
/// CR or LF (quotes doubled).
package enum CSVRenderer {
    package static func render(_ grid: Grid, headers: Bool = true) -> String {
        var out = headers ? row(grid.columns) : ""
        for cells in grid.rows { out += row(cells) }
        return out
    }

    static func row(_ cells: [String]) -> String {
        cells.map(field).joined(separator: ",") + "\r\n"
    }

    static func field(_ text: String) -> String {
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else {
            return text
        }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
