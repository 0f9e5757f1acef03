import ClosetCore
import ClosetStore
import ClosetTables
import Foundation
import Testing

/// A pack that changes its rows raises its codec's version and keeps reading the old layout:
/// a store written by the older build opens, its rows read, later changes win over them,
/// and compaction rewrites everything in the new layout. A store of a newer layout is refused.
@Suite struct RowLayoutTests {
    struct Note: Hashable, Sendable {
        var id: Int
        var text: String
        /// Added in layout 2: layout-1 rows read as unpinned.
        var pinned: Bool
    }

    /// The first build: id and text.
    enum NotesOne: TableCodec {
        static let schema = TableSchema<NotesOne>(name: "test.notes")
        static func key(of row: Note) -> Int { row.id }
        static func encode(_ row: Note, into writer: inout ByteWriter) {
            writer.u64(UInt64(row.id))
            writer.string(row.text)
        }
        static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Note {
            Note(id: Int(try reader.u64()), text: try reader.string(), pinned: false)
        }
        static func encode(key: Int, into writer: inout ByteWriter) { writer.u64(UInt64(key)) }
        static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
            Int(try reader.u64())
        }
    }

    /// The next build: a flag after the text.
    enum NotesTwo: TableCodec {
        static let schema = TableSchema<NotesTwo>(name: "test.notes")
        static var version: Int { 2 }
        static func key(of row: Note) -> Int { row.id }
        static func encode(_ row: Note, into writer: inout ByteWriter) {
            writer.u64(UInt64(row.id))
            writer.string(row.text)
            writer.u8(row.pinned ? 1 : 0)
        }
        static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Note {
            Note(id: Int(try reader.u64()), text: try reader.string(), pinned: try reader.u8() == 1)
        }
        static func decodeRow(version: Int, from reader: inout ByteReader) throws(ByteReader.Malformed) -> Note {
            switch version {
            case 1: try NotesOne.decodeRow(from: &reader)
            case 2: try decodeRow(from: &reader)
            default: throw ByteReader.Malformed()
            }
        }
        static func encode(key: Int, into writer: inout ByteWriter) { writer.u64(UInt64(key)) }
        static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
            Int(try reader.u64())
        }
    }

    func path() -> String { NSTemporaryDirectory() + "closet-layout-\(UUID().uuidString)" }

    func open<Codec: TableCodec>(_ path: String, _ schema: TableSchema<Codec>) throws -> (DurableStore, Table<Codec>) {
        let store = try DurableStore(path: path, tables: [AnyTableSchema(schema)]) { _ in }
        return (store, try store.tables.table(schema))
    }

    /// Layout-1 rows in the snapshot and the journal, read by the layout-2 build.
    func olderStore(compacted: Bool) throws -> String {
        let path = path()
        let (store, notes) = try open(path, NotesOne.schema)
        for id in 1...3 { notes.upsert(Note(id: id, text: "note \(id)", pinned: false)) }
        try store.commit()
        if compacted { try store.compact() }
        notes.upsert(Note(id: 4, text: "note 4", pinned: false))
        _ = notes.remove(2)
        try store.commit()
        return path
    }

    @Test(arguments: [false, true]) func olderRowsReadAndLaterChangesWin(compacted: Bool) throws {
        let path = try olderStore(compacted: compacted)
        do {
            let (store, notes) = try open(path, NotesTwo.schema)
            #expect(notes.rows.map(\.id).sorted() == [1, 3, 4])
            #expect(notes[3] == Note(id: 3, text: "note 3", pinned: false))
            // New-layout changes over old-layout rows: a replace and a delete.
            notes.upsert(Note(id: 3, text: "note 3", pinned: true))
            _ = notes.remove(1)
            try store.commit()
        }
        // Old layout in the files, new layout after it: the later change wins on reopening.
        do {
            let (store, notes) = try open(path, NotesTwo.schema)
            #expect(
                notes.rows.sorted { $0.id < $1.id } == [
                    Note(id: 3, text: "note 3", pinned: true), Note(id: 4, text: "note 4", pinned: false),
                ])
            try store.compact()
            #expect(store.tables.all.map(\.name) == ["test.notes@2"])
        }
        let (_, notes) = try open(path, NotesTwo.schema)
        #expect(notes.rows.map(\.id).sorted() == [3, 4])
        #expect(notes[3]?.pinned == true)
    }

    @Test func aNewerLayoutIsRefusedNotHidden() throws {
        let path = try olderStore(compacted: true)
        do {
            let (store, notes) = try open(path, NotesTwo.schema)
            notes.upsert(Note(id: 9, text: "new", pinned: true))
            try store.commit()
            try store.compact()
        }
        #expect {
            _ = try open(path, NotesOne.schema)
        } throws: { error in
            "\(error)".contains("table 'test.notes' holds rows of layout 2, written by a newer closet")
        }
    }

    @Test(arguments: [false, true]) func anOlderLayoutThatDoesNotDecodeIsDamageNotAGuess(compacted: Bool) throws {
        let path = try olderStore(compacted: compacted)
        enum Strict: TableCodec {
            static let schema = TableSchema<Strict>(name: "test.notes")
            static var version: Int { 2 }
            static func key(of row: Note) -> Int { row.id }
            static func encode(_ row: Note, into writer: inout ByteWriter) { NotesTwo.encode(row, into: &writer) }
            static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Note {
                try NotesTwo.decodeRow(from: &reader)
            }
            // No reader for layout 1: its rows cannot be read.
            static func encode(key: Int, into writer: inout ByteWriter) { writer.u64(UInt64(key)) }
            static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
                Int(try reader.u64())
            }
        }
        #expect {
            _ = try open(path, Strict.schema)
        } throws: { error in
            "\(error)".contains("damaged")
        }
    }
}
