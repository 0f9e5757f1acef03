import ClosetLanguage

/// `count saved`: how many photos are saved.
enum CountSaved {
    static let spec = CommandSpec(
        path: ["count", "saved"],
        summary: "count saved photos",
        examples: ["count saved"],
        run: { invocation in .count(try invocation.state(PhotosState.self).repository.count) })
}
