import ClosetCore
import Foundation
import TestSupport
import Testing
import WardrobePack

@Suite struct ClothesDetailViewModelTests {
    @Test func addRequiresCategoryThenSeasonWithTheAppsMessages() {
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: MemoryWardrobe())
        #expect(throws: ClothesDetailViewModel.ValidationError.missingCategory) {
            try viewModel.clothesFromInput(.init(weatherType: .fall), newID: UUID.init, now: Date.init)
        }
        #expect(throws: ClothesDetailViewModel.ValidationError.missingWeather) {
            try viewModel.clothesFromInput(.init(category: .top), newID: UUID.init, now: Date.init)
        }
        #expect(ClothesDetailViewModel.ValidationError.missingCategory.message == "카테고리는 필수 항목입니다.")
        #expect(ClothesDetailViewModel.ValidationError.missingWeather.message == "계절은 필수 항목입니다.")
    }

    @Test func missingDescriptionBecomesEmpty() throws {
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: MemoryWardrobe())
        let clothes = try viewModel.clothesFromInput(
            .init(category: .top, weatherType: .fall), newID: UUID.init, now: Date.init)
        #expect(clothes.descriptions == "")
    }

    @Test func editKeepsIdAndCreatedAt() throws {
        let store = MemoryWardrobe()
        let original = MockWardrobe().top1
        try store.save(clothes: original)
        let viewModel = ClothesDetailViewModel(clothes: original, repository: store)
        let edited = try viewModel.clothesFromInput(.init(weatherType: .winter), newID: UUID.init, now: Date.init)
        try viewModel.save(clothes: edited)
        #expect(edited.id == original.id)
        #expect(edited.createdAt == original.createdAt)
        #expect(store.clothes(withID: original.id)?.weatherType == .winter)
        #expect(viewModel.clothes == edited)
    }
}

@Suite struct StyleDetailViewModelTests {
    func makeViewModel(_ store: MemoryWardrobe) -> StyleDetailViewModel {
        StyleDetailViewModel(style: nil, repository: store) { Style(clothes: [:], weather: $0) }
    }

    @Test func updateReplacesTheClothesOfTheSameCategory() throws {
        let store = MemoryWardrobe()
        let mocks = MockWardrobe()
        for clothes in mocks.allClothes { try store.save(clothes: clothes) }
        let viewModel = makeViewModel(store)
        viewModel.update(clothes: mocks.top1, weather: .fall)
        viewModel.update(clothes: mocks.bottom1, weather: .fall)
        viewModel.update(clothes: mocks.top2, weather: .fall)
        #expect(viewModel.styleToEdit?.clothes[.top] == mocks.top2)
        #expect(viewModel.styleToEdit?.clothes.count == 2)
        viewModel.removeClothes(of: .bottom)
        #expect(viewModel.styleToEdit?.clothes.count == 1)
        guard case .saved(let style) = try viewModel.save(name: "", weather: .winter) else {
            Issue.record("expected a saved style")
            return
        }
        #expect(style.name == nil)
        #expect(style.weather == .winter)
        #expect(store.style(withID: style.id)?.clothes[.top] == mocks.top2)
    }

    @Test func saveWithNothingPickedSavesNothing() throws {
        let store = MemoryWardrobe()
        #expect(try makeViewModel(store).save(name: "x", weather: .fall) == .nothingToSave)
        #expect(store.styleCount == 0)
    }

    @Test func styleViewModelSortsAndSurvivesRefresh() throws {
        let store = MemoryWardrobe()
        let mocks = MockWardrobe()
        for clothes in mocks.allClothes { try store.save(clothes: clothes) }
        let early = Style(
            createdAt: Date(timeIntervalSince1970: 10), clothes: [.top: mocks.top1], weather: .fall, name: "early")
        let late = Style(
            createdAt: Date(timeIntervalSince1970: 20), clothes: [.top: mocks.top2], weather: .fall, name: "late")
        try store.save(style: early)
        try store.save(style: late)
        let viewModel = StyleViewModel(repository: store)
        #expect(viewModel.sorted(.new).map(\.name) == ["late", "early"])
        #expect(viewModel.sorted(.old).map(\.name) == ["early", "late"])
        try viewModel.delete(style: late)
        #expect(viewModel.styles.map(\.name) == ["early"])
    }
}
