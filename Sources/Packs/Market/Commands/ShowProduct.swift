import ClosetCore
import ClosetLanguage

/// `show product <ref>`: the detail screen.
enum ShowProduct {
    static let spec = CommandSpec(
        path: ["show", "product"],
        summary: "show one product: the detail screen",
        parameters: [Market.productParameter],
        examples: ["show product 17", "show product @1", "show 상품 $mini"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let id = try state.id(invocation.referenceParameter(), at: invocation.parameters.first?.range)
            return detail(try ItemDetailViewModel(id: id, repository: state.market()).loadItem())
        })

    /// The detail screen: every field, and the gallery in a row, read (or fetched) only when shown.
    static func detail(_ item: Item) -> Outcome {
        let urls = MarketRecords.images(of: item)
        let id = item.id
        return .detail(Market.product, .opaque(String(item.id))) { MarketRecords.product.detailRecord(item) }
            .showing(
                Pictures(
                    .row,
                    urls.indices.map { index in
                        { @Sendable session in
                            session.state(MarketState.self)?.picture(index, ofProduct: id, urls: urls)
                                ?? Picture(.unavailable("the market pack is not running"))
                        }
                    }))
    }
}

/// `count products`.
enum CountProducts {
    static let spec = CommandSpec(
        path: ["count", "products"],
        summary: "count products",
        examples: ["count products"],
        run: { invocation in .count(try invocation.state(MarketState.self).count()) })
}
