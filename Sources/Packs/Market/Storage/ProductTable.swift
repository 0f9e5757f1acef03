import ClosetCore
import ClosetCrypto
import ClosetTables
import Foundation

/// A product of the embedded market as stored: never the password, only its salted hash.
struct StoredProduct: Sendable, Hashable {
    package struct Picture: Sendable, Hashable {
        package var id: UUID
        package var info: ImageInfo

        /// `<UUID>-<CRC32>.png|jpg`, the store's blob name (and the name `images` shows).
        package var name: String { info.blobName(owner: id) }
    }

    package var id: Int
    package var title: String
    package var descriptions: String?
    package var price: Int
    package var currency: Currency
    package var stock: Int
    package var discountedPrice: Int?
    package var pictures: [Picture]
    var passwordHash: PasswordHash
    package var registeredAt: Date

    /// The form's fields on the product, for a new one, a restored one and an edit alike (a
    /// field the form does not give is kept; its pictures are the repository's to store).
    mutating func apply(_ form: ItemForm) {
        let fields = form.fields
        if let title = fields.text("title") { self.title = title }
        if let descriptions = fields.text("description") { self.descriptions = descriptions }
        if let price = fields.integer("price") { self.price = price }
        if let currency = fields.text("currency").flatMap(Currency.named) { self.currency = currency }
        if let stock = fields.integer("stock") { self.stock = stock }
        if let discount = form.discountedPrice { discountedPrice = discount }
    }

    /// As the API would return it.
    package var item: Item {
        let names = pictures.map(\.name)
        return Item(
            id: id, title: title, descriptions: descriptions, price: price, currency: currency.englishName,
            stock: stock, discountedPrice: discountedPrice, thumbnails: names, images: names,
            registrationDate: registeredAt.timeIntervalSince1970)
    }
}

extension StoredProduct {
    /// A product with nothing in it yet but what only the store gives it.
    init(id: Int, passwordHash: PasswordHash, registeredAt: Date) {
        self.init(
            id: id, title: "", descriptions: nil, price: 0, currency: .krw, stock: 0, discountedPrice: nil,
            pictures: [], passwordHash: passwordHash, registeredAt: registeredAt)
    }
}

/// Products by id; a second table keeps the next id, so ids are never reused. The list
/// screen's order (newest first: id descending) is the table's index, so a page decodes only
/// its own 20 products.
enum ProductTable: TableCodec {
    static let schema = TableSchema<ProductTable>(
        name: "market.products", index: TableIndex(bucketCount: 1, bucket: { _ in 0 }, order: { Int64($0.id) }))

    static func key(of row: StoredProduct) -> Int { row.id }

    static func encode(_ product: StoredProduct, into writer: inout ByteWriter) {
        writer.wholeNumber(product.id)
        writer.string(product.title)
        writer.u8(product.descriptions == nil ? 0 : 1)
        if let text = product.descriptions { writer.string(text) }
        writer.i64(Int64(product.price))
        writer.u8(UInt8(product.currency.rawValue))
        writer.i64(Int64(product.stock))
        writer.u8(product.discountedPrice == nil ? 0 : 1)
        if let discount = product.discountedPrice { writer.i64(Int64(discount)) }
        writer.u8(UInt8(product.pictures.count))
        for picture in product.pictures {
            writer.uuid(picture.id)
            writer.imageInfo(picture.info)
        }
        writer.string(product.passwordHash.text)
        writer.date(product.registeredAt)
    }

    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> StoredProduct {
        let id = try reader.wholeNumber()
        let title = try reader.string()
        let descriptions: String? = try reader.u8() == 0 ? nil : try reader.string()
        let price = Int(try reader.i64())
        guard let currency = Currency(rawValue: Int(try reader.u8())) else { throw ByteReader.Malformed() }
        let stock = Int(try reader.i64())
        let discount: Int? = try reader.u8() == 0 ? nil : Int(try reader.i64())
        var pictures: [StoredProduct.Picture] = []
        for _ in 0..<(try reader.u8()) {
            let pictureID = try reader.uuid()
            pictures.append(StoredProduct.Picture(id: pictureID, info: try reader.imageInfo()))
        }
        let hash = PasswordHash(storedText: try reader.string())
        return StoredProduct(
            id: id, title: title, descriptions: descriptions, price: price, currency: currency, stock: stock,
            discountedPrice: discount, pictures: pictures, passwordHash: hash, registeredAt: try reader.date())
    }

    static func encode(key: Int, into writer: inout ByteWriter) { writer.wholeNumber(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
        try reader.wholeNumber()
    }

    static func blobs(of product: StoredProduct) -> [String] { product.pictures.map(\.name) }
}

/// The last id given: one row, so a removed product's id is never given again.
enum ProductSequenceTable: TableCodec {
    static let schema = TableSchema<ProductSequenceTable>(name: "market.sequence")

    static func key(of row: Int) -> String { "last" }
    static func encode(_ row: Int, into writer: inout ByteWriter) { writer.wholeNumber(row) }
    static func decodeRow(from reader: inout ByteReader) throws(ByteReader.Malformed) -> Int {
        try reader.wholeNumber()
    }
    static func encode(key: String, into writer: inout ByteWriter) { writer.string(key) }
    static func decodeKey(from reader: inout ByteReader) throws(ByteReader.Malformed) -> String { try reader.string() }
}
