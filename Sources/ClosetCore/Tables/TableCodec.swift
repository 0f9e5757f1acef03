/// How one table's rows become bytes and back. A pack writes one per table it stores; the
/// store keeps the rows typed in memory and hands the codec only what it writes or reads.
/// Keeping each table's coding behind its schema means a new file layout is a local change.
public protocol TableCodec: Sendable {
    associatedtype Row: Sendable
    associatedtype Key: Hashable & Sendable

    static func key(of row: Row) -> Key
    static func encode(_ row: Row, into writer: inout ByteWriter)
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row
    static func encode(key: Key, into writer: inout ByteWriter)
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Key
    /// Names of the blobs (pictures) a row refers to: kept while a row refers to them,
    /// deleted once no committed row does.
    static func blobs(of row: Row) -> [String]
}

extension TableCodec {
    public static func blobs(of row: Row) -> [String] { [] }
}

/// A stored table: its name in the files, and how its rows are coded.
public struct TableSchema<Codec: TableCodec>: Sendable {
    /// Unique across packs (the registry validator checks): the store files name tables by it.
    public let name: String
    /// Store format 1 had no table names: one operation tag per change. Tables that existed
    /// then name their tags here, so format-1 stores keep opening.
    public let formatOneTags: FormatOneTags?

    public init(name: String, formatOneTags: FormatOneTags? = nil) {
        self.name = name
        self.formatOneTags = formatOneTags
    }
}

/// A table's operation tags in store format 1 (the row or key followed the tag directly).
public struct FormatOneTags: Sendable, Hashable {
    public let put: UInt8
    public let delete: UInt8

    public init(put: UInt8, delete: UInt8) {
        self.put = put
        self.delete = delete
    }
}

/// A schema with its type erased, for lists of tables (a pack's, the store's).
public struct AnyTableSchema: Sendable {
    public let name: String
    public let formatOneTags: FormatOneTags?
    let makeTable: @Sendable () -> StoredTable

    public init<Codec: TableCodec>(_ schema: TableSchema<Codec>) {
        name = schema.name
        formatOneTags = schema.formatOneTags
        makeTable = { Table<Codec>(name: schema.name) }
    }
}

/// One change as the files keep it: a table, a key, and the whole new row (nil: deleted).
/// Replaying operations in order rebuilds the tables, insertion order included.
public struct EncodedOperation: Hashable, Sendable {
    public var table: String
    public var key: [UInt8]
    public var row: [UInt8]?

    public init(table: String, key: [UInt8], row: [UInt8]?) {
        self.table = table
        self.key = key
        self.row = row
    }
}
