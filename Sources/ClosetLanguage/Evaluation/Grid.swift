import ClosetCore

/// Rows of text cells under named columns: what table, csv and line output draw.
public struct Grid: Sendable, Hashable {
    public var columns: [String]
    public var rows: [[String]]
    /// Columns drawn right-aligned in a table (numbers).
    public var numericColumns: Set<Int>
    /// Whether a table ends with `(N rows)`: listings do, single entities do not.
    public var isListing: Bool

    public init(columns: [String], rows: [[String]], numericColumns: Set<Int> = [], isListing: Bool = false) {
        self.columns = columns
        self.rows = rows
        self.numericColumns = numericColumns
        self.isListing = isListing
    }
}
