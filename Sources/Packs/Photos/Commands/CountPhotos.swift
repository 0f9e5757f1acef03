import ClosetCore
import ClosetLanguage

/// `count photos`: how many photos the Unsplash feed has in all (its `X-Total`), without
/// moving the feed `list photos` and `next` are paging through.
enum CountPhotos {
    static let spec = CommandSpec(
        path: ["count", "photos"],
        summary: "count the photos of the Unsplash feed (the total the API gives)",
        examples: ["count photos"],
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            guard let total = try UnsplashAPI.total(network: state.network) else {
                throw Diagnostic.feedHasNoTotal(at: invocation.call.range)
            }
            return .count(total)
        })
}
