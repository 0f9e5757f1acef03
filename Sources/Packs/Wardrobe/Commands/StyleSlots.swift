import ClosetCore
import ClosetLanguage
import Foundation

/// Slot arguments shared by `add style` and `edit style`, applied in the order written.
enum StyleSlots {
    static func apply(
        _ invocation: Invocation, _ state: WardrobeState, to viewModel: StyleDetailViewModel, weather: WeatherType
    ) throws(Diagnostic) {
        for argument in invocation.arguments {
            switch argument.value {
            case .references(_, let keys):
                for key in keys { viewModel.update(clothes: try state.clothes(key), weather: weather) }
            case .none:
                if let category = ClothesCategory.named(argument.key) { viewModel.removeClothes(of: category) }
            case .text, .terms, .count, .size, .date, .path, .id:
                break
            }
        }
    }
}
