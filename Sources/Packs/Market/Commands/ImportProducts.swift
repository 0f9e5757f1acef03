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
            "Fields: title, description, price, currency, stock and images (required: one to five picture files in images=), discountedPrice, registeredAt, id (kept if free).",
            "Every product takes the password given (hashed once, with one salt); password=? asks for it.",
        ],
        examples: ["import products from=out/products.json images=out/pictures password=1234"],
        run: run)

    /// A row checked: its id if given, the product once its id and password hash are known,
    /// and its pictures.
    struct Checked {
        var id: Int?
        var product: (_ id: Int, _ hash: PasswordHash) -> StoredProduct
        var images: [(bytes: [UInt8], info: ImageInfo)]
    }

    static func run(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(MarketState.self)
        guard state.remote == nil else {
            throw Diagnostic.remoteTransfer("import products", at: invocation.argument("from")?.range)
        }
        let password = try ProductForm.password(invocation)
        let fieldNames = Market.product.fieldNames
        let (path, rows) = try TransferFiles.readRows(
            invocation, fieldNames: fieldNames, entity: "product", ignoring: ["images", "labels"])
        let folder = TransferFiles.pictureFolder(invocation, file: path)
        let market = state.embedded
        var taken = Set<Int>()
        let checked = try TransferFiles.checkAll(rows, path: path, fieldNames: fieldNames, invocation) {
            row throws(TransferFiles.RowProblem) in
            try check(row, folder: folder, invocation, market, taken: &taken)
        }
        // Made once every row is good (PBKDF2 is slow on purpose).
        let hash = market.hash(password)
        // Rows that keep their ids first, so an id drawn for another never takes one of theirs.
        for row in checked.filter({ $0.id != nil }) + checked.filter({ $0.id == nil }) {
            guard let id = row.id ?? market.nextID else {
                throw Diagnostic.noIDLeft("product", at: invocation.call.range)
            }
            _ = try market.restore(row.product(id, hash), images: row.images)
        }
        return TransferFiles.imported(checked.count, from: path)
    }

    static func check(
        _ row: TransferFiles.Row, folder: String, _ invocation: Invocation, _ market: EmbeddedMarket,
        taken: inout Set<Int>
    ) throws(TransferFiles.RowProblem) -> Checked {
        func problem(_ message: String) -> TransferFiles.RowProblem {
            TransferFiles.RowProblem(line: row.line, message: message)
        }
        func text(_ key: String) -> String? { TransferFiles.text(row, key) }
        func required(_ key: String) throws(TransferFiles.RowProblem) -> String {
            try TransferFiles.required(row, key)
        }
        func number(_ key: String) throws(TransferFiles.RowProblem) -> Int {
            let value = try required(key)
            guard let number = WholeNumber.value(value) else {
                throw problem("\(key) '\(value)' is not a whole number from 0 to \(WholeNumber.maximum)")
            }
            return number
        }
        let title = try required("title")
        let description = try required("description")
        let price = try number("price")
        let currency = try TransferFiles.term(row, "currency", Currency.self, missing: "KRW, USD, ...")
        let stock = try number("stock")
        var discount: Int?
        if text("discountedPrice") != nil {
            discount = try number("discountedPrice")
            if let discount, discount >= price {
                throw problem(
                    "discountedPrice \(discount) must be lower than price \(price) (할인 가격은 제품 가격에 비해 낮아야 합니다)")
            }
        }
        // A server's export names its pictures by URL; the files are saved by their last part.
        let names = TransferFiles.list(row, "images").map { $0.contains("://") ? FilePath.lastComponent(of: $0) : $0 }
        guard !names.isEmpty else { throw problem("missing images (one to five picture files)") }
        guard names.count <= MarketError.maximumImageCount else {
            throw problem("\(names.count) images: 이미지는 최대 5개까지만 등록할 수 있습니다")
        }
        var images: [(bytes: [UInt8], info: ImageInfo)] = []
        for name in names { images.append(try TransferFiles.readPicture(name, in: folder, row: row, invocation)) }
        let id = try TransferFiles.freeID(row, "id", taken: &taken) { market.products[$0] != nil }
        let registered = try TransferFiles.date(row, "registeredAt") ?? invocation.clock.now()
        let product = { (id: Int, hash: PasswordHash) in
            StoredProduct(
                id: id, title: title, descriptions: description, price: price, currency: currency, stock: stock,
                discountedPrice: discount, pictures: [], passwordHash: hash, registeredAt: registered)
        }
        return Checked(id: id, product: product, images: images)
    }
}
