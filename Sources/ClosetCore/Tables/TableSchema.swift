/// A stored table: its name in the files, and how its rows are coded.
public struct TableSchema<Codec: TableCodec>: Sendable {
    /// Unique across packs (the registry validator checks): the store files name tables by it.
    public let name: String
    /// Store format 1 had no table names: one operation tag per change. Tables that existed
    /// then name their tags here, so format-1 stores keep opening.
    public let formatOneTags: FormatOneTags?
    /// Buckets and an order the snapshot indexes (see `TableIndex`).
    public let index: TableIndex<Codec>?
    /// Groups the snapshot lists beside the rows (see `TableGrouping`).
    public let groupings: [TableGrouping<Codec>]

    /// The name its rows have in the files: `name` for the first layout, `name@N` for layout
    /// N (`TableCodec.version`), so rows of every layout can be told apart in one store.
    public var storedName: String { Self.storedName(name, version: Codec.version) }

    /// The names rows of older layouts were written under, with their layout.
    @usableFromInline package var olderNames: [(name: String, version: Int)] {
        (1..<max(Codec.version, 1)).map { (Self.storedName(name, version: $0), $0) }
    }

    public static func storedName(_ name: String, version: Int) -> String {
        version <= 1 ? name : "\(name)@\(version)"
    }

    public init(
        name: String, formatOneTags: FormatOneTags? = nil, index: TableIndex<Codec>? = nil,
        groupings: [TableGrouping<Codec>] = []
    ) {
        self.name = name
        self.formatOneTags = formatOneTags
        self.index = index
        self.groupings = groupings
    }
}
