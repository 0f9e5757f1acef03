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

    /// Inlinable, so the table it makes is specialized for its codec (see `Table.init`).
    @inlinable public init<Codec: TableCodec>(_ schema: TableSchema<Codec>) {
        name = schema.name
        storedName = schema.storedName
        formatOneTags = schema.formatOneTags
        makeTable = { Table<Codec>(name: schema.storedName, index: schema.index, groupings: schema.groupings) }
        makeOlder = { schema.olderRowReaders(feeding: $0) }
        olderStoredNames = schema.olderNames.map { $0.name }
    }
}
