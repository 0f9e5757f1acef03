import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// `list photos [page=<n>]`: the feed screen, 15 photos a page from Unsplash; `next`
/// appends the page after, as the app does when the list is scrolled to its end.
enum ListPhotos {
    static let spec = CommandSpec(
        path: ["list", "photos"],
        summary: "list the Unsplash feed, 15 a page (next continues)",
        keys: [KeySpec("page", .count, "start at this page (default 1)")],
        notes: [
            "Each row: the photo's size, its display height in the app's 150-point column, its masonry column",
            "(each photo goes to the shorter one) and ★ when it is saved (checked against the store each time).",
        ],
        examples: ["list photos", "list photos page=3", "list photos limit=5"],
        pages: true,
        run: { invocation in
            let state = try invocation.state(PhotosState.self)
            let page = invocation.count("page") ?? 1
            if page < 1, let argument = invocation.argument("page") { throw Diagnostic.pageFromOne(at: argument.range) }
            return outcome(state, rows: try state.feed.list(page: page))
        })

    /// `next` after a feed page.
    static func next(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(PhotosState.self)
        guard !state.feed.reachedEnd, let rows = try state.feed.next(), !rows.isEmpty else {
            throw Diagnostic.noMore(Photos.photo, at: invocation.call.range)
        }
        return outcome(state, rows: rows)
    }

    static func outcome(_ state: PhotosState, rows: Range<Int>) -> Outcome {
        let photos = rows.map { state.feed.image(at: $0) }
        let columns = rows.map { state.feed.columns[$0] }
        var continuation: (@Sendable (Invocation) throws -> Outcome)?
        if !state.feed.reachedEnd { continuation = PicterestNetworkError.speaking(ListPhotos.next) }
        return .listing(
            Photos.photo, photos.map { .opaque($0.imageData.id) },
            page: Page(firstRow: rows.lowerBound + 1, next: continuation)
        ) { zip(photos, columns).map { PhotosRecords.record($0, column: $1) } }
        .showing(
            // The feed's masonry: each photo's `small` picture, fetched only when shown.
            // Each in the column the table gives it.
            Pictures(
                .masonry(columns: 2),
                zip(photos, columns).map { photo, placed in
                    let column = placed == .left ? 0 : 1
                    return { @Sendable session in
                        let size = (PhotosState.columnWidth, photo.imageData.displayHeight)
                        guard let state = session.state(PhotosState.self) else {
                            return Picture(
                                .unavailable("the photos pack is not running"), displaySize: size, column: column)
                        }
                        do throws(NetworkError) {
                            let url = photo.imageData.imageUrl.smallUrl
                            return Picture(
                                .bytes(try state.feedPicture(at: url)), displaySize: size, name: photo.imageData.id,
                                column: column)
                        } catch {
                            return Picture(.unavailable(error.message), displaySize: size, column: column)
                        }
                    }
                }))
    }
}
