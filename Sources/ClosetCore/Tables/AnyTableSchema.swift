/// A schema with its type erased, for lists of tables (a pack's, the store's).
public struct AnyTableSchema: Sendable {
    public let name: String
    public let formatOneTags: FormatOneTags?
    @usableFromInline let makeTable: @Sendable () -> StoredTable & LoggingTable

    /// Inlinable, so the table it makes is specialized for its codec (see `Table.init`).
    @inlinable public init<Codec: TableCodec>(_ schema: TableSchema<Codec>) {
        name = schema.name
        formatOneTags = schema.formatOneTags
        makeTable = { Table<Codec>(name: schema.name, index: schema.index) }
    }
}
