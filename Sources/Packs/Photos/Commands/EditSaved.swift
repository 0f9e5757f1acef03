import ClosetCore
import ClosetLanguage

/// `edit saved <ref> memo=<text>`: change a saved photo's memo (the repository cell's label).
enum EditSaved {
    static let spec = CommandSpec(
        path: ["edit", "saved"],
        summary: "change a saved photo's memo",
        parameters: [Photos.savedParameter],
        keys: PhotosRecords.saved.keys(.edit),
        examples: ["edit saved @1 memo=\"여름 바다\""],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            var photo = try state.savedPhoto(invocation)
            // What edit may change (the memo), set by the saved photo's schema.
            let draft = try PhotosRecords.saved.draft(invocation)
            guard !draft.isEmpty else { throw invocation.nothingToChange() }
            PhotosRecords.saved.apply(draft, to: &photo)
            state.repository.update(photo)
            return Photos.outcome(photo)
        })
}
