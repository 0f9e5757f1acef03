import ClosetCore
import ClosetLanguage
import Foundation

/// `add style`: the app's style screen. Slots fill in the order written; `clothes=` puts each
/// into its own category's slot, a later one replacing an earlier one (as the app does).
enum AddStyle {
    static let spec = CommandSpec(
        path: ["add", "style"],
        summary: "add a style: at most one clothes per category",
        // The slots are keys of their own: a style holds its clothes by category, no field of it.
        keys: WardrobeRecords.style.keys(.add) + Wardrobe.slotKeys
            + [KeySpec("clothes", Wardrobe.clothesList, "clothes to put into their own category's slot")]
            + WardrobeRecords.style.keys(.restoring),
        notes: ["A style needs at least one clothes."],
        examples: [
            "add style name=\"가을용 옷\" season=fall top=$knit bottom=$jeans",
            "add style clothes=@1,@4,@7",
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(WardrobeState.self)
        let season = invocation.value(WeatherType.self, "season") ?? .allWeather
        let created = invocation.date("created")
        let pinned = try NewID.check(invocation, exists: { state.store.style(withID: $0) != nil })
        let viewModel = StyleDetailViewModel(style: nil, repository: state.store) { weather in
            Style(
                uuid: pinned ?? invocation.newID { state.store.style(withID: $0) != nil },
                createdAt: created ?? invocation.clock.now(), clothes: [:], weather: weather)
        }
        try StyleSlots.apply(invocation, state, to: viewModel, weather: season)
        switch try viewModel.save(name: invocation.text("name"), weather: season) {
        case .saved(let style):
            return Wardrobe.outcome(style)
        case .nothingToSave:
            throw Diagnostic.styleNeedsClothes(at: invocation.call.range)
        }
    }
}
