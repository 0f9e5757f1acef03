import Foundation

/// The app's `ClothesViewModel` without Combine: `searchFilters` is a plain property, a refresh
/// is a call. Filters apply as in the app: per category, in the order given, exact season match,
/// category keys kept when their array empties. A failed fetch is remembered in `lastError` and
/// the next refresh tries again (the app's chain died after one failure: a quirk not copied).
public final class ClothesViewModel {
    private let repository: ClothesRepository
    public private(set) var clothesList = ClothesList(clothesByCategory: [:])
    public private(set) var lastError: RepositoryError?
    /// The app's default: newest first.
    public var searchFilters: FilterItems = [.sort(.new)]

    public init(repository: ClothesRepository, fetchNow: Bool = true) {
        self.repository = repository
        if fetchNow { refresh() }
    }

    /// The app's `clothesListDidUpdate`.
    public func refresh() {
        do {
            clothesList = try repository.fetchClothesList()
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// The app's `deleteClothes`: remove, then refresh.
    public func delete(clothes: Clothes) throws(RepositoryError) {
        try repository.remove(clothes: clothes)
        refresh()
    }

    public var filteredClothesList: ClothesList {
        Self.applyFilters(to: clothesList, filters: searchFilters)
    }

    /// The filtered list flattened in category display order, then cut by any `limit`.
    public var filteredClothes: [Clothes] {
        let rows = filteredClothesList.flattened
        var limit: Int?
        for case .limit(let count) in searchFilters { limit = min(limit ?? count, count) }
        guard let limit else { return rows }
        return Array(rows.prefix(max(0, limit)))
    }

    /// Unfiltered clothes of one category (the style screen's picker).
    public func clothes(of category: ClothesCategory) -> [Clothes] {
        clothesList.clothesByCategory[category] ?? []
    }

    public static func applyFilters(to list: ClothesList, filters: FilterItems) -> ClothesList {
        ClothesList(clothesByCategory: list.clothesByCategory.mapValues { clothes in
            filters.reduce(clothes) { apply($1, to: $0) }
        })
    }

    private static func apply(_ filter: FilterItem, to clothes: [Clothes]) -> [Clothes] {
        switch filter {
        case .sort(let sort):
            return clothes.sorted(by: sort)
        case .weather(let weather):
            return clothes.filter { $0.weatherType == weather }
        case .clothes(let category):
            return clothes.filter { $0.category == category }
        case .categories(let categories):
            return clothes.filter { categories.contains($0.category) }
        case .weathers(let weathers):
            return clothes.filter { weathers.contains($0.weatherType) }
        case .search(let text):
            guard !text.isEmpty else { return clothes }
            return clothes.filter { $0.descriptions.range(of: text, options: .caseInsensitive) != nil }
        case .limit:
            return clothes  // applied to the whole result, not per category
        }
    }
}
