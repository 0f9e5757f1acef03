import ClosetCore
import ClosetLanguage
import Foundation

/// `add clothes`: the app's add screen. Category and season are required (the app's own
/// messages); the id and time come from the session's generators unless `created=` pins it.
enum AddClothes {
    static let spec = CommandSpec(
        path: ["add", "clothes"],
        summary: "add clothes to the wardrobe",
        keys: WardrobeRecords.clothes.keys(.add) + WardrobeRecords.clothes.keys(.restoring),
        examples: [
            "add clothes category=top season=fall description=\"navy knit\"",
            "add clothes category=하의 season=겨울 description=\"기모 청바지\" created=2024-11-02",
            "add clothes category=shoes season=fall image=photos/boots.jpg",
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(WardrobeState.self)
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: state.store)
        let picture = try ImageArgument.read(invocation)
        let input = ClothesDetailViewModel.Input(
            category: invocation.value(ClothesCategory.self, "category"),
            weatherType: invocation.value(WeatherType.self, "season"),
            descriptions: invocation.text("description"), image: picture?.info)
        let created = invocation.date("created")
        let pinned = try NewID.check(invocation, exists: { state.store.clothes(withID: $0) != nil })
        let clothes: Clothes
        do {
            clothes = try viewModel.clothesFromInput(
                input, newID: { pinned ?? invocation.newID(unless: state.store.containsClothes) },
                now: { created ?? invocation.clock.now() })
        } catch {
            // The binder refuses a statement without them; the app's own check agrees.
            let key = spec.keys[error == .missingCategory ? 0 : 1]
            throw Diagnostic.missingKey(key, command: spec.name, at: invocation.call.range)
        }
        if let picture {
            try state.store.storeImage(picture.bytes, picture.info, for: clothes.id)
        }
        try viewModel.save(clothes: clothes)
        return Wardrobe.outcome(clothes)
    }
}
