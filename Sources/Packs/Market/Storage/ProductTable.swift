import ClosetCore
import ClosetCrypto
import ClosetTables
import Foundation

/// A product of the embedded market as stored: its fields as the app's `Item` has them (declared
/// once, on `MarketRecords.product`), its pictures' facts, and never the password, only its
/// salted hash.
struct StoredProduct: Sendable, Hashable {
    package struct Picture: Sendable, Hashable {
        package var id: UUID
        package var info: ImageInfo

        /// `<UUID>-<CRC32>.png|jpg`, the store's blob name (and the name `images` shows).
        package var name: String { info.blobName(owner: id) }
    }

    /// The product's own fields; its pictures' names are `pictures`' (see `item`).
    package var fields: Item
    package var pictures: [Picture]
    var passwordHash: PasswordHash

    package var id: Int { fields.id }

    /// A product with nothing in it yet but what only the store gives it.
    init(id: Int, passwordHash: PasswordHash, registeredAt: Date) {
        fields = Item(
            id: id, title: "", descriptions: nil, price: 0, currency: Currency.krw.englishName, stock: 0,
            discountedPrice: nil, thumbnails: [], images: [], registrationDate: registeredAt.timeIntervalSince1970)
        pictures = []
        self.passwordHash = passwordHash
    }

    init(fields: Item, pictures: [Picture], passwordHash: PasswordHash) {
        self.fields = fields
        self.pictures = pictures
        self.passwordHash = passwordHash
    }

    /// The form's fields on the product, by the product's schema, for a new one, a restored one
    /// and an edit alike (a field the form does not give is kept; its pictures are the
    /// repository's to store).
    mutating func apply(_ form: ItemForm) { MarketRecords.product.apply(form.fields, to: &fields) }

    /// As the API would return it.
    package var item: Item {
        var item = fields
        let names = pictures.map(\.name)
        item.thumbnails = names
        item.images = names
        return item
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
        let item = product.fields
        writer.wholeNumber(item.id)
        writer.string(item.title)
        writer.u8(item.descriptions == nil ? 0 : 1)
        if let text = item.descriptions { writer.string(text) }
        writer.i64(Int64(item.price))
        // The schema's vocabulary let nothing else in.
        guard let currency = Currency.named(item.currency) else {
            preconditionFailure("\(item.currency) is no currency")
        }
        writer.u8(UInt8(currency.rawValue))
        writer.i64(Int64(item.stock))
        writer.u8(item.discountedPrice == nil ? 0 : 1)
        if let discount = item.discountedPrice { writer.i64(Int64(discount)) }
        writer.u8(UInt8(product.pictures.count))
        for picture in product.pictures {
            writer.uuid(picture.id)
            writer.imageInfo(picture.info)
        }
        writer.string(product.passwordHash.text)
        writer.date(Date(timeIntervalSince1970: item.registrationDate))
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
        let fields = Item(
            id: id, title: title, descriptions: descriptions, price: price, currency: currency.englishName,
            stock: stock, discountedPrice: discount, thumbnails: [], images: [],
            registrationDate: try reader.date().timeIntervalSince1970)
        return StoredProduct(fields: fields, pictures: pictures, passwordHash: hash)
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
