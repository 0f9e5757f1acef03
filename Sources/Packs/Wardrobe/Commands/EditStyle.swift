import ClosetCore
import ClosetLanguage
import Foundation

/// `edit style <ref>`: rename, change season, fill or empty slots (`top=none`).
enum EditStyle {
    static let spec = CommandSpec(
        path: ["edit", "style"],
        summary: "change a style's name, season or slots",
        parameters: [Wardrobe.styleReferenceParameter],
        keys: WardrobeRecords.style.keys(.edit)
            + ClothesCategory.allCases.map {
                KeySpec(
                    $0.englishName, Wardrobe.clothesReference(slot: $0, allowsNone: true),
                    "the \($0.englishName) (\($0.korean)) slot, or none")
            } + [KeySpec("clothes", Wardrobe.clothesList, "clothes to put into their own category's slot")],
        examples: ["edit style 9C1E name=\"rainy day\" shoes=$boots", "edit style @1 accessory=none"],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(WardrobeState.self)
        let existing = try state.style(invocation.referenceParameter())
        if invocation.arguments.isEmpty {
            throw Diagnostic.nothingToChange(give: "name=, season= or a slot", at: invocation.call.range)
        }
        let season = invocation.value(WeatherType.self, "season") ?? existing.weather
        let viewModel = StyleDetailViewModel(style: existing, repository: state.store) { _ in existing }
        try StyleSlots.apply(invocation, state, to: viewModel, weather: season)
        // As `add style` refuses a style with no clothes, an edit may not empty the last slot.
        if viewModel.styleToEdit?.clothes.isEmpty ?? true {
            throw Diagnostic.styleNeedsClothes(at: invocation.call.range)
        }
        let name = invocation.text("name") ?? existing.name
        switch try viewModel.save(name: name, weather: season) {
        case .saved(let style): return Wardrobe.outcome(style)
        case .nothingToSave: return Wardrobe.outcome(existing)
        }
    }
}
