import ClosetCore

/// The default row codec: a table of `Codable` rows keyed by their `id`, so a new pack writes
/// no codec. Rows are stored self-describing (`BinaryValue`: each field under its name), so a
/// model that gains an optional field reads its older rows with that field nil, and needs a new
/// layout (`TableCodec.version`) only for a change `Codable` cannot absorb. Hand-written codecs
/// stay for hot tables: theirs are smaller and faster.
///
/// ```swift
/// static let schema = TableSchema<CodableRows<Jar>>(name: "pantry.jars")
/// ```
public enum CodableRows<Row: Codable & Sendable & Identifiable>: TableCodec
where Row.ID: Codable & Sendable {
    public static func key(of row: Row) -> Row.ID { row.id }

    public static func encode(_ row: Row, into writer: inout ByteWriter) {
        encodeValue(row, into: &writer)
    }

    public static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row {
        try decodeValue(Row.self, from: &reader)
    }

    public static func encode(key: Row.ID, into writer: inout ByteWriter) { encodeValue(key, into: &writer) }

    public static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Row.ID {
        try decodeValue(Row.ID.self, from: &reader)
    }

    /// A model whose `encode(to:)` throws cannot be stored at all: that is a programming error.
    static func encodeValue<T: Encodable>(_ value: T, into writer: inout ByteWriter) {
        do {
            try BinaryEncoder.encode(value).write(into: &writer)
        } catch {
            preconditionFailure("\(T.self) cannot be encoded: \(error)")
        }
    }

    static func decodeValue<T: Decodable>(_ type: T.Type, from reader: inout ByteReader) throws(ByteReader.Malformed)
        -> T
    {
        let value = try BinaryValue.read(from: &reader)
        do {
            return try BinaryDecoder.decode(T.self, from: value)
        } catch {
            throw ByteReader.Malformed()
        }
    }
}
