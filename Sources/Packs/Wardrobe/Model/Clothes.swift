import ClosetCore
import Foundation

/// The app's `Clothes`. `descriptions` keeps the app's plural name; users see "description".
package struct Clothes: Hashable, Sendable, Identifiable {
    package let id: UUID
    package let createdAt: Date
    package var image: ImageInfo?
    package var category: ClothesCategory
    package var weatherType: WeatherType
    package var descriptions: String

    package init(
        id: UUID = UUID(), createdAt: Date = Date(), image: ImageInfo? = nil,
        category: ClothesCategory, weatherType: WeatherType, descriptions: String = ""
    ) {
        self.id = id
        self.createdAt = createdAt
        self.image = image
        self.category = category
        self.weatherType = weatherType
        self.descriptions = descriptions
    }
}

extension Array where Element == Clothes {
    /// Keys by category; when two clothes share a category the last one wins (as in the app).
    package func toClothesDictionary() -> [ClothesCategory: Clothes] {
        var result: [ClothesCategory: Clothes] = [:]
        for clothes in self { result[clothes.category] = clothes }
        return result
    }

    /// Groups by category keeping input order inside each group; empty categories are absent.
    package func toClothesList() -> ClothesList {
        var groups: [ClothesCategory: [Clothes]] = [:]
        for clothes in self { groups[clothes.category, default: []].append(clothes) }
        return ClothesList(clothesByCategory: groups)
    }
}
