import ClosetCore

/// What a statement produced, before any output format is chosen. Renderers switch over it;
/// packs build records, never output.
public enum Outcome: Sendable {
    /// One entity (`show`, `add`, `edit`) or a listing (`@N` numbers its rows). Boxed: held
    /// inline it made every outcome 208 bytes, copied some ten times on its way out of each
    /// statement (a fifth of the bytes a seed script's replay moved).
    indirect case entities(Entities)
    case count(Int)
    case removed(EntityKind, EntityKey)
    /// A few named values on one row: statistics, the result of an export.
    case fields([Field], pictures: Pictures? = nil)
    /// Free text for people: help, notices. Printed as is in every format.
    case text(String)
    /// Named shell settings (`.echo` alone, `.show`): one value alone, or `name: value` lines
    /// aligned; in JSON mode one object, so JSON output stays JSON.
    case settings([(name: String, value: String)])
    /// A small table of strings (`.vars`), rendered like any other rows.
    case table(Grid)
    /// Named values of one thing (`.store`, a poster fetched): a property and value a line for
    /// people, one object for tools, numbers as numbers (an object value reads `3 files, 120
    /// bytes`); with the pictures it shows when pictures are on.
    case properties([Field], pictures: Pictures? = nil)
    case nothing

    /// Whether it is a listing (numbered for `@N`).
    var isListing: Bool {
        switch self {
        case .entities(let entities): entities.isListing
        case .count, .removed, .fields, .text, .settings, .table, .properties, .nothing: false
        }
    }

    /// One entity.
    public static func entity(_ kind: EntityKind, _ key: EntityKey, _ record: @escaping @Sendable () -> Record)
        -> Outcome
    {
        .entities(Entities(kind: kind, keys: ListingKeys(one: key), isListing: false, source: .one(record)))
    }

    /// One entity in full, as `show` gives it: the record's detail view for people.
    public static func detail(_ kind: EntityKind, _ key: EntityKey, _ record: @escaping @Sendable () -> Record)
        -> Outcome
    {
        var entities = Entities(kind: kind, keys: ListingKeys(one: key), isListing: false, source: .one(record))
        entities.isDetail = true
        return .entities(entities)
    }

    /// A listing whose row `N`'s record (of `keys[N]`) is made when it is written: output
    /// that can go a row at a time (csv, JSON, an export) never holds every record.
    public static func listing(
        _ kind: EntityKind, _ keys: [EntityKey], record: @escaping @Sendable (Int) -> Record
    ) -> Outcome {
        listing(kind, ListingKeys(keys), record: record)
    }

    /// A listing whose row `N`'s key and record are both made when asked for: a listing that
    /// reads its rows as they are written holds neither.
    public static func listing(
        _ kind: EntityKind, _ keys: ListingKeys, record: @escaping @Sendable (Int) -> Record
    ) -> Outcome {
        .entities(
            Entities(
                kind: kind, keys: keys, isListing: true, source: .each(count: keys.count) { row, _ in record(row) }))
    }

    /// A listing whose row `N`'s record is made as it is written, of the parts the output
    /// reads (`EntitySchema.record(_:parts:)`: csv reads the data values alone, as an export
    /// makes them). The pack makes the closure, so the schema's code is specialized for its model.
    public static func listing(
        _ kind: EntityKind, _ keys: ListingKeys, parts record: @escaping @Sendable (Int, Record.Parts) -> Record
    ) -> Outcome {
        .entities(Entities(kind: kind, keys: keys, isListing: true, source: .each(count: keys.count, record)))
    }

    /// A listing, numbered for `@N`; with `page`, one page that `next` continues.
    public static func listing(
        _ kind: EntityKind, _ keys: [EntityKey], page: Page? = nil, cursor: ListingCursor? = nil,
        caption: FieldValue? = nil, _ records: @escaping @Sendable () -> [Record]
    ) -> Outcome {
        .entities(
            Entities(
                kind: kind, keys: ListingKeys(keys), isListing: true, source: .many(records), page: page,
                cursor: cursor,
                caption: caption)
        )
    }
}
