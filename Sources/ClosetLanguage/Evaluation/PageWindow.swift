import ClosetCore

/// `limit=N` on a listing whose command has no limit of its own: the rows it fetched are shown
/// N at a time, and `next` shows the following N (from the page in hand, then from the pages
/// after it, for a paged one), numbered on as any page is. The pack fetches what it always
/// fetches.
enum PageWindow {
    static func window(_ entities: Entities, limit: Int) -> Entities {
        // A listing that comes all at once is one page with none after it.
        let page = entities.page ?? Page(firstRow: 1, next: nil)
        let limit = max(1, limit)
        var shown = entities
        guard entities.keys.count > limit else {
            // All of this page fits; the pages after it are windowed in turn.
            shown.page = Page(firstRow: page.firstRow, next: page.next.map { next in windowed(next, limit: limit) })
            return shown
        }
        shown = entities.slice(0..<limit)
        shown.pictures?.items = Array(entities.pictures?.items.prefix(limit) ?? [])
        var rest = entities.slice(limit..<entities.keys.count)
        rest.pictures?.items = Array(entities.pictures?.items.dropFirst(limit) ?? [])
        rest.page = Page(firstRow: page.firstRow + limit, next: page.next)
        rest.caption = nil
        let remainder = rest
        // Known when no page comes after this one: the rows still in hand.
        shown.page = Page(
            firstRow: page.firstRow, next: { _ in .entities(window(remainder, limit: limit)) },
            remaining: page.next == nil ? rest.keys.count : nil)
        return shown
    }

    /// A page fetcher whose pages are windowed too.
    private static func windowed(
        _ next: @escaping @Sendable (Invocation) throws -> Outcome, limit: Int
    ) -> @Sendable (Invocation) throws -> Outcome {
        { invocation in
            let outcome = try next(invocation)
            guard case .entities(let entities) = outcome, entities.isListing else { return outcome }
            return .entities(window(entities, limit: limit))
        }
    }
}
