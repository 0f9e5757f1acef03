import ClosetCore
import ClosetTables

/// A picture smaller than a file-system block, kept as a row of the store's own table
/// instead of a file of its own (as sqlite keeps a small blob in its page): it is journaled
/// and synced with the rows that name it, in the same commit, so seeding 100,000 products
/// with an icon each makes no file, no rename and no `fsync` per picture. A file would take a
/// whole block and an inode for it anyway. Bigger pictures stay files in `images/`.
struct InlineBlob: Sendable, Hashable {
    var name: String
    var bytes: [UInt8]
}

/// The rows of `store.blobs`: a blob's name (the store's blob-name shape), then its bytes.
enum InlineBlobTable: TableCodec {
    static let schema = TableSchema<InlineBlobTable>(name: "store.blobs")
    /// Pictures below this many bytes are kept inline: one file-system block.
    static let limit = 4096

    static func key(of row: InlineBlob) -> String { row.name }

    static func encode(_ row: InlineBlob, into writer: inout ByteWriter) {
        writer.string(row.name)
        writer.u32(UInt32(row.bytes.count))
        writer.bytes += row.bytes
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> InlineBlob {
        let name = try reader.string()
        let count = Int(try reader.u32())
        // Hostile files: only the store's own names and sizes are rows of this table.
        guard BlobFiles.isValidName(name), count < limit else { throw ByteReader.Malformed() }
        return InlineBlob(name: name, bytes: try reader.raw(count))
    }

    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }

    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String {
        try reader.string()
    }
}

extension InlineBlobTable {
    /// The packs' tables and the store's own (inline pictures), as a store and its recovery
    /// read them.
    static func withPacks(_ packs: [AnyTableSchema]) -> [AnyTableSchema] {
        packs + [AnyTableSchema(schema)]
    }

    /// The inline blobs' table, made only when a blob is first written inline (a store that
    /// never had one has no such section, and its files are as before).
    static func table(in tables: Tables) -> Table<InlineBlobTable>? {
        tables.madeTable(schema.storedName) as? Table<InlineBlobTable>
    }

    static func write(_ bytes: [UInt8], named name: String, in tables: Tables) throws(StoreError) {
        guard BlobFiles.isValidName(name) else { throw StoreError("'\(name)' is not a valid blob name") }
        let table = try tables.table(schema)
        if table[name]?.bytes == bytes { return }
        table.upsert(InlineBlob(name: name, bytes: bytes))
    }

    /// Inline blobs no row refers to any more go in the commit that stops referring to them
    /// (a file is deleted after it). `released` is every blob a change of this transaction
    /// took from its row (each change's row before it, so a picture written and replaced
    /// within the transaction is among them); only when there is one are all rows' blobs read.
    static func dropUnreferenced(released: [String], in tables: Tables) {
        guard let table = table(in: tables), !released.isEmpty else { return }
        let releasedInline = Set(released.filter(table.contains))
        guard !releasedInline.isEmpty else { return }
        let referenced = tables.referencedBlobs
        for name in releasedInline where !referenced.contains(name) { table.remove(name) }
    }
}

extension DurableStore {
    /// The inline blobs' table, if one was made (`InlineBlobTable.table(in:)`).
    var inlineBlobs: Table<InlineBlobTable>? { InlineBlobTable.table(in: tables) }
}
