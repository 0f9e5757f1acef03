import ClosetCore
import Foundation

/// The app's `ClothesDetailViewModel`, with the validation its view controller did
/// (`clothesFromUserInput`) moved here so every front end shares it.
package final class ClothesDetailViewModel {
    private let repository: ClothesRepository
    package private(set) var clothes: Clothes?

    /// What the add/edit screen collects. `nil` means "not chosen".
    package struct Input: Sendable {
        package var category: ClothesCategory?
        package var weatherType: WeatherType?
        package var descriptions: String?
        package var image: ImageInfo?

        package init(
            category: ClothesCategory? = nil, weatherType: WeatherType? = nil,
            descriptions: String? = nil, image: ImageInfo? = nil
        ) {
            self.category = category
            self.weatherType = weatherType
            self.descriptions = descriptions
            self.image = image
        }
    }

    /// The screen's required-field messages, verbatim from the app.
    package enum ValidationError: Error, Equatable, Sendable {
        case missingCategory
        case missingWeather

        package var message: String {
            switch self {
            case .missingCategory: "카테고리는 필수 항목입니다."
            case .missingWeather: "계절은 필수 항목입니다."
            }
        }
    }

    package init(clothes: Clothes?, repository: ClothesRepository) {
        self.clothes = clothes
        self.repository = repository
    }

    /// Builds the clothes to save. On edit, `id` and `createdAt` come from the existing
    /// clothes and unset fields keep their value; on add, the category and season are
    /// required and a missing description becomes "". (The app also required a photo;
    /// SPEC §4 makes it optional.)
    package func clothesFromInput(
        _ input: Input, newID: () -> UUID, now: () -> Date
    ) throws(ValidationError) -> Clothes {
        if var existing = clothes {
            if let category = input.category { existing.category = category }
            if let weather = input.weatherType { existing.weatherType = weather }
            if let text = input.descriptions { existing.descriptions = text }
            if let image = input.image { existing.image = image }
            return existing
        }
        guard let category = input.category else { throw .missingCategory }
        guard let weather = input.weatherType else { throw .missingWeather }
        return Clothes(
            id: newID(), createdAt: now(), image: input.image, category: category,
            weatherType: weather, descriptions: input.descriptions ?? "")
    }

    /// The app's `save(clothes:)`: remembers the clothes, then saves it. The app's
    /// `didSuccessToSave`/`didFailToSave(message)` become the returned result.
    package func save(clothes: Clothes) throws(RepositoryError) {
        self.clothes = clothes
        try repository.save(clothes: clothes)
    }
}
