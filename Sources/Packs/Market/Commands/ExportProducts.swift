import ClosetCore
import ClosetLanguage

/// `export products to=<file> [images=<folder>]`: every product, newest first, to JSON or CSV,
/// each in full as its detail screen has it (the list's pages lack descriptions; a server is
/// asked for each product). Pictures are named by their file names; `images=` copies them
/// into a folder (a server's pictures fetched by their URLs, as the app's `ImageNetworkUseCase`
/// fetched them), so `import products` can read them back. No password hash is written.
enum ExportProducts {
    static let spec = CommandSpec(
        path: ["export", "products"],
        summary: "write every product to a .json or .csv file (and its pictures to a folder)",
        keys: [TransferFiles.toKey, TransferFiles.imagesKey],
        examples: ["export products to=products.csv", "export products to=out/products.json images=out/pictures"],
        run: { invocation in
            let state = try invocation.state(MarketState.self)
            let market = try state.market()
            let items = try state.allItems().map { try market.item(id: $0.id) }
            return try TransferFiles.export(
                Market.product, items.map { .opaque(String($0.id)) }, invocation: invocation,
                pictures: {
                    if case .success(let remote)? = state.remote {
                        return try items.flatMap { item in
                            try (item.images ?? []).map { url in try remotePicture(url, remote) }
                        }
                    }
                    return try items.flatMap {
                        try checkedPictures(of: try state.embedded.stored($0.id), state.embedded)
                    }
                }
            ) {
                items.map(MarketRecords.record)
            }
        })

    /// A product's pictures as stored, each checked against its checksum.
    static func checkedPictures(of product: StoredProduct, _ market: EmbeddedMarket) throws(Diagnostic)
        -> [TransferFiles.PictureFile]
    {
        try product.pictures.map { picture throws(Diagnostic) in
            guard let bytes = market.picture(named: picture.name), Checksum.crc32(bytes) == picture.info.checksum
            else {
                throw Diagnostic.pictureMissing(picture.name, product: product.id)
            }
            return (picture.name, bytes)
        }
    }

    /// A server's picture, saved under the last part of its URL (which the import reads).
    static func remotePicture(_ url: String, _ remote: RemoteMarket) throws(Diagnostic) -> TransferFiles.PictureFile {
        let name = FilePath.lastComponent(of: url)
        guard !name.isEmpty, name != "..", name != "." else { throw Diagnostic.remotePicture(url, "it names no file") }
        do {
            return (name, try remote.pictures.retrieveImage(with: url).bytes)
        } catch {
            throw Diagnostic.remotePicture(url, error.message)
        }
    }
}
