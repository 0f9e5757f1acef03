import Foundation
import TestSupport
import Testing

@testable import ClosetCore
@testable import ClosetStore
@testable import ClosetTables
@testable import WardrobePack

/// The snapshot's key filter (`KeyFilter`): it never rules out a key the rows hold, it rules
/// out most others, it is used only when written with the snapshot it lies in, and opening a
/// store whose journal adds new keys places them without searching the key order.
@Suite struct KeyFilterTests {
    func keyBytes(_ id: UUID) -> [UInt8] {
        var writer = ByteWriter()
        ClothesTable.encode(key: id, into: &writer)
        return writer.bytes
    }

    func clothes(_ count: Int, _ generator: inout some RandomNumberGenerator) -> [Clothes] {
        (0..<count).map { index in
            Clothes(
                id: UUID(uuid: randomUUID(&generator)), createdAt: Date(timeIntervalSince1970: Double(index)),
                image: nil,
                category: ClothesCategory.allCases.randomElement(using: &generator)!,
                weatherType: WeatherType.allCases.randomElement(using: &generator)!, descriptions: "knit \(index)")
        }
    }

    /// Seeded ids, so a run's keys (and the filter's few false "maybe"s) are the same every time.
    func randomUUID(_ generator: inout some RandomNumberGenerator) -> uuid_t {
        let bytes = randomKey(&generator)
        return (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9],
            bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
        )
    }

    /// Sixteen seeded random bytes: keys no store holds, the same in every run.
    func randomKey(_ generator: inout some RandomNumberGenerator) -> [UInt8] {
        (0..<16).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    @Test func everyStoredKeyPassesAndMostOthersAreRuledOut() throws {
        var generator = SeededRandom(seed: 47)
        let path = temporaryStore()
        let stored = clothes(3_000, &generator)
        _ = try compactedStore(at: path, holding: stored)
        let mapped = try #require(try MappedFile.open(path + "/snapshot"))
        let tables = Tables(Wardrobe.pack.tables)
        let header = try #require(try StoreFormat.snapshotHeader(memory: mapped.memory))
        try StoreFormat.loadSnapshot(memory: mapped.memory, header: header, owner: mapped, into: tables)
        let filter = try #require(try tables.table(ClothesTable.schema).lazy?.keyFilter)
        let words = try #require(filter.words())
        for clothes in stored {
            let key = keyBytes(clothes.id)
            #expect(key.withUnsafeBytes { filter.mayContain($0) })
            #expect(key.withUnsafeBytes { filter.letsThrough($0, words: words) })
        }
        var ruledOut = 0
        for _ in 0..<10_000 {
            let key = randomKey(&generator)
            let may = key.withUnsafeBytes { filter.mayContain($0) }
            #expect(may == key.withUnsafeBytes { filter.letsThrough($0, words: words) })
            if !may { ruledOut += 1 }
        }
        // About ten bits a key: one absent key in a hundred or so passes.
        #expect(ruledOut >= 9_700, "\(ruledOut) of 10,000 ruled out")
        // Bits all cleared: a filter that rules out what the rows hold is what `.check` says.
        let cleared = [UInt64](repeating: 0, count: words.count)
        #expect(!keyBytes(stored[0].id).withUnsafeBytes { filter.letsThrough($0, words: cleared) })
    }

    /// Written for another snapshot (another generation) or for other rows (another count),
    /// the filter lets every key through: a section carried over unchanged is never trusted.
    @Test func aFilterWrittenForOtherRowsLetsEveryKeyThrough() throws {
        var generator = SeededRandom(seed: 48)
        let keys = (0..<500).map { _ in randomKey(&generator) }
        let prefixes = keys.map { key in key.withUnsafeBytes { SnapshotSection.keyPrefix($0) } }.sorted()
        var writer = ByteWriter()
        KeyFilter.write(prefixes: prefixes, generation: 9, into: &writer)
        let absent = (0..<200).map { _ in randomKey(&generator) }
        try writer.bytes.withUnsafeBytes { memory in
            let rows = try #require(SnapshotRows(memory: memory, owner: Tables(), start: 0))
            #expect(rows.indexProblem() == nil)
            let current = KeyFilter(rows, generation: 9, rowCount: 500)
            #expect(keys.allSatisfy { key in key.withUnsafeBytes { current.mayContain($0) } })
            let passing = absent.filter { key in key.withUnsafeBytes { current.mayContain($0) } }
            #expect(passing.count < 20)
            for stale in [KeyFilter(rows, generation: 8, rowCount: 500), KeyFilter(rows, generation: 9, rowCount: 501)]
            {
                #expect(absent.allSatisfy { key in key.withUnsafeBytes { stale.mayContain($0) } })
                #expect(stale.words() == nil)
            }
        }
        // A header whose block count is not the one its row count gives (one block for 500
        // keys, the same one row of blocks): not used, since a filter of too few blocks would rule
        // out keys the rows hold.
        var patched = writer.bytes
        let blocksAt = 16 + 6 + 1 + 8 + 8  // the section's counts, the frame's lengths, version, generation, rows
        #expect(patched[blocksAt] == 10 && patched[(blocksAt + 1)..<(blocksAt + 8)].allSatisfy { $0 == 0 })
        patched[blocksAt] = 1
        try patched.withUnsafeBytes { memory in
            let rows = try #require(SnapshotRows(memory: memory, owner: Tables(), start: 0))
            let filter = KeyFilter(rows, generation: 9, rowCount: 500)
            #expect(absent.allSatisfy { key in key.withUnsafeBytes { filter.mayContain($0) } })
            #expect(filter.words() == nil)
        }
        // No rows: every key is ruled out.
        var empty = ByteWriter()
        KeyFilter.write(prefixes: [], generation: 3, into: &empty)
        try empty.bytes.withUnsafeBytes { memory in
            let rows = try #require(SnapshotRows(memory: memory, owner: Tables(), start: 0))
            let filter = KeyFilter(rows, generation: 3, rowCount: 0)
            #expect(!absent[0].withUnsafeBytes { filter.mayContain($0) })
        }
    }

    /// A store opened after small commits of new clothes (each its own journal record): the
    /// journal's inserts are placed checking no block for them; the same journal with puts (an
    /// earlier build's) checks fewer blocks than the same open without the filter (which
    /// searches the key order for each); the rows and counts are the same; after more
    /// changes, a compaction copying rows as bytes writes a filter that holds the new keys.
    /// 20,000 rows: a key order of eight blocks, of which one search (a key the filter lets
    /// through by chance) checks about four.
    @Test func newKeysInTheJournalAreNotSearchedFor() throws {
        var generator = SeededRandom(seed: 49)
        let path = temporaryStore()
        let stored = clothes(20_000, &generator)
        var added: [Clothes] = []
        do {
            let store = try compactedStore(at: path, holding: stored)
            for _ in 0..<100 {
                let clothes = clothes(1, &generator)[0]
                added.append(clothes)
                try store.save(clothes: clothes)
                try store.commit()
            }
        }
        // Journaled as inserts, they are not looked for at all; as an earlier build journals
        // them (puts: `rewriteInsertsAsPuts`), the filter rules most of them out.
        var checked: [Int] = []
        for (asPuts, useFilter) in [(false, true), (true, true), (true, false)] {
            let copy = temporaryStore()
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            if asPuts { try rewriteInsertsAsPuts(copy) }
            let (store, _) = try open(copy)
            let lazy = try #require(try store.tables.table(ClothesTable.schema).lazy)
            #expect(lazy.keyFilter != nil)
            if !useFilter { lazy.keyFilter = nil }
            #expect(store.clothesCount == 20_100)
            checked.append(try #require(store.base.view.blocks).checkedCount)
            for clothes in added.prefix(10) + stored.prefix(10) {
                #expect(store.clothes(withID: clothes.id) == clothes)
            }
        }
        #expect(
            checked[0] < checked[1] && checked[1] < checked[2],
            "blocks checked for inserts, for puts with the filter and without: \(checked)")

        // A change to a stored row and a removal, then a compaction over rows still read in
        // place: the new snapshot's filter lets the journal's keys through and the rows read back.
        do {
            let (store, _) = try open(path)
            var changed = stored[5]
            changed.descriptions = "changed"
            try store.save(clothes: changed)
            try store.remove(clothes: stored[6])
            try store.commit()
            try store.compact()
        }
        let (reopened, _) = try open(path)
        let filter = try #require(try reopened.tables.table(ClothesTable.schema).lazy?.keyFilter)
        for clothes in added + stored.prefix(100) where clothes.id != stored[6].id {
            #expect(keyBytes(clothes.id).withUnsafeBytes { filter.mayContain($0) })
        }
        #expect(reopened.clothes(withID: stored[5].id)?.descriptions == "changed")
        #expect(reopened.clothes(withID: stored[6].id) == nil)
        #expect(reopened.clothesCount == 20_099)
        #expect(reopened.check().problems.isEmpty)
    }
}
