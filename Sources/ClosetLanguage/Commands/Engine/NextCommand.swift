import ClosetCore

/// `next`: the page after the most recent listing, as an app loads more when its list is
/// scrolled to the end; when that listing does not page, it says so, naming it. A page that
/// fails to load leaves the listing where it was, so `next` tries that page again (the seed
/// app's loader stopped for good).
enum NextCommand {
    static let spec = CommandSpec(
        path: ["next"],
        summary: "fetch the page after the last paged listing (rows number on, for @N)",
        examples: ["next"],
        run: { invocation in
            if let listing = invocation.session.listings.unpaged {
                throw Diagnostic.noNextPage(listing, at: invocation.call.range)
            }
            guard let paged = invocation.session.listings.paged else {
                throw Diagnostic.nothingToContinue(at: invocation.call.range)
            }
            guard let next = paged.next else { throw Diagnostic.noMore(paged.listing.kind, at: invocation.call.range) }
            return try next(invocation)
        })
}

/// Commands of the engine itself, in every registry whatever packs are installed.
enum EngineCommands {
    static let all = [NextCommand.spec, ExportPictureCommand.one, ExportPictureCommand.all]
}
