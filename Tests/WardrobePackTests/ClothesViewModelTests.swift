import ClosetCore
import Foundation
import TestSupport
import Testing
import WardrobePack

/// The app's `ClothesViewModelTests` (reference §1.7), plus the behaviours the reference
/// names for `applyFilters`.
@Suite struct ClothesViewModelTests {
    let mocks = MockWardrobe()

    func makeViewModel() throws -> ClothesViewModel {
        let store = MemoryWardrobe()
        for clothes in mocks.allClothes { try store.save(clothes: clothes) }
        return ClothesViewModel(repository: store)
    }

    @Test func clothesOfCategoryEmitsOnlyThatCategory() throws {
        let viewModel = try makeViewModel()
        let accessories = viewModel.clothes(of: .accessory)
        #expect(accessories.count == 2)
        #expect(accessories.allSatisfy { $0.category == .accessory })
    }

    @Test func newestFilterSortsEachCategoryByCreationDescending() throws {
        let viewModel = try makeViewModel()
        viewModel.searchFilters = [.sort(.new)]
        for (_, clothes) in viewModel.filteredClothesList.clothesByCategory {
            #expect(clothes == clothes.sorted { $0.createdAt > $1.createdAt })
        }
        #expect(
            viewModel.filteredClothesList.clothesByCategory[.top]?.map(\.descriptions) == [
                "shirt1", "tshirt2", "tshirt1",
            ])
    }

    @Test func seasonFilterIsAnExactMatch() throws {
        let viewModel = try makeViewModel()
        viewModel.searchFilters = [.weather(.fall)]
        let list = viewModel.filteredClothesList
        for (_, clothes) in list.clothesByCategory { #expect(clothes.allSatisfy { $0.weatherType == .fall }) }
        // All mock clothes are all-season, so fall leaves every category empty, keys kept.
        #expect(list.clothesByCategory.count == 5)
        #expect(list.flattened.isEmpty)
    }

    @Test func defaultFilterIsNewestFirst() throws {
        #expect(try makeViewModel().searchFilters == [.sort(.new)])
    }

    @Test func emptyFiltersNeitherSortNorFilter() throws {
        let viewModel = try makeViewModel()
        viewModel.searchFilters = []
        #expect(
            viewModel.filteredClothesList.clothesByCategory[.top]?.map(\.descriptions) == [
                "tshirt1", "tshirt2", "shirt1",
            ])
    }

    @Test func categoryFilterEmptiesOtherCategoriesButKeepsTheirKeys() throws {
        let viewModel = try makeViewModel()
        viewModel.searchFilters = [.clothes(.shoes)]
        let list = viewModel.filteredClothesList
        #expect(list.clothesByCategory[.top] == [])
        #expect(list.flattened.map(\.descriptions) == ["shoes1"])
    }

    @Test func filtersApplyInOrderAndLimitCutsTheWholeResult() throws {
        let viewModel = try makeViewModel()
        viewModel.searchFilters = [.sort(.old), .search("PANTS"), .limit(2)]
        #expect(viewModel.filteredClothes.map(\.descriptions) == ["pants1", "pants2"])
    }

    @Test func emptyClosetIsAnEmptyListNotAFailure() {
        let viewModel = ClothesViewModel(repository: MemoryWardrobe())
        #expect(viewModel.lastError == nil)
        #expect(viewModel.filteredClothes.isEmpty)
    }

    @Test func deleteRemovesAndRefreshes() throws {
        let viewModel = try makeViewModel()
        try viewModel.delete(clothes: mocks.top1)
        #expect(viewModel.clothes(of: .top).map(\.descriptions) == ["tshirt2", "shirt1"])
    }
}

@Suite struct ModelTests {
    @Test func clothesDictionaryLastOneWins() {
        let mocks = MockWardrobe()
        let dictionary = [mocks.top1, mocks.top2, mocks.bottom1].toClothesDictionary()
        #expect(dictionary[.top] == mocks.top2)
        #expect(dictionary.count == 2)
    }

    @Test func clothesListGroupsKeepingOrderAndOmitsEmptyCategories() {
        let mocks = MockWardrobe()
        let list = [mocks.top2, mocks.bottom1, mocks.top1].toClothesList()
        #expect(list.clothesByCategory[.top] == [mocks.top2, mocks.top1])
        #expect(list.clothesByCategory[.shoes] == nil)
    }

    @Test func mockListMatchesTheApp() {
        let mocks = MockWardrobe()
        #expect(mocks.clothesList.flattened.count == 10)
        #expect(mocks.allClothes.allSatisfy { $0.weatherType == .allWeather })
        #expect(mocks.styles.map(\.name) == ["가을용 옷", "겨울용 옷", "봄용 옷", "여름용 옷", "봄용 옷 2"])
        #expect(mocks.styles[0].clothes.count == 5)
    }

