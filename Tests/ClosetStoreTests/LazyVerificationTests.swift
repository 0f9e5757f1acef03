import Foundation
import TestSupport
import Testing

@testable import ClosetCore
@testable import ClosetStore
@testable import ClosetTables
@testable import WardrobePack

/// Issue 24, part 1: opening checks the snapshot's header and block checksums; each block is
/// checked the first time something reads it, and `check()` reads the rest. Every damage is
/// still found (by the statement that reads it, or by the check), and no byte changes.
@Suite struct LazyVerificationTests {
    /// 10,000 clothes compacted into a snapshot of several blocks.
    func bigStore() throws -> (String, [Clothes]) {
        let path = temporaryStore()
        var generator = SeededRandom(seed: 24)
        let clothes = (0..<10_000).map { index in
            Clothes(
                id: UUID(), createdAt: Date(timeIntervalSince1970: Double(index)), image: nil,
                category: ClothesCategory.allCases.randomElement(using: &generator)!,
                weatherType: WeatherType.allCases.randomElement(using: &generator)!, descriptions: "knit \(index)")
        }
        _ = try compactedStore(at: path, holding: clothes)
        return (path, clothes)
    }

    func files(_ path: String) throws -> [[UInt8]?] {
        try ["snapshot", "journal", "closet-store"].map { try POSIXFile.readAll(path + "/" + $0) }
    }

