import ClosetCore
import Foundation

/// The app's `Style`: a named outfit holding at most one clothes per category.
/// (The app's `collageImage` was never assigned; closet has no collage.)
public struct Style: Hashable, Sendable, Identifiable {
    public let id: UUID
    public let createdAt: Date
    public var clothes: [ClothesCategory: Clothes]
    public var weather: WeatherType
    public var name: String?

    public init(
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
    public var orderedClothes: [Clothes] {
        ClothesCategory.allCases.compactMap { clothes[$0] }
    }
}
