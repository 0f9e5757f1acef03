import ClosetCore
import Foundation

/// The app's `ClothesViewModel` without Combine: `searchFilters` is a plain property, a refresh
/// is a call. Filters apply as in the app: per category, in the order given, exact season match,
/// category keys kept when their array empties. A failed fetch is remembered in `lastError` and
/// the next refresh tries again (the app's chain died after one failure: a quirk not copied).
package final class ClothesViewModel {
    private let repository: ClothesRepository
    /// The repository's clothes, fetched again when it has changed since (on first use after
    /// a change, not at the change: a script removing 1,000 clothes fetches nothing between).
    package var clothesList: ClothesList {
        refresh()
        return fetched.value
    }
    private var fetched = RevisionedFetch(ClothesList(clothesByCategory: [:]))
    package var lastError: RepositoryError? { fetched.lastError }
    /// The app's default: newest first.
    package var searchFilters: FilterItems = [.sort(.new)]

    package init(repository: ClothesRepository, fetchNow: Bool = true) {
        self.repository = repository
        if fetchNow { refresh() }
    }

    /// The app's `clothesListDidUpdate`. Skipped when the repository has not changed since
    /// the last fetch (each statement refreshes; a wardrobe of 100,000 need not be copied
    /// twice for two queries).
    package func refresh() {
        let repository = repository
        fetched.refresh(revision: repository.revision) { () throws(RepositoryError) in
            try repository.fetchClothesList()
        }
    }

    /// The app's `deleteClothes`: remove, then refresh (lazily: `clothesList` fetches again
    /// when next read).
    package func delete(clothes: Clothes) throws(RepositoryError) {
        try repository.remove(clothes: clothes)
    }

    package var filteredClothesList: ClothesList {
        Self.applyFilters(to: clothesList, filters: searchFilters)
    }

    /// `filteredClothes` for a command: answered from the store's index when the filters allow
    /// (a sort, with or without a limit; search text read from the stored rows first), so
    /// nothing else is fetched and nothing sorted; else fetched and filtered.
    package func queryClothes() throws(RepositoryError) -> [Clothes] { Array(try queryClothesRows()) }

    /// `queryClothes()` read when asked for: the store's index keeps where each row lies when
    /// the filters allow (a sort), so a listing of a whole wardrobe never holds its clothes;
    /// else the fetched and filtered list.
    package func queryClothesRows() throws(RepositoryError) -> ClothesRows {
        let plan = FilterPlan(searchFilters)
        if let sort = plan.sort,
            let rows = repository.indexedClothesRows(
                categories: plan.categories, seasons: plan.seasons, searches: plan.searches, sort: sort,
                limit: plan.limit ?? .max)
        {
            return rows
        }
        refresh()
        if let lastError { throw lastError }
        return ClothesRows(filteredClothes)
    }

    /// `queryClothes()` one at a time: walked in the store's index order when the filters allow
    /// (a sort), so a whole wardrobe is never one array (an export); else the fetched and
    /// filtered list.
    package func forEachQueriedClothes(_ visit: (Clothes) throws -> Void) throws {
        let plan = FilterPlan(searchFilters)
        if let sort = plan.sort,
            try repository.forEachIndexedClothes(
                categories: plan.categories, seasons: plan.seasons, searches: plan.searches, sort: sort,
                limit: plan.limit ?? .max, visit)
        {
            return
        }
        for clothes in try queryClothes() { try visit(clothes) }
    }

    /// `filteredClothes.count`, counted from the store's index when there is no search text, from
    /// the stored rows' bytes when there is, else without sorting what it counts.
    package func queryCount() throws(RepositoryError) -> Int {
        let plan = FilterPlan(searchFilters)
        var count: Int
        if let indexed = repository.indexedClothesCount(
            categories: plan.categories, seasons: plan.seasons, searches: plan.searches)
        {
            count = indexed
        } else {
            refresh()
            if let lastError { throw lastError }
            count = 0
            for clothes in clothesList.clothesByCategory.values.joined() where plan.keeps(clothes) { count += 1 }
        }
        if let limit = plan.limit { count = min(count, max(0, limit)) }
        return count
    }

    /// The filtered list flattened in category display order, then cut by any `limit`.
    package var filteredClothes: [Clothes] {
        let rows = filteredClothesList.flattened
        var limit: Int?
        for case .limit(let count) in searchFilters { limit = min(limit ?? count, count) }
        guard let limit else { return rows }
        return Array(rows.prefix(max(0, limit)))
    }

    /// Unfiltered clothes of one category (the style screen's picker).
    package func clothes(of category: ClothesCategory) -> [Clothes] {
        clothesList.clothesByCategory[category] ?? []
    }

    /// The app's `applyFilters`: per category, the filters in order. Computed as "keep what
    /// passes every filter, then sort by the last sort", which gives the same result for any
    /// order of filters: each filter keeps or drops a clothes on its own, and every sort
    /// orders by `createdAt` with equal instants by the order the clothes were added (the
    /// later-added first when newest first), which the list holds; so only the last sort
    /// shows. (The unit tests check this against the one-by-one reduction.) Sorting once,
    /// and only what survived, is what makes a 100,000-row wardrobe answer quickly.
    package static func applyFilters(to list: ClothesList, filters: FilterItems) -> ClothesList {
        let plan = FilterPlan(filters)
        let filtering = plan.categories != 0xFF || plan.seasons != 0xFF || !plan.searches.isEmpty
        return ClothesList(
            clothesByCategory: list.clothesByCategory.mapValues { clothes in
                let kept = filtering ? clothes.filter(plan.keeps) : clothes
                return plan.sort.map { kept.sorted(by: $0) } ?? kept
            })
    }
}

/// What a list of filters comes to: successive category and season filters intersect, so
/// each folds into one bit mask (bit = raw value); searches all apply; the last sort and the
/// smallest limit win.
struct FilterPlan {
    var categories: UInt8 = 0xFF
    var seasons: UInt8 = 0xFF
    var searches: [TextSearch] = []
    var sort: SortBy?
    var limit: Int?

    init(_ filters: FilterItems) {
        func mask<S: Sequence>(_ values: S) -> UInt8 where S.Element: RawRepresentable, S.Element.RawValue == Int {
            values.reduce(0) { $0 | 1 << UInt8($1.rawValue) }
        }
        for filter in filters {
            switch filter {
            case .sort(let sort): self.sort = sort
            case .weather(let weather): seasons &= mask([weather])
            case .clothes(let category): categories &= mask([category])
            case .categories(let set): categories &= mask(set)
            case .weathers(let set): seasons &= mask(set)
            case .search(let text): if !text.isEmpty { searches.append(TextSearch(text)) }
            case .limit(let count): limit = min(limit ?? count, count)  // applied to the whole result
            }
        }
    }

    func keeps(_ item: Clothes) -> Bool {
        categories & (1 << UInt8(item.category.rawValue)) != 0
            && seasons & (1 << UInt8(item.weatherType.rawValue)) != 0
            && searches.allSatisfy { $0.matches(item.descriptions) }
    }
}
