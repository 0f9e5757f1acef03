import ClosetCore
import Foundation

/// How a style is kept: its clothes by id, so an edit to a clothes shows in every style
/// holding it and a removed clothes can leave its slots.
package struct StyleRecord: Hashable, Sendable {
    package let id: UUID
    package let createdAt: Date
    package var name: String?
    package var weather: WeatherType
    package var clothesIDs: [ClothesCategory: UUID]

    package init(id: UUID, createdAt: Date, name: String?, weather: WeatherType, clothesIDs: [ClothesCategory: UUID]) {
        self.id = id
        self.createdAt = createdAt
        self.name = name
        self.weather = weather
        self.clothesIDs = clothesIDs
    }

    package init(_ style: Style) {
        id = style.id
        createdAt = style.createdAt
        name = style.name
        weather = style.weather
        clothesIDs = style.clothes.mapValues(\.id)
    }

    package func style(resolving clothes: (UUID) -> Clothes?) -> Style {
        var slots: [ClothesCategory: Clothes] = [:]
        for (category, id) in clothesIDs { slots[category] = clothes(id) }
        return Style(uuid: id, createdAt: createdAt, clothes: slots, weather: weather, name: name)
    }
}