    /// A copy of the store with one bit of its snapshot flipped at `byte`.
    func damagedCopy(of path: String, at byte: Int) throws -> String {
        let copy = temporaryStore()
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        var bytes = try #require(try POSIXFile.readAll(copy + "/snapshot"))
        bytes[byte] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: copy + "/snapshot"))
        return copy
    }

    @Test func openingChecksOnlyTheBlocksItReads() throws {
        let (path, clothes) = try bigStore()
        let (store, _) = try open(path)
        let blocks = try #require(store.base.view.blocks)
        #expect(blocks.blockCount >= 20)
        let atOpen = blocks.checkedCount
        // The section's lengths: at its start, after its rows, after its key order, at its end;
        // and its key filter's, a section of its own after it (its bits are read only when a
        // key the journal changed is looked up).
        #expect(atOpen <= 5, "\(atOpen) of \(blocks.blockCount)")
        #expect(store.clothesCount == 10_000)
        #expect(store.wardrobe.indexedClothesCount(categories: 0xFF, seasons: 0xFF) == 10_000)
        #expect(blocks.checkedCount < blocks.blockCount)
        #expect(store.clothes(withID: clothes[1_234].id) == clothes[1_234])
        #expect(store.fetchAllClothes() == clothes)
        #expect(blocks.checkedCount > atOpen)
        let result = store.base.check()
        #expect(result.problems.isEmpty, "\(result.problems)")
        #expect(blocks.checkedCount == blocks.blockCount)
    }

    @Test func damageInAnyBlockIsFoundByOpeningOrByTheCheckAndChangesNothing() throws {
        let (path, _) = try bigStore()
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        var opened = 0
        for block in 0..<header.blockCount {
            let range = header.block(block)
            let said = "its snapshot fails its checksum in bytes \(range.lowerBound)-\(range.upperBound - 1)"
            let copy = try damagedCopy(of: path, at: range.lowerBound + range.count / 2)
            let before = try files(copy)
            do {
                let (store, _) = try open(copy)
                opened += 1
                #expect(store.base.check().problems == [said], "block \(block)")
            } catch let error as DurableStore.OpenError {
                #expect(error.description.contains(said), "block \(block): \(error.description)")
            }
            #expect(try files(copy) == before, "block \(block): a file changed")
        }
        // Most blocks hold rows no open reads: those are found by the check, not at open.
        #expect(opened >= header.blockCount - 5, "\(opened) of \(header.blockCount)")
    }

    /// Issue 24's "done when": a flipped bit anywhere in a snapshot of many blocks (rows,
    /// index, trailer, header) is found by opening or by `check()`, never read as other data.
    @Test func checkFindsEveryRandomFlipOfABigSnapshot() throws {
        let (path, clothes) = try bigStore()
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        var generator = SeededRandom(seed: 2424)
        var outcomes: [String: Int] = [:]
        for round in 0..<120 {
            let byte = Int(generator.next() % UInt64(snapshot.count))
            let copy = try damagedCopy(of: path, at: byte)
            let before = try files(copy)
            do {
                let (store, _) = try open(copy)
                let problems = store.base.check().problems
                #expect(!problems.isEmpty, "round \(round): byte \(byte) flipped and the check found nothing")
                outcomes[problems.isEmpty ? "missed" : "found by the check", default: 0] += 1
                if problems.isEmpty { #expect(store.fetchAllClothes() == clothes) }
            } catch is DurableStore.OpenError {
                outcomes["refused at open", default: 0] += 1
            }
            #expect(try files(copy) == before, "round \(round): a file changed")
        }
        #expect(outcomes["found by the check", default: 0] > 60, "\(outcomes)")
    }

    @Test func aCompactionNeverCopiesADamagedBlockIntoANewSnapshot() throws {
        let (path, _) = try bigStore()
        do {
            // A commit in the journal after the snapshot.
            let (store, _) = try open(path)
            try store.save(
                clothes: Clothes(
                    id: UUID(), createdAt: Date(timeIntervalSince1970: 9_999), image: nil, category: .top,
                    weatherType: .fall, descriptions: "added"))
            try store.commit()
        }
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        let copy = try damagedCopy(of: path, at: header.block(2).lowerBound + 10)
        let before = try files(copy)
        let (store, _) = try open(copy)
        #expect(throws: (any Error).self) { try store.compact() }
        // Nothing was rewritten: the damaged snapshot and the journal holding the commit stay
        // for 'closet recover', and the damage is still found.
        #expect(try files(copy) == before)
        #expect(try recordCount(copy) == 1)
        #expect(try open(copy).0.base.check().problems.count == 1)
    }

    @Test func theCheckFindsAnIndexThatDoesNotAddUpAndARowThatCannotBeRead() throws {
        for damage in ["key order", "key prefix", "bucket entry", "row"] {
            let (path, _) = try bigStore()
            var bytes = try #require(try POSIXFile.readAll(path + "/snapshot"))
            let header = try #require(bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
            let directory = try #require(SnapshotDirectory(trailerOf: bytes, header: header))
            let section = try #require(directory.entries.first { $0.name == "clothes" })
            let expected: String
            let n = section.count
            func u32(_ at: Int) -> Int { bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
            if damage == "key prefix" {
                // A byte of the first entry's prefix (its key's eighth byte) changed.
                let sorted = section.offsetsStart + 8 * n
                bytes[sorted] ^= 0x01
                expected =
                    "table 'clothes': its snapshot section passes its checksum but the key order gives row \(u32(sorted + 8)) a prefix that is not its key's"
            } else if damage == "bucket entry" {
                // The row offset in the first bucket entry: after the offsets, the key order,
                // the bucket count, the buckets, the order keys and the bucket starts.
                let bucketCount = u32(section.offsetsStart + 20 * n)
                let starts = section.offsetsStart + 20 * n + 4 + n + 8 * n
                let lists = starts + 4 * (bucketCount + 1)
                let bucket = (0..<bucketCount).first { u32(starts + 4 * ($0 + 1)) > 0 } ?? 0
                bytes[lists + 12] ^= 0x01
                expected =
                    "table 'clothes': its snapshot section passes its checksum but bucket \(bucket) gives row \(u32(lists)) an order key or offset that is not its own"
            } else if damage == "key order" {
                // The first two entries of the key order (prefix and ordinal: 12 bytes) swapped.
                let sorted = section.offsetsStart + 8 * section.count
                let first = Array(bytes[sorted..<(sorted + 12)])
                bytes.replaceSubrange(sorted..<(sorted + 12), with: bytes[(sorted + 12)..<(sorted + 24)])
                bytes.replaceSubrange((sorted + 12)..<(sorted + 24), with: first)
                expected =
                    "table 'clothes': its snapshot section passes its checksum but the key order is not sorted, or a key is there twice"
            } else {
                bytes[section.rowsEnd - 1] ^= 0xFF
                expected = "table 'clothes': snapshot row \(section.count - 1) passes its checksum but cannot be read"
            }
            try writeResealedSnapshot(bytes, in: path)
            let before = try files(path)
            let (store, _) = try open(path)
            #expect(store.base.check().problems == [expected], "\(damage)")
            #expect(try files(path) == before)
        }
    }

    /// Issue 24, part 3: compaction also runs when the journal's changes pass a share of the
    /// snapshot's rows (each is looked up in the snapshot at open), so many small commits never
    /// leave more than that to place; everything reads back.
    @Test func manySmallCommitsAreCompactedByTheirShareOfTheRows() throws {
        let (path, clothes) = try bigStore()
        let (store, _) = try open(path)
        var model = clothes
        let bound = max(CompactionPolicy.floorChanges, clothes.count / CompactionPolicy.journalShare)
        var compactions = 0
        for index in 0..<1_200 {
            let added = Clothes(
                id: UUID(), createdAt: Date(timeIntervalSince1970: Double(20_000 + index)), image: nil,
                category: .top, weatherType: .fall, descriptions: "small \(index)")
            try store.save(clothes: added)
            model.append(added)
            let before = store.base.view.journalChanges
            try store.commit()
            if store.base.view.journalChanges < before { compactions += 1 }
            #expect(store.base.view.journalChanges <= bound, "commit \(index)")
        }
        #expect(compactions >= 2, "\(compactions)")
        let (reopened, _) = try open(path)
        #expect(reopened.base.view.journalChanges <= bound)
        #expect(reopened.fetchAllClothes() == model)
    }

    /// A long-lived process (`closet serve`, a prompt): after each of its compactions its tables
    /// are read in place from the new snapshot, so the changes kept beside the rows never pass
    /// what the journal holds (they had grown with every change since the store was opened);
    /// a table decoded into memory stays decoded while the changes are few beside its rows.
    @Test func aLongLivedStoreLetsGoOfTheChangesItsCompactionsHold() throws {
        let (path, clothes) = try bigStore()
        let (store, _) = try open(path)
        var model = clothes
        var generator = SeededRandom(seed: 4_702)
        func change(_ index: Int) throws {
            switch index % 4 {
            case 0 where model.count > 1:
                try store.remove(clothes: model.remove(at: Int.random(in: 0..<model.count, using: &generator)))
            case 1:
                let place = Int.random(in: 0..<model.count, using: &generator)
                let old = model[place]
                model[place] = Clothes(
                    id: old.id, createdAt: old.createdAt, image: nil, category: old.category, weatherType: .winter,
                    descriptions: "changed \(index)")
                try store.save(clothes: model[place])
            default:
                let added = Clothes(
                    id: UUID(), createdAt: Date(timeIntervalSince1970: Double(20_000 + index)), image: nil,
                    category: .top, weatherType: .fall, descriptions: "small \(index)")
                try store.save(clothes: added)
                model.append(added)
            }
            try store.commit()
        }
        let bound = max(CompactionPolicy.floorChanges, clothes.count / CompactionPolicy.journalShare)
        var compactions = 0
        for index in 0..<900 {
            let before = store.base.view.journalChanges
            try change(index)
            if store.base.view.journalChanges < before { compactions += 1 }
            let held = store.base.tables.rowsInMemory
            #expect(held.decodedRows == 0, "commit \(index): read in place")
            #expect(held.changesBesideSnapshot <= bound, "commit \(index): \(held.changesBesideSnapshot) held")
        }
        #expect(compactions >= 2, "\(compactions)")
        #expect(Set(store.fetchAllClothes()) == Set(model))
        // Decoded now: its 10,000 rows are kept across compactions while the changes are few.
        for index in 900..<1_500 {
            try change(index)
            #expect(store.base.tables.rowsInMemory == RowsInMemory(decodedRows: model.count), "commit \(index)")
        }
        #expect(Set(store.fetchAllClothes()) == Set(model))
        let (reopened, _) = try open(path)
        #expect(Set(reopened.fetchAllClothes()) == Set(model))
    }

    /// A read through the file checks the blocks it read from the bytes it read, and a block
    /// only partly inside them through the file: none from the mapping (whose pages would stay
    /// part of the process's memory through a whole dump), each once.
    @Test func blocksReadThroughTheFileAreCheckedFromWhatWasRead() {
        let file = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let body = 8..<190  // 16-byte blocks from byte 8; the last one shorter
        let blockCount = (body.count + 15) / 16
        let crc = { (bytes: UnsafeRawBufferPointer) in StoreChecksum.crc32c(bytes) }
        let expected = (0..<blockCount).map { index in
            file.withUnsafeBytes {
                crc(UnsafeRawBufferPointer(rebasing: $0[(8 + index * 16)..<min(190, 8 + index * 16 + 16)]))
            }
        }
        var throughFile: [Int] = []
        var fromBytes = 0
        let blocks = SnapshotBlocks(
            bodyStart: body.lowerBound, bodyEnd: body.upperBound, blockShift: 4, expected: expected,
            checksum: { range in
                throughFile.append(range.lowerBound)
                return file.withUnsafeBytes { crc(UnsafeRawBufferPointer(rebasing: $0[range])) }
            },
            mappedChecksum: { _ in
                Issue.record("the mapping read")
                return nil
            },
            bytesChecksum: { bytes in
                fromBytes += 1
                return crc(bytes)
            })
        // Bytes 20..<100: block 0 (8..<24) and block 5 (88..<104) only partly inside.
        file.withUnsafeBytes { blocks.verify(20, read: UnsafeRawBufferPointer(rebasing: $0[20..<100])) }
        #expect(throughFile == [8, 88])
        #expect(fromBytes == 4)
        #expect(blocks.checkedCount == 6)
        // The rest to the end, the header's bytes before it ignored: each block once.
        file.withUnsafeBytes { blocks.verify(0, read: UnsafeRawBufferPointer(rebasing: $0[0..<200])) }
        #expect(throughFile == [8, 88])
        #expect(fromBytes == 4 + blockCount - 6)
        #expect(blocks.checkedCount == blockCount)
    }

    /// A row read alone through the file, in a block not checked yet, is read with its whole
    /// block, checked from those bytes and kept (`heldBlock`); the next row in that block reads
    /// right and checks nothing more; every row's bytes are those of the mapping.
    @Test func aRowsFirstReadTakesItsWholeBlockOnce() throws {
        let (path, clothes) = try bigStore()
        let (store, _) = try open(path)
        let blocks = try #require(store.base.view.blocks)
        let rows = try #require(try store.tables.table(ClothesTable.schema).lazy?.base)
        let atOpen = blocks.checkedCount
        var readWhole = 0
        for ordinal in stride(from: 0, to: rows.count - 1, by: 97) {
            let start = rows.frameStart(ordinal)
            let end = rows.frameStart(ordinal + 1)
            let unchecked = blocks.uncheckedBlock(holding: start..<end)
            #expect(rows.rowBytes(ordinal) == rows.withRowInPlace(ordinal) { [UInt8]($0) })
            if let unchecked {
                readWhole += 1
                #expect(rows.heldBlock?.range == unchecked)
                #expect(blocks.uncheckedBlock(holding: start..<end) == nil)  // checked now
                // The next row, when it lies in the same block: the same bytes, nothing checked.
                if rows.frameStart(ordinal + 1) >= unchecked.lowerBound, ordinal + 2 < rows.count,
                    rows.frameStart(ordinal + 2) <= unchecked.upperBound
                {
                    let checked = blocks.checkedCount
                    #expect(rows.rowBytes(ordinal + 1) == rows.withRowInPlace(ordinal + 1) { [UInt8]($0) })
                    #expect(blocks.checkedCount == checked)
                }
            }
        }
        #expect(readWhole > 10)
        #expect(blocks.checkedCount > atOpen)
        // The decoded rows are the stored ones.
        #expect(store.clothes(withID: clothes[4_321].id) == clothes[4_321])
    }

    /// The real binary: a row shown alone from a damaged block fails with exit 3 and the
    /// block's bytes named (the block read whole to be checked); a row in another block shows.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func aRowReadAloneFromADamagedBlockIsRefused() throws {
        let (path, clothes) = try bigStore()
        let (store, _) = try open(path)
        let rows = try #require(try store.tables.table(ClothesTable.schema).lazy?.base)
        let blocks = try #require(store.base.view.blocks)
        let victim = clothes[5_000]
        let ordinal = try #require(rows.ordinal(ofKey: LazyRows<ClothesTable>.keyBytes(victim.id)))
        let start = rows.frameStart(ordinal)
        let block = blocks.block((start - blocks.bodyStart) >> blocks.shift)
        let other = try #require(
            clothes.first { other in
                let at = rows.ordinal(ofKey: LazyRows<ClothesTable>.keyBytes(other.id)).map(rows.frameStart) ?? 0
                return at < block.lowerBound - 100 || at > block.upperBound + 100
            })
        let copy = try damagedCopy(of: path, at: start + 8)
        let refused = try ChildProcess.run(
            Self.binary, ["--store", copy, "-c", "show clothes \(victim.id.uuidString)"])
        #expect(refused.status == 3, "\(refused.err)")
        #expect(
            refused.err.contains("fails its checksum in bytes \(block.lowerBound)-\(block.upperBound - 1)"),
            "\(refused.err)")
        let shown = try ChildProcess.run(Self.binary, ["--store", copy, "-c", "show clothes \(other.id.uuidString)"])
        #expect(shown.status == 0, "\(shown.err)")
        #expect(shown.out.contains(other.descriptions), "\(shown.out)")
    }

    /// The real binary: a damaged block under the rows is found by a dump and by a search,
    /// which read the rows through the file a megabyte at a time, wherever the block lies.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func aDamagedBlockIsFoundByTheWholeTableReads() throws {
        let (path, _) = try bigStore()
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        let directory = try #require(SnapshotDirectory(trailerOf: snapshot, header: header))
        let clothes = try #require(directory.entries.first { $0.name == "clothes" })
        let rowBlocks = (0..<header.blockCount).filter { index in
            let block = header.block(index)
            return block.lowerBound >= clothes.rowsStart && block.upperBound <= clothes.rowsEnd
        }
        #expect(rowBlocks.count >= 4)
        for index in [rowBlocks[0], rowBlocks[rowBlocks.count / 2], rowBlocks[rowBlocks.count - 1]] {
            let block = header.block(index)
            let copy = try damagedCopy(of: path, at: block.lowerBound + 7)
            for arguments in [["--store", copy, "dump"], ["--store", copy, "-c", "count clothes search=knit"]] {
                let (status, _, message) = try ChildProcess.run(Self.binary, arguments)
                #expect(status == 3, "\(arguments): \(message)")
                #expect(
                    message.contains("fails its checksum in bytes \(block.lowerBound)-\(block.upperBound - 1)"),
                    "\(arguments): \(message)")
            }
        }
    }

    static let binary = BuiltProducts.closet

    /// The real binary: a statement that reads a damaged block fails with exit 3 and the
    /// bytes named, one that does not read it works, `closet check` finds it, and no file
    /// changes; `closet check` of a whole store says ok, and of a missing one makes nothing.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func aDamagedBlockFailsTheStatementThatReadsItAndCheckFindsIt() throws {
        let (path, _) = try bigStore()
        let (status, output, _) = try ChildProcess.run(Self.binary, ["check", path])
        #expect(status == 0)
        #expect(output.hasSuffix("rows      10000\npictures  0\nok\n"), "\(output)")
        let snapshot = try #require(try POSIXFile.readAll(path + "/snapshot"))
        let header = try #require(snapshot.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
        let block = header.block(3)
        let copy = try damagedCopy(of: path, at: block.lowerBound + 100)
        let before = try files(copy)
        let said = "is damaged: its snapshot fails its checksum in bytes \(block.lowerBound)-\(block.upperBound - 1)"
        let count = try ChildProcess.run(Self.binary, ["--store", copy, "-c", "count clothes season=fall"])
        #expect(count.status == 0, "\(count.err)")
        for arguments in [
            ["--store", copy, "-c", "list clothes"], ["check", copy], ["--store", copy, "-c", ".check"],
        ] {
            let (status, _, message) = try ChildProcess.run(Self.binary, arguments)
            #expect(status == (arguments[0] == "check" ? 3 : arguments[3] == ".check" ? 1 : 3), "\(arguments)")
            #expect(message.contains(said), "\(arguments): \(message)")
        }
        #expect(try files(copy) == before)
        let missing = temporaryStore()
        let refused = try ChildProcess.run(Self.binary, ["check", missing])
        #expect(refused.status == 3)
        #expect(refused.err == "error: there is no store at '\(missing)'\n")
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
