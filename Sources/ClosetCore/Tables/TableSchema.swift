/// A stored table: its name in the files, and how its rows are coded.
public struct TableSchema<Codec: TableCodec>: Sendable {
    /// Unique across packs (the registry validator checks): the store files name tables by it.
    public let name: String
    /// Store format 1 had no table names: one operation tag per change. Tables that existed
    /// then name their tags here, so format-1 stores keep opening.
    public let formatOneTags: FormatOneTags?
    /// Buckets and an order the snapshot indexes (see `TableIndex`).
    public let index: TableIndex<Codec>?

    public init(name: String, formatOneTags: FormatOneTags? = nil, index: TableIndex<Codec>? = nil) {
        self.name = name
        self.formatOneTags = formatOneTags
        self.index = index
    }
}
