import ClosetCore

/// Entities a statement returned. Records are made only when something is shown: a seed
/// script replayed into /dev/null builds none.
public struct Entities: Sendable {
    public var kind: EntityKind
    public var keys: ListingKeys
    /// A listing is numbered, counted (`(N rows)`) and becomes the target of `@N`.
    package var isListing: Bool
    /// One entity in full (`show`): people see its detail view, a field per line with its
    /// children under it; tools get the same object or row as for any single entity.
    package var isDetail = false
    /// Every record at once (changed through `mappingRecords` and `slice`, which keep how the
    /// source makes them).
    public var records: @Sendable () -> [Record] {
        switch source {
        case .many(let records): records
        case .one(let record): { [record()] }
        case .each(let count, let record): { (0..<count).map { record($0, .all) } }
        }
    }
    /// One entity's record is kept as the pack made it: wrapping it in a closure that makes
    /// an array was an allocation for every `add` of a seed script, none of which is shown.
    /// A listing can make each row's record when it is written (`each`): a listing of a
    /// million rows written as csv or JSON then never holds a million records.
    enum RecordSource: Sendable {
        case many(@Sendable () -> [Record])
        case one(@Sendable () -> Record)
        /// Row `N`'s record, its parts those asked for (`Record.Parts`) at least.
        case each(count: Int, @Sendable (Int, Record.Parts) -> Record)
    }
    var source: RecordSource

    /// The same entities with each record changed by `transform` (`.redact`), made as the
    /// source makes them: a listing made a row at a time stays so.
    func mappingRecords(_ transform: @escaping @Sendable (Record) -> Record) -> Entities {
        var mapped = self
        switch source {
        case .many(let records): mapped.source = .many { records().map(transform) }
        case .one(let record): mapped.source = .one { transform(record()) }
        // The change reads the record's fields (`.redact` finds the values it hides there).
        case .each(let count, let record):
            mapped.source = .each(count: count) { transform(record($0, $1.union(.fields))) }
        }
        return mapped
    }

    /// Rows `rows` of a listing (keys and records; its pictures are the caller's), the records
    /// still made as the source makes them: a window of a listing made a row at a time makes
    /// only its own rows.
    func slice(_ rows: Range<Int>) -> Entities {
        let rows = rows.clamped(to: 0..<keys.count)
        var sliced = self
        sliced.keys = keys.slice(rows)
        switch source {
        case .many(let records):
            sliced.source = .many { Array(records().dropFirst(rows.lowerBound).prefix(rows.count)) }
        case .one(let record): sliced.source = rows.isEmpty ? .many { [] } : .one(record)
        case .each(_, let record): sliced.source = .each(count: rows.count) { record($0 + rows.lowerBound, $1) }
        }
        return sliced
    }

    /// Each record in order, made one at a time where the source can (`each`).
    /// `parts`: what `body` reads of each record (a listing made a row at a time makes only those).
    package func forEachRecord<Failure: Error>(
        parts: Record.Parts = .all, _ body: (Record) throws(Failure) -> Void
    ) throws(Failure) {
        switch source {
        case .many(let records): for record in records() { try body(record) }
        case .one(let record): try body(record())
        case .each(let count, let record): for index in 0..<count { try body(record(index, parts)) }
        }
    }
    /// Set when the listing is one page of a longer one (a remote feed): `next` continues it.
    public var page: Page?
    /// Set for a listing paged by cursor: a table ends with a `next cursor` line (JSON rows
    /// carry their cursor as a field).
    public var cursor: ListingCursor?
    /// A line above the rows for people (`box office of 2012-01-01`), as an app's screen has
    /// a title; tools get the rows alone.
    public var caption: FieldValue?
    /// What a terminal shows under the text when pictures are on.
    public var pictures: Pictures?
}

/// The cursor after a cursor-paged listing (nil `next`: it was the last page).
public struct ListingCursor: Sendable {
    public var next: String?

    public init(next: String?) { self.next = next }
}

/// Where a page sits in a paged listing, and how to fetch the one after it.
public struct Page: Sendable {
    /// The row number of this page's first row: 1 for a first page, on from the rows
    /// already listed for a page `next` fetched.
    public var firstRow: Int
    /// Fetches the following page, as `next` asks; nil when this page is the last.
    public var next: (@Sendable (Invocation) throws -> Outcome)?
    /// How many rows come after this page, when that is known (the footer says `N more`).
    public var remaining: Int?

    public init(firstRow: Int, next: (@Sendable (Invocation) throws -> Outcome)?, remaining: Int? = nil) {
        self.firstRow = firstRow
        self.next = next
        self.remaining = remaining
    }
}
