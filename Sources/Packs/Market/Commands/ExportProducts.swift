import ClosetCore
import ClosetLanguage

/// `export products to=<file>`: every product, newest first, to JSON or CSV, each in full as
/// its detail screen has it (the list's pages lack descriptions; a server is asked for each
/// product); pictures are named, not carried, and no password hash is.
enum ExportProducts {
    static let spec = CommandSpec(
        path: ["export", "products"],
        summary: "write every product to a .json or .csv file",
        keys: [TransferFiles.toKey],
        examples: ["export products to=products.csv"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let market = try state.market()
            let items = try state.allItems().map { try market.item(id: $0.id) }
            return try TransferFiles.export(
                Market.product, items.map { .opaque(String($0.id)) }, invocation: invocation
            ) {
                items.map(MarketRecords.record)
            }
        })
}
