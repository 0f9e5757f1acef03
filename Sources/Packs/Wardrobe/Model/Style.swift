import ClosetCore
import Foundation

/// The app's `Style`: a named outfit holding at most one clothes per category.
/// (The app's `collageImage` was never assigned; closet has no collage.)
package struct Style: Hashable, Sendable, Identifiable {
    package let id: UUID
    package let createdAt: Date
    package var clothes: [ClothesCategory: Clothes]
    package var weather: WeatherType
    package var name: String?

    package init(
        uuid: UUID = UUID(), createdAt: Date = Date(), clothes: [ClothesCategory: Clothes],
        weather: WeatherType, name: String? = nil
    ) {
        self.id = uuid
        self.createdAt = createdAt
        self.clothes = clothes
        self.weather = weather
        self.name = name
    }

    /// The clothes in category display order.
    var orderedClothes: [Clothes] {
        ClothesCategory.allCases.compactMap { clothes[$0] }
    }
}
