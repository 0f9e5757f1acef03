import ClosetCore
import Foundation

/// The product, declared once, with the app's labels: every output format derives from it.
enum MarketRecords {
    static let product = EntitySchema<Item>(
        singular: "product", plural: "products", korean: "상품", indefinite: "a product", keyStyle: .opaque,
        fields: [
            .field("id") { .integer($0.id) },
            .field("title") { .text($0.title) },
            .field("description") { $0.descriptions.map(FieldValue.text) ?? .null },
            .field(
                "price",
                shown: { item in
                    let price = ItemLabels.price(item.price, currency: item.currency)
                    return item.discountedPrice == nil ? .text(price) : .struck(price)
                }
            ) { .integer($0.price) },
            .field("currency") { .text($0.currency) },
            .field("stock", shown: { .text(ItemLabels.stock($0.stock)) }) { .integer($0.stock) },
            .field("discountedPrice", label: "discounted", shown: { .text(ItemLabels.discountedPrice($0)) }) {
                $0.discountedPrice.map(FieldValue.integer) ?? .null
            },
            .field(
                "images", data: .value { .text(images(of: $0).joined(separator: " ")) },
                shown: { .integer(images(of: $0).count) }
            ) { .list(images(of: $0).map { .text($0) }) },
            .field("registeredAt", label: "registered") { .date(Date(timeIntervalSince1970: $0.registrationDate)) },
            .field("labels", data: .none, detail: false) { item in
                .object([
                    Field("price", .text(ItemLabels.price(item.price, currency: item.currency))),
                    Field("discountedPrice", .text(ItemLabels.discountedPrice(item))),
                    Field("stock", .text(ItemLabels.stock(item.stock))),
                ])
            },
        ],
        listing: ["id", "title", "price", "discountedPrice", "stock", "images", "registeredAt"])

    static func images(of item: Item) -> [String] { item.images ?? item.thumbnails }

    static func record(_ item: Item) -> Record { product.record(item) }
}
