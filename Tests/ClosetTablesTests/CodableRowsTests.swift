import Foundation
import Testing

@testable import ClosetCore
@testable import ClosetTables

/// The default row codec: `Codable` rows round-trip exactly, an optional field added later
/// reads older rows as nil, and damaged bytes are refused, never a trap or a hang.
@Suite struct CodableRowsTests {
    enum Mood: String, Codable, Hashable { case calm, busy }

    struct Note: Codable, Hashable, Sendable, Identifiable {
        var id: UUID
        var title: String
        var count: Int
        var small: Int8
        var big: UInt64
        var ratio: Double
        var flag: Bool
        var mood: Mood
        var tags: [String]
        var nested: [[Int]]
        var lookup: [String: Int]
        var maybe: String?
        var when: Date
    }

    /// The same model before `pinned` was added.
    struct OldNote: Codable, Sendable, Identifiable {
        var id: Int
        var text: String
    }

    struct NewNote: Codable, Sendable, Identifiable, Equatable {
        var id: Int
        var text: String
        var pinned: Bool?
    }

    func sample(_ generator: inout some RandomNumberGenerator) -> Note {
        Note(
            id: UUID(),
            title: ["", "가을 니트", "with \"quotes\"\n", String(repeating: "x", count: 300)].randomElement(
                using: &generator)!,
            count: Int.random(in: .min ... .max, using: &generator),
            small: Int8.random(in: .min ... .max, using: &generator),
            big: UInt64.random(in: .min ... .max, using: &generator),
            ratio: Double.random(in: -1e9...1e9, using: &generator),
            flag: Bool.random(using: &generator), mood: Bool.random(using: &generator) ? .calm : .busy,
            tags: (0..<Int.random(in: 0...4, using: &generator)).map { "t\($0)" },
            nested: [[1, 2], [], [Int.max]], lookup: ["a": 1, "b": -2],
            maybe: Bool.random(using: &generator) ? nil : "here",
            when: Date(timeIntervalSinceReferenceDate: Double.random(in: -1e9...1e9, using: &generator)))
    }

    func bytes<T: Encodable>(_ value: T) -> [UInt8] {
        var writer = ByteWriter()
        CodableRows<NewNote>.encodeValue(value, into: &writer)
        return writer.bytes
    }

    @Test func rowsAndKeysRoundTripExactly() throws {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let note = sample(&generator)
            var writer = ByteWriter()
            CodableRows<Note>.encode(note, into: &writer)
            var reader = ByteReader(writer.bytes)
            #expect(try CodableRows<Note>.decodeRow(from: &reader) == note)
            #expect(reader.isAtEnd)
            var keyWriter = ByteWriter()
            CodableRows<Note>.encode(key: note.id, into: &keyWriter)
            var keyReader = ByteReader(keyWriter.bytes)
            #expect(try CodableRows<Note>.decodeKey(from: &keyReader) == note.id)
        }
    }

    @Test func anOptionalFieldAddedLaterReadsOlderRowsAsNil() throws {
        var reader = ByteReader(bytes(OldNote(id: 7, text: "old")))
        #expect(try CodableRows<NewNote>.decodeRow(from: &reader) == NewNote(id: 7, text: "old", pinned: nil))
        // A field removed later is ignored; a required one missing is damage.
        var back = ByteReader(bytes(NewNote(id: 8, text: "new", pinned: true)))
        #expect(try CodableRows<NewNote>.decodeRow(from: &back).pinned == true)
        struct Stricter: Codable, Sendable, Identifiable {
            var id: Int
            var text: String
            var required: Int
        }
        var strict = ByteReader(bytes(OldNote(id: 9, text: "x")))
        #expect(throws: ByteReader.Malformed.self) { try CodableRows<Stricter>.decodeRow(from: &strict) }
    }

    @Test func aNumberThatDoesNotFitIsRefused() {
        struct Wide: Codable, Sendable, Identifiable {
            var id: Int
            var value: Int
        }
        struct Narrow: Codable, Sendable, Identifiable {
            var id: Int
            var value: Int8
        }
        var reader = ByteReader(bytes(Wide(id: 1, value: 1000)))
        #expect(throws: ByteReader.Malformed.self) { try CodableRows<Narrow>.decodeRow(from: &reader) }
    }

    /// Every truncation and many random changes of valid rows, and deep nesting: an error or
    /// a row, never a trap.
    @Test func damagedBytesAreRefused() {
        var generator = SystemRandomNumberGenerator()
        let note = sample(&generator)
        var writer = ByteWriter()
        CodableRows<Note>.encode(note, into: &writer)
        let valid = writer.bytes
        for length in 0..<valid.count {
            var reader = ByteReader(Array(valid[..<length]))
            #expect((try? CodableRows<Note>.decodeRow(from: &reader)) == nil)
        }
        for _ in 0..<5000 {
            var damaged = valid
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                damaged[Int.random(in: 0..<damaged.count, using: &generator)] = UInt8.random(
                    in: 0...255, using: &generator)
            }
            var reader = ByteReader(damaged)
            _ = try? CodableRows<Note>.decodeRow(from: &reader)
        }
        // 10,000 nested lists: refused at the depth limit, not by overflowing the stack.
        var deep = ByteWriter()
        for _ in 0..<10_000 {
            deep.u8(8)
            deep.u32(1)
        }
        var reader = ByteReader(deep.bytes)
        #expect(throws: ByteReader.Malformed.self) { try BinaryValue.read(from: &reader) }
        // A count far beyond the bytes left is refused before anything is reserved.
        var huge = ByteWriter()
        huge.u8(7)
        huge.u32(.max)
        var hugeReader = ByteReader(huge.bytes)
        #expect(throws: ByteReader.Malformed.self) { try BinaryValue.read(from: &hugeReader) }
    }
}