    @Test func vocabulariesParseEnglishKoreanAndAliases() {
        #expect(ClothesCategory.named("TOP") == .top)
        #expect(ClothesCategory.named("악세사리") == .accessory)
        #expect(ClothesCategory.named("액세서리") == .accessory)
        #expect(WeatherType.named("autumn") == .fall)
        #expect(WeatherType.named("allweather") == .allWeather)
        #expect(WeatherType.named("사계절") == .allWeather)
        #expect(SortBy.named("오래된순") == .old)
        #expect(ClothesCategory.named("hat") == nil)
    }

    @Test func filterItemDescriptionIsKorean() {
        #expect(FilterItem.sort(.new).description == "최신순")
        #expect(FilterItem.weather(.winter).description == "겨울")
        #expect(FilterItem.clothes(.outer).description == "외투")
    }

    @Test func repositoryErrorsCarryTheAppsMessages() {
        #expect(RepositoryError.failToSave.errorDescription == "저장에 실패했습니다.")
        #expect(RepositoryError.invalidData.errorDescription == "데이터가 잘못되었습니다.")
    }

    @Test func seededIDsAreReproducibleAndVersion4() {
        let a = SeededIDGenerator(seed: 7)
        let b = SeededIDGenerator(seed: 7)
        let ids = (0..<5).map { _ in a.next() }
        #expect(ids == (0..<5).map { _ in b.next() })
        #expect(Set(ids).count == 5)
        #expect(ids.allSatisfy { $0.uuidString.dropFirst(14).first == "4" })
        #expect(SeededIDGenerator(seed: 8).next() != ids[0])
    }

    @Test func steppingClockAdvancesOneSecondPerTimestamp() {
        let clock = SteppingClock()
        #expect(clock.now() == Date(timeIntervalSince1970: 1_704_067_200))
        #expect(clock.now() == Date(timeIntervalSince1970: 1_704_067_201))
    }
}

/// `applyFilters` computes "filter, then sort by the last sort"; the app applied the filters
/// one by one. This checks the two agree on random wardrobes and random filter lists.
@Suite struct FilterEquivalenceTests {
    /// The app's own definition: reduce over the filters in order. Equal instants go by the
    /// order the clothes were added: the later-added first when newest first (issue 10), the
    /// earlier-added first when oldest first.
    static func oneByOne(_ list: ClothesList, _ filters: FilterItems) -> ClothesList {
        ClothesList(
            clothesByCategory: list.clothesByCategory.mapValues { clothes in
                let added = Dictionary(uniqueKeysWithValues: clothes.enumerated().map { ($0.element.id, $0.offset) })
                return filters.reduce(clothes) { current, filter in
                    switch filter {
                    case .sort(let sort):
                        return current.sorted { lhs, rhs in
                            if lhs.createdAt != rhs.createdAt {
                                return sort == .new ? lhs.createdAt > rhs.createdAt : lhs.createdAt < rhs.createdAt
                            }
                            return sort == .new ? added[lhs.id]! > added[rhs.id]! : added[lhs.id]! < added[rhs.id]!
                        }
                    case .weather(let weather): return current.filter { $0.weatherType == weather }
                    case .clothes(let category): return current.filter { $0.category == category }
                    case .categories(let set): return current.filter { set.contains($0.category) }
                    case .weathers(let set): return current.filter { set.contains($0.weatherType) }
                    case .search(let text):
                        return text.isEmpty
                            ? current
                            : current.filter { $0.descriptions.range(of: text, options: .caseInsensitive) != nil }
                    case .limit: return current
                    }
                }
            })
    }

    @Test func agreesWithTheOneByOneReduction() {
        var generator = SeededRandom(seed: 11)
        for _ in 0..<300 {
            let clothes = (0..<Int.random(in: 0...40, using: &generator)).map { index in
                Clothes(
                    createdAt: Date(timeIntervalSince1970: Double(Int.random(in: 0...6, using: &generator))),
                    category: ClothesCategory.allCases.randomElement(using: &generator)!,
                    weatherType: WeatherType.allCases.randomElement(using: &generator)!,
                    descriptions: ["knit", "KNIT vest", "jeans", "니트", ""].randomElement(using: &generator)!
                        + "\(index)")
            }
            let choices: [FilterItem] = [
                .sort(.new), .sort(.old), .weather(.fall), .weather(.allWeather), .clothes(.top),
                .categories([.top, .bottom]), .weathers([.fall, .winter]), .search("knit"), .search("니"), .limit(3),
            ]
            let filters = (0..<Int.random(in: 0...4, using: &generator)).map { _ in
                choices.randomElement(using: &generator)!
            }
            let list = clothes.toClothesList()
            #expect(
                ClothesViewModel.applyFilters(to: list, filters: filters) == Self.oneByOne(list, filters), "\(filters)")
        }
    }
}
