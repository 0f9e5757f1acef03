import ClosetDomain

/// `edit clothes <ref>`: the detail screen's edit mode; id and creation time are kept.
/// Changing the category of clothes that sits in a style's slot is refused: the slot would
/// then hold the wrong kind of clothes.
enum EditClothes {
    static let spec = CommandSpec(
        path: ["edit", "clothes"],
        summary: "change a clothes' category, season or description",
        parameters: [WardrobePack.clothesReferenceParameter],
        keys: [
            KeySpec("category", .category, "what kind of clothes"),
            KeySpec("season", .season, "when to wear it"),
            KeySpec("description", .text, "free text (\"\" to clear)"),
            KeySpec("image", .path(allowsNone: true), "a PNG or JPEG file, or none to remove the picture"),
        ],
        examples: [
            "edit clothes 3F2A season=winter", "edit clothes @2 description=\"wool, navy\"",
            "edit clothes @1 image=photos/knit.jpg", "edit clothes @1 image=none",
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let session = invocation.session
        let existing = try invocation.clothesParameter()
        if invocation.arguments.isEmpty {
            throw Diagnostic(
                "nothing to change: give category=, season=, description= or image=", at: invocation.call.range)
        }
        let viewModel = ClothesDetailViewModel(clothes: existing, repository: session.store)
        let input = ClothesDetailViewModel.Input(
            category: invocation.category("category"), weatherType: invocation.season("season"),
            descriptions: invocation.text("description"))
        var edited = try viewModel.clothesFromInput(input, newID: session.ids.next, now: session.clock.now)
        switch try ImageArgument.change(invocation) {
        case .set(let bytes, let info)?:
            try session.store.storeImage(bytes, info, for: edited.id)
            edited.image = info
        case .remove?:
            edited.image = nil
        case nil:
            break
        }
        if edited.category != existing.category {
            let holders = try session.store.fetchStyles().filter { $0.clothes[existing.category]?.id == existing.id }
            if let style = holders.first {
                let name = style.name.map { "'\($0)'" } ?? GridBuilder.shortID(style.id)
                throw Diagnostic(
                    "this clothes is the \(existing.category.englishName) of style \(name); empty that slot first (edit style \(GridBuilder.shortID(style.id)) \(existing.category.englishName)=none)",
                    at: invocation.argument("category")?.range)
            }
        }
        try viewModel.save(clothes: edited)
        return .clothes(edited)
    }
}
