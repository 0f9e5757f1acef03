import ClosetCore
import ClosetCrypto
import ClosetLanguage
import Foundation

/// `import products from=<file> password=<pw> [images=<folder>]`: what `export products`
/// writes, read back into the embedded market: every row checked as the register screen
/// checks a product (everything but the discount required, one to five pictures found in
/// the folder), and nothing kept if one is bad. Ids and registration times are kept when
/// given and free. A file carries no passwords: every imported product takes `password=`.
enum ImportProducts {
    static let spec = CommandSpec(
        path: ["import", "products"],
        summary: "add products and their pictures from a file export wrote: every row or none",
        keys: [TransferFiles.fromKey, TransferFiles.imagesKey, Market.password],
        notes: [
            MarketRecords.product.importFields,
            "images: one to five picture files in images=. Each row is checked as add product checks it.",
            "Every product takes the password given (hashed once, with one salt); password=? asks for it.",
        ],
        examples: ["import products from=out/products.json images=out/pictures password=1234"],
        run: run)

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(MarketState.self)
        guard state.remote == nil else {
            throw Diagnostic.remoteTransfer("import products", at: invocation.argument("from")?.range)
        }
        // Hashed once for every row (PBKDF2 is slow on purpose): each row is `add product`
        // restoring it, as a dump's line is.
        let hash = state.embedded.hash(try ProductForm.password(invocation))
        return try TransferFiles.importThroughAdd(
            invocation, schema: MarketRecords.product, ignoring: ["images", "labels"],
            supplied: [("hash", hash.text)])
    }
}
