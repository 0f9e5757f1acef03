import ClosetCore

/// One item of the app's filter screen (`ClothesFilterController.Item`), plus the two
/// filters the command language adds: a description search and a row limit.
package enum FilterItem: Hashable, Sendable {
    case sort(SortBy)
    case weather(WeatherType)
    case clothes(ClothesCategory)
    /// closet: several categories or seasons at once keep the union.
    case categories(Set<ClothesCategory>)
    case weathers(Set<WeatherType>)
    /// closet: case-insensitive substring of the description.
    case search(String)
    /// closet: keep the first N rows of the whole result (applied after grouping).
    case limit(Int)

    /// The app's label for the item: the Korean name of its payload.
    package var description: String {
        switch self {
        case .sort(let sort): sort.korean
        case .weather(let weather): weather.korean
        case .clothes(let category): category.korean
        case .categories(let set): set.sorted().map(\.korean).joined(separator: ", ")
        case .weathers(let set): set.sorted { $0.rawValue < $1.rawValue }.map(\.korean).joined(separator: ", ")
        case .search(let text): text
        case .limit(let count): String(count)
        }
    }
}

/// The app's `FilterItems`.
package typealias FilterItems = [FilterItem]
