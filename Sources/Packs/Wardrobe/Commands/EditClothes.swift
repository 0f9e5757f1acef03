import ClosetCore
import ClosetLanguage
import Foundation

/// `edit clothes <ref>`: the detail screen's edit mode; id and creation time are kept.
/// Changing the category of clothes that sits in a style's slot is refused: the slot would
/// then hold the wrong kind of clothes.
enum EditClothes {
    static let spec = CommandSpec(
        path: ["edit", "clothes"],
        summary: "change a clothes' category, season or description",
        parameters: [Wardrobe.clothesReferenceParameter],
        keys: WardrobeRecords.clothes.keys(.edit),
        examples: [
            "edit clothes 3F2A season=winter", "edit clothes @2 description=\"wool, navy\"",
            "edit clothes @1 image=photos/knit.jpg", "edit clothes @1 image=none",
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(WardrobeState.self)
        let existing = try state.clothes(invocation.referenceParameter())
        if invocation.arguments.isEmpty {
            throw invocation.nothingToChange()
        }
        let viewModel = ClothesDetailViewModel(clothes: existing, repository: state.store)
        let input = ClothesDetailViewModel.Input(
            category: invocation.value(ClothesCategory.self, "category"),
            weatherType: invocation.value(WeatherType.self, "season"),
            descriptions: invocation.text("description"))
        var edited = try viewModel.clothesFromInput(input, newID: invocation.ids.next, now: invocation.clock.now)
        switch try ImageArgument.change(invocation) {
        case .set(let bytes, let info)?:
            try state.store.storeImage(bytes, info, for: edited.id)
            edited.image = info
        case .remove?:
            edited.image = nil
        case nil:
            break
        }
        if edited.category != existing.category {
            let holders = try state.store.fetchStyles().filter { $0.clothes[existing.category]?.id == existing.id }
            if let style = holders.first {
                let name = style.name.map { "'\($0)'" } ?? EntityKey.uuid(style.id).short
                throw Diagnostic.slotHoldsClothes(
                    category: existing.category, styleName: name, styleID: EntityKey.uuid(style.id).short,
                    at: invocation.argument("category")?.range)
            }
        }
        try viewModel.save(clothes: edited)
        return Wardrobe.outcome(edited)
    }
}
