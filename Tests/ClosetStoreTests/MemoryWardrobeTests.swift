import ClosetCore
import Foundation
import TestSupport
import Testing
import WardrobePack

@Suite struct MemoryWardrobeTests {
    let mocks = MockWardrobe()

    @Test func saveIsAnUpsertKeepingInsertionOrder() throws {
        let store = MemoryWardrobe()
        try store.save(clothes: mocks.top1)
        try store.save(clothes: mocks.top2)
        var edited = mocks.top1
        edited.descriptions = "changed"
        try store.save(clothes: edited)
        #expect(store.fetchAllClothes().map(\.descriptions) == ["changed", "tshirt2"])
        #expect(store.clothesCount == 2)
    }

    @Test func rollbackUndoesInsertsEditsAndRemovesInPlace() throws {
        let store = MemoryWardrobe()
        for clothes in [mocks.top1, mocks.top2, mocks.top3] { try store.save(clothes: clothes) }
        try store.commit()
        let before = store.fetchAllClothes()

        let mark = store.savepoint()
        try store.remove(clothes: mocks.top2)
        try store.save(clothes: mocks.bottom1)
        var edited = mocks.top3
        edited.weatherType = .winter
        try store.save(clothes: edited)
        try store.remove(clothes: mocks.top1)
        #expect(store.clothesCount == 2)
        store.rollback(to: mark)

        #expect(store.fetchAllClothes() == before)
    }

    /// An import's room made for its rows (`Tables.expectMoreRows`) changes nothing a reader
    /// sees: the rows added after it, in order, undone exactly to a savepoint, committed.
    @Test func roomMadeForMoreRowsChangesNothingSeen() throws {
        for committedFirst in [false, true] {
            let store = MemoryWardrobe()
            if committedFirst {
                try store.save(clothes: mocks.top1)
                try store.commit()
            }
            try store.save(clothes: mocks.top2)
            store.tables.expectMoreRows(1_000)
            let mark = store.savepoint()
            var added: [Clothes] = []
            for index in 0..<40 {
                let clothes = Clothes(category: .bottom, weatherType: .fall, descriptions: "row \(index)")
                try store.save(clothes: clothes)
                added.append(clothes)
            }
            let before = (committedFirst ? [mocks.top1] : []) + [mocks.top2]
            #expect(store.fetchAllClothes() == before + added)
            store.rollback(to: mark)
            #expect(store.fetchAllClothes() == before)
            try store.save(clothes: added[0])
            try store.commit()
            #expect(store.fetchAllClothes() == before + [added[0]])
            #expect(store.clothesCount == before.count + 1)
        }
    }

    @Test func nestedSavepointsRollBackOnlyTheirPart() throws {
        let store = MemoryWardrobe()
        let outer = store.savepoint()
        try store.save(clothes: mocks.top1)
        let inner = store.savepoint()
        try store.save(clothes: mocks.top2)
        store.rollback(to: inner)
        #expect(store.fetchAllClothes() == [mocks.top1])
        store.rollback(to: outer)
        #expect(store.clothesCount == 0)
    }

    @Test func removingClothesEmptiesStyleSlotsAndRollbackRestoresThem() throws {
        let store = MemoryWardrobe()
        for clothes in mocks.allClothes { try store.save(clothes: clothes) }
        for style in mocks.styles { try store.save(style: style) }
        try store.commit()

        let mark = store.savepoint()
        try store.remove(clothes: mocks.outer1)
        #expect(try store.fetchStyles().allSatisfy { $0.clothes[.outer] == nil })
        store.rollback(to: mark)
        #expect(try store.fetchStyles().filter { $0.clothes[.outer] == mocks.outer1 }.count == 4)
    }

    @Test func stylesSeeEditsToTheirClothes() throws {
        let store = MemoryWardrobe()
        for clothes in mocks.allClothes { try store.save(clothes: clothes) }
        let style = mocks.styles[0]
        try store.save(style: style)
        var edited = mocks.top1
        edited.descriptions = "new name"
        try store.save(clothes: edited)
        #expect(store.style(withID: style.id)?.clothes[.top]?.descriptions == "new name")
    }

    @Test func aStyleWithUnknownClothesIsRefused() {
        let store = MemoryWardrobe()
        #expect(throws: RepositoryError.invalidData) { try store.save(style: mocks.styles[0]) }
        #expect(store.styleCount == 0)
    }

    @Test func removingWhatIsNotThereIsAnError() {
        let store = MemoryWardrobe()
        #expect(throws: RepositoryError.invalidData) { try store.remove(clothes: mocks.top1) }
    }

    @Test func manyRemovalsCompactAfterCommitAndKeepOrder() throws {
        let store = MemoryWardrobe()
        let all = (0..<3000).map { Clothes(category: .top, weatherType: .fall, descriptions: "\($0)") }
        for clothes in all { try store.save(clothes: clothes) }
        for clothes in all.prefix(2500) { try store.remove(clothes: clothes) }
        try store.commit()
        #expect(store.fetchAllClothes().map(\.descriptions) == (2500..<3000).map { "\($0)" })
        let mark = store.savepoint()
        try store.remove(clothes: all[2600])
        store.rollback(to: mark)
        #expect(store.fetchAllClothes().count == 500)
    }
}
