import ClosetCore

/// How one table's rows become bytes and back. A pack writes one per table it stores; the
/// store keeps the rows typed in memory and hands the codec only what it writes or reads.
/// Keeping each table's coding behind its schema means a new file layout is a local change.
public protocol TableCodec: Sendable {
    associatedtype Row: Sendable
    associatedtype Key: Hashable & Sendable

    /// The layout `encode` writes: 1 for a table's first. A pack that changes its rows raises
    /// it and goes on reading every older layout in `decodeRow(version:from:)`. The files name
    /// a table's rows by layout (`TableSchema.storedName`), so rows of an older build keep
    /// reading, and are written again in the new layout as they change or at compaction.
    static var version: Int { get }

    static func key(of row: Row) -> Key
    static func encode(_ row: Row, into writer: inout ByteWriter)
    /// Reads a row of the current layout (`version`).
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row
    /// Reads a row of an older layout (1 up to `version - 1`). Keys keep one layout.
    static func decodeRow(version: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row
    static func encode(key: Key, into writer: inout ByteWriter)
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Key
    /// Names of the blobs (pictures) a row refers to: kept while a row refers to them,
    /// deleted once no committed row does.
    static func blobs(of row: Row) -> [String]
}

extension TableCodec {
    public static var version: Int { 1 }

    public static func blobs(of row: Row) -> [String] { [] }

    /// A codec that never changed its layout has no older rows to read.
    public static func decodeRow(version: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row {
        guard version == Self.version else { throw ByteReader.Malformed() }
        return try decodeRow(from: &reader)
    }
}
