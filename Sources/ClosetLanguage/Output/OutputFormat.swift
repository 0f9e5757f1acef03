/// The output formats of `.mode` and `--format`.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, csv, line

    public var summary: String {
        switch self {
        case .table: "aligned columns (box drawing on a terminal)"
        case .json: "one JSON value per command"
        case .csv: "RFC 4180, header row first"
        case .line: "one 'key = value' per line, a blank line between rows"
        }
    }
}
