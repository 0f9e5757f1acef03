import ClosetCore
import Foundation

/// The app's `StyleDetailViewModel`: a style is built slot by slot. `update` puts clothes into
/// its own category's slot (replacing what was there), `removeClothes(of:)` empties a slot.
package final class StyleDetailViewModel {
    private let repository: StyleRepository
    private let makeStyle: (WeatherType) -> Style
    package private(set) var styleToEdit: Style?

    /// What `save` did. The app returned silently when there was nothing to save; closet
    /// reports it so the user is told.
    package enum SaveResult: Equatable, Sendable {
        case saved(Style)
        case nothingToSave
    }

    /// `makeStyle` mints the new, empty style the first `update` creates (its id and time).
    package init(style: Style?, repository: StyleRepository, makeStyle: @escaping (WeatherType) -> Style) {
        self.styleToEdit = style
        self.repository = repository
        self.makeStyle = makeStyle
    }

    package func update(clothes: Clothes, weather: WeatherType) {
        var style = styleToEdit ?? makeStyle(weather)
        style.clothes[clothes.category] = clothes
        styleToEdit = style
    }

    package func removeClothes(of category: ClothesCategory) {
        styleToEdit?.clothes.removeValue(forKey: category)
    }

    /// Sets name and weather, then saves. An empty name is stored as no name.
    package func save(name: String?, weather: WeatherType) throws(RepositoryError) -> SaveResult {
        guard var style = styleToEdit else { return .nothingToSave }
        style.name = (name?.isEmpty ?? true) ? nil : name
        style.weather = weather
        styleToEdit = style
        try repository.save(style: style)
        return .saved(style)
    }
}
