import ClosetCore

/// A stored table: its name in the files, and how its rows are coded.
public struct TableSchema<Codec: TableCodec>: Sendable {
    /// Unique across packs (the registry validator checks): the store files name tables by it.
    public let name: String
    /// Store format 1 had no table names: one operation tag per change. Tables that existed
    /// then name their tags here, so format-1 stores keep opening.
    public let formatOneTags: FormatOneTags?
    /// Buckets and an order the snapshot indexes (see `TableIndex`).
    public var index: TableIndex<Codec>? { makeIndex() }
    /// Groups the snapshot lists beside the rows (see `TableGrouping`).
    public var groupings: [TableGrouping<Codec>] { makeGroupings() }
    // Made when the table is made, not with the schema: every pack's schemas are declared at
    // start-up, and the first use of a generic type over a row type is a lookup of its
    // conformance through every record in the executable (~230,000 instructions each).
    @usableFromInline let makeIndex: @Sendable () -> TableIndex<Codec>?
    @usableFromInline let makeGroupings: @Sendable () -> [TableGrouping<Codec>]

    /// The name its rows have in the files: `name` for the first layout, `name@N` for layout
    /// N (`TableCodec.version`), so rows of every layout can be told apart in one store.
    @inlinable public var storedName: String { Self.storedName(name, version: Codec.version) }

    /// The names rows of older layouts were written under, with their layout.
    // Inlinable, as everything a pack's start-up calls on a schema: an unspecialized call
    // makes the schema type's metadata, a conformance lookup through every record.
    @inlinable package var olderNames: [(name: String, version: Int)] {
        (1..<max(Codec.version, 1)).map { (Self.storedName(name, version: $0), $0) }
    }

    @inlinable public static func storedName(_ name: String, version: Int) -> String {
        version <= 1 ? name : "\(name)@\(version)"
    }

    public init(
        name: String, formatOneTags: FormatOneTags? = nil,
        index: @autoclosure @escaping @Sendable () -> TableIndex<Codec>? = nil,
        groupings: @autoclosure @escaping @Sendable () -> [TableGrouping<Codec>] = []
    ) {
        self.name = name
        self.formatOneTags = formatOneTags
        makeIndex = index
        makeGroupings = groupings
    }
}
