import ClosetCore

/// Rows of text cells under named columns: what table, csv and line output draw.
public struct Grid: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[String]]
    /// Columns drawn right-aligned in a table (numbers).
    package var numericColumns: Set<Int>
    /// Whether a table ends with `(N rows)`: listings do, single entities do not.
    package var isListing: Bool

    /// Cells a table on a terminal in colour marks (struck through, red, blue, yellow).
    public var marks: [GridCell: TextMark]
    /// A line a table prints after its rows (`next cursor: ...`).
    package var footer: String?
    /// A line printed before the table (the day a ranking is of).
    public var title: String?
    /// Columns a narrow terminal never cuts.
    package var wholeColumns: Set<Int> = []

    public init(
        columns: [String], rows: [[String]], numericColumns: Set<Int> = [], isListing: Bool = false,
        marks: [GridCell: TextMark] = [:], footer: String? = nil, title: String? = nil
    ) {
        self.title = title
        self.footer = footer
        self.marks = marks
        self.columns = columns
        self.rows = rows
        self.numericColumns = numericColumns
        self.isListing = isListing
    }
}

/// A cell of a grid, by row and column.
public struct GridCell: Sendable, Hashable {
    public var row: Int
    public var column: Int

    public init(row: Int, column: Int) {
        self.row = row
        self.column = column
    }
}
