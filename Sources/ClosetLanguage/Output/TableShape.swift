import ClosetCore

/// How a table of entities is laid out, decided once from its rows' table values: the columns
/// it keeps (an optional one null in every row is left out), their headers (`#` first for a
/// listing), which hold numbers (drawn on the right) and which are never cut (instants and the
/// kind's whole columns), and its title and footer. The whole grid (`RecordGrid`) and a listing
/// drawn a row at a time (`TableListing`) both follow it.
struct TableShape {
    /// The record's table values kept, by place.
    let kept: [Int]
    let columns: [String]
    let numeric: Set<Int>
    let wholeColumns: Set<Int>
    let footer: String?
    let title: String?
    let listing: Bool
    /// The first row's number and what follows each number (`번` in Korean for some kinds).
    let firstRow: Int
    let rowLabel: String

    /// `nonNull[c]`: whether any row's value `c` is not null; `first`: the first row's values.
    init(_ entities: Entities, korean: Bool, nonNull: [Bool], first: [FieldValue]?) {
        let kind = entities.kind
        let isListing = entities.isListing
        listing = isListing
        let headers = korean ? kind.koreanTableColumns : kind.tableColumns
        // An optional column that says nothing in any row (no pictures at all) is left out.
        kept = headers.indices.filter { column in
            !kind.optionalTableColumns.contains(kind.tableColumns[column])
                || (column < nonNull.count && nonNull[column])
        }
        let offset = isListing ? 1 : 0
        var columns = kept.map { headers[$0] }
        var numeric = Set<Int>()
        var whole = Set<Int>()
        if let first {
            for (place, column) in kept.enumerated() where column < first.count {
                if first[column].isNumeric { numeric.insert(place + offset) }
                // An instant is never cut: half a timestamp reads as another time.
                if case .date = first[column] { whole.insert(place + offset) }
            }
        }
        if isListing {
            columns.insert("#", at: 0)
            numeric.insert(0)
        }
        if !kind.wholeTableColumns.isEmpty {
            // The whole columns' headers as shown (the language's), then where they are now.
            let named = Set(
                zip(kind.tableColumns, headers).filter { kind.wholeTableColumns.contains($0.0) }.map(\.1))
            whole.formUnion(columns.indices.filter { !(isListing && $0 == 0) && named.contains(columns[$0]) })
        }
        self.columns = columns
        self.numeric = numeric
        wholeColumns = whole
        // Every listing with rows after it says so the same way; a cursor-paged one also names
        // its cursor (for `after=`).
        let more = entities.page.flatMap { page in
            page.next == nil ? nil : (page.remaining.map { "\($0) more" } ?? "more") + ": next"
        }
        let cursor = entities.cursor.map { "next cursor: " + ($0.next ?? "none (the last page)") }
        let lines = [cursor, isListing ? more : nil].compactMap { $0 }
        footer = lines.isEmpty ? nil : lines.joined(separator: "\n")
        title = entities.caption.map { RecordGrid.cell($0, forPeople: true, korean: korean) }
        // A page `next` fetched numbers on from the rows before it, as `@N` does.
        firstRow = entities.page?.firstRow ?? 1
        rowLabel = korean ? kind.koreanRowLabel ?? "" : ""
    }

    /// Row `offset`'s number as the `#` column shows it.
    func number(_ offset: Int) -> String { String(offset + firstRow) + rowLabel }
}
