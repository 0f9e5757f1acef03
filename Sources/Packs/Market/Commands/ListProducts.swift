import ClosetCore
import ClosetLanguage

/// `list products [page=<n>]`: the list screen, 20 a page, newest first; `next` loads the
/// page after (`page = list.page + 1`), as the app does when the list nears its end.
enum ListProducts {
    static let spec = CommandSpec(
        path: ["list", "products"],
        summary: "list products, 20 a page, newest first (next continues)",
        keys: [KeySpec("page", .count, "start at this page (default 1)")],
        examples: ["list products", "list products page=2", "list 상품"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let page = invocation.count("page") ?? 1
            guard page >= 1 else { throw Diagnostic.pageStartsAtOne(at: invocation.argument("page")?.range) }
            state.reset(page: page)
            return try outcome(state, firstRow: 1, invocation)
        })

    static func next(_ invocation: Invocation, firstRow: Int) throws -> Outcome {
        try outcome(try invocation.state(MarketState.self), firstRow: firstRow, invocation)
    }

    static func outcome(_ state: MarketState, firstRow: Int, _ invocation: Invocation) throws -> Outcome {
        guard let list = try state.retrieveItems() else {
            throw Diagnostic.noMore(Market.product, at: invocation.call.range)
        }
        if firstRow > 1, list.items.isEmpty { throw Diagnostic.noMore(Market.product, at: invocation.call.range) }
        let items = list.items
        var continuation: (@Sendable (Invocation) throws -> Outcome)?
        if items.count == EmbeddedMarket.pageSize {
            let following = firstRow + items.count
            continuation = { @Sendable invocation in try ListProducts.next(invocation, firstRow: following) }
        }
        return .listing(
            Market.product, items.map { .opaque(String($0.id)) }, page: Page(firstRow: firstRow, next: continuation)
        ) { items.map(MarketRecords.record) }
    }
}
