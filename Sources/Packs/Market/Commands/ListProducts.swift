import ClosetCore
import ClosetLanguage

/// `list products [page=<n>]`: the list screen, 20 a page, newest first, through the app's
/// list view model; `next` loads the page after (`page = list.page + 1`), as the app does
/// when the list nears its end.
enum ListProducts {
    static let spec = CommandSpec(
        path: ["list", "products"],
        summary: "list products, 20 a page, newest first (next continues)",
        keys: [KeySpec("page", .count, "start at this page (default 1)")],
        examples: ["list products", "list products page=2", "list 상품 limit=5"],
        pages: true,
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let page = invocation.count("page") ?? 1
            guard page >= 1 else { throw Diagnostic.pageStartsAtOne(at: invocation.argument("page")?.range) }
            state.startPage = page
            return try outcome(state, rows: try state.list.reset(), invocation)
        })

    /// `next` after a page of products.
    static func next(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(MarketState.self)
        let rows = try state.list.loadItems()
        if rows?.isEmpty ?? true { throw Diagnostic.noMore(Market.product, at: invocation.call.range) }
        return try outcome(state, rows: rows, invocation)
    }

    static func outcome(_ state: MarketState, rows: Range<Int>?, _ invocation: Invocation) throws -> Outcome {
        guard let rows else { throw Diagnostic.noMore(Market.product, at: invocation.call.range) }
        let items = Array(state.list.items[rows])
        var continuation: (@Sendable (Invocation) throws -> Outcome)?
        if items.count == EmbeddedMarket.pageSize {
            continuation = { @Sendable invocation in try ListProducts.next(invocation) }
        }
        return .listing(
            Market.product, items.map { .opaque(String($0.id)) },
            page: Page(firstRow: rows.lowerBound + 1, next: continuation)
        ) { items.map(MarketRecords.record) }
        // The list cell's thumbnail (its first), read or fetched only when shown.
        .showing(
            Pictures(
                .thumbnails,
                items.map { item in
                    { @Sendable (session: Session) -> Picture in
                        guard !item.thumbnails.isEmpty else { return Picture.none }
                        return session.state(MarketState.self)?.picture(0, ofProduct: item.id, urls: item.thumbnails)
                            ?? Picture(.unavailable("the market pack is not running"))
                    }
                }))
    }
}
