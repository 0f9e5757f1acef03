import ClosetCore

/// A schema with its type erased, for lists of tables (a pack's, the store's).
public struct AnyTableSchema: Sendable {
    public let name: String
    /// The name of its rows in the files (`TableSchema.storedName`).
    public let storedName: String
    public let formatOneTags: FormatOneTags?
    @usableFromInline let makeTable: @Sendable () -> StoredTable & LoggingTable
    /// Readers of the rows older layouts wrote, feeding the table `makeTable` made.
    @usableFromInline let makeOlder: @Sendable (StoredTable) -> [StoredTable]
    /// The names rows of older layouts have in the files.
    public let olderStoredNames: [String]

    /// Inlinable, so the table it makes is specialized for its codec (see `Table.init`). The
    /// closures capture the schema's parts, never the schema: a closure holding a generic
    /// value makes its type's metadata at start-up, and the first metadata of each row type
    /// is a conformance lookup through every record in the executable.
    @inlinable public init<Codec: TableCodec>(_ schema: TableSchema<Codec>) {
        name = schema.name
        let stored = schema.storedName
        storedName = stored
        formatOneTags = schema.formatOneTags
        let (makeIndex, makeGroupings) = (schema.makeIndex, schema.makeGroupings)
        makeTable = { Table<Codec>(name: stored, index: makeIndex(), groupings: makeGroupings()) }
        let older = schema.olderNames
        makeOlder = { TableSchema<Codec>.olderRowReaders(older, feeding: $0) }
        olderStoredNames = older.map { $0.name }
    }
}
