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
