import ClosetDomain

/// `edit style <ref>`: rename, change season, fill or empty slots (`top=none`).
enum EditStyle {
    static let spec = CommandSpec(
        path: ["edit", "style"],
        summary: "change a style's name, season or slots",
        parameters: [WardrobePack.styleReferenceParameter],
        keys: [
            KeySpec("name", .text, "what to call it (\"\" to clear)"),
            KeySpec("season", .season, "when to wear it"),
        ] + ClothesCategory.allCases.map {
            KeySpec($0.englishName, .clothesRef(slot: $0, allowsNone: true), "the \($0.englishName) (\($0.korean)) slot, or none")
        } + [KeySpec("clothes", .clothesRefs, "clothes to put into their own category's slot")],
        examples: ["edit style 9C1E name=\"rainy day\" shoes=$boots", "edit style @1 accessory=none"],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let session = invocation.session
        let existing = try invocation.styleParameter()
        if invocation.arguments.isEmpty {
            throw Diagnostic("nothing to change: give name=, season= or a slot", at: invocation.call.range)
        }
        let season = invocation.season("season") ?? existing.weather
        let viewModel = StyleDetailViewModel(style: existing, repository: session.store) { _ in existing }
        StyleSlots.apply(invocation, to: viewModel, weather: season)
        let name = invocation.text("name") ?? existing.name
        switch try viewModel.save(name: name, weather: season) {
        case .saved(let style): return .style(style)
        case .nothingToSave: return .style(existing)
        }
    }
}
