/// The output formats of `.mode` and `--format`.
public enum OutputFormat: String, CaseIterable, Sendable {
    case table, json, csv, line, box, markdown

    public var summary: String {
        switch self {
        case .table: "aligned columns (box drawing on a terminal)"
        case .json: "one JSON value per command"
        case .csv: "RFC 4180, header row first"
        case .line: "one 'key = value' per line, a blank line between rows"
        case .box: "aligned columns drawn with box characters, everywhere"
        case .markdown: "a Markdown table"
        }
    }

    /// Formats for people (short ids, labels) rather than tools (full ids, data values).
    package var isForPeople: Bool {
        switch self {
        case .table, .box, .markdown: true
        case .json, .csv, .line: false
        }
    }

    /// Every format's name, for messages: `table, json, csv, line, box or markdown`.
    package static var spelledOut: String {
        let names = allCases.map(\.rawValue)
        return names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }
}
