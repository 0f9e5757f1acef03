import ClosetDomain

/// `add clothes`: the app's add screen. Category and season are required (the app's own
/// messages); the id and time come from the session's generators unless `created=` pins it.
enum AddClothes {
    static let spec = CommandSpec(
        path: ["add", "clothes"],
        summary: "add clothes to the wardrobe",
        keys: [
            KeySpec("category", .category, "what kind of clothes", required: true),
            KeySpec("season", .season, "when to wear it", required: true),
            KeySpec("description", .text, "free text (optional)"),
            KeySpec("created", .date, "when it was added (default now)"),
        ],
        examples: [
            "add clothes category=top season=fall description=\"navy knit\"",
            "add clothes category=하의 season=겨울 description=\"기모 청바지\" created=2024-11-02",
        ],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let session = invocation.session
        let viewModel = ClothesDetailViewModel(clothes: nil, repository: session.store)
        let input = ClothesDetailViewModel.Input(
            category: invocation.category("category"), weatherType: invocation.season("season"),
            descriptions: invocation.text("description"))
        let created = invocation.date("created")
        let clothes: Clothes
        do {
            clothes = try viewModel.clothesFromInput(
                input, newID: session.ids.next, now: { created ?? session.clock.now() })
        } catch {
            let key = error == .missingCategory ? "category=<category>" : "season=<season>"
            throw Diagnostic("missing \(key) (\(error.message))", at: invocation.call.range)
        }
        try viewModel.save(clothes: clothes)
        return .clothes(clothes)
    }
}
