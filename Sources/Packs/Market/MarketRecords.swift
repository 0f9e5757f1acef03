import ClosetCore
import Foundation

/// How a product looks in every output format, with the app's labels.
enum MarketRecords {
    static func record(_ item: Item) -> Record {
        let registered = Date(timeIntervalSince1970: item.registrationDate)
        let price = ItemLabels.price(item.price, currency: item.currency)
        let discounted = ItemLabels.discountedPrice(item)
        let stock = ItemLabels.stock(item.stock)
        let images = item.images ?? item.thumbnails
        return Record(
            fields: [
                Field("id", .integer(item.id)), Field("title", .text(item.title)),
                Field("description", item.descriptions.map(FieldValue.text) ?? .null),
                Field("price", .integer(item.price)),
                Field("currency", .text(item.currency)), Field("stock", .integer(item.stock)),
                Field("discountedPrice", item.discountedPrice.map(FieldValue.integer) ?? .null),
                Field("images", .list(images.map { .text($0) })), Field("registeredAt", .date(registered)),
                Field(
                    "labels",
                    .object([
                        Field("price", .text(price)), Field("discountedPrice", .text(discounted)),
                        Field("stock", .text(stock)),
                    ])),
            ],
            data: [
                .integer(item.id), .text(item.title), item.descriptions.map(FieldValue.text) ?? .null,
                .integer(item.price), .text(item.currency), .integer(item.stock),
                item.discountedPrice.map(FieldValue.integer) ?? .null, .text(images.joined(separator: " ")),
                .date(registered),
            ],
            table: [
                .integer(item.id), .text(item.title), item.discountedPrice == nil ? .text(price) : .struck(price),
                .text(discounted), .text(stock),
                .integer(images.count), .date(registered),
            ])
    }
}
