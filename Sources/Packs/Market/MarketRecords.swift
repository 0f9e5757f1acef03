import ClosetCore
import Foundation

/// The product, declared once, with the app's labels and its input: every output format, the
/// keys of `add product` and `edit product`, what `.dump` writes and the served form's field
/// names derive from it.
enum MarketRecords {
    static let productKind: EntityKind = EntityKind(
        singular: "product", plural: "products", korean: "상품", indefinite: "a product", keyStyle: .opaque,
        columns: { product.columns })
    static let product = EntitySchema<Item>(
        kind: productKind,
        fields: [
            .field("id", input: .restoring("id", .count, "restore with this id (what .dump writes)")) {
                .integer($0.id)
            },
            .field(
                "title", korean: "제품명", input: .required("title", .text, "the product's name (제품명)", api: "title"),
                set: .to(\.title)
            ) {
                .text($0.title)
            },
            .field(
                "description", korean: "제품 설명",
                input: .required("description", .text, "the description (제품 설명)", api: "descriptions"),
                set: .to(\.descriptions)
            ) { $0.descriptions.map(FieldValue.text) ?? .null },
            .field(
                "price", korean: "제품 가격",
                input: .required("price", .count, "the price, a whole number (제품 가격)", api: "price"),
                set: .to(\.price),
                shown: { item in
                    let price = ItemLabels.price(item.price, currency: item.currency)
                    return item.discountedPrice == nil ? .text(price) : .marked(price, .struck)
                }
            ) { .integer($0.price) },
            .field(
                "currency", korean: "화폐", word: true,
                input: .required(
                    "currency", .vocabulary(Currency.info, many: false), "the currency (화폐)", api: "currency"),
                set: .to(\.currency)
            ) { .text($0.currency) },
            // The app's colours: 품절 yellow, a discounted price red (at a terminal in colour).
            .field(
                "stock", korean: "제품 수량",
                input: .required("stock", .count, "how many are in stock (제품 수량)", api: "stock"),
                set: .to(\.stock),
                shown: { $0.stock == 0 ? .marked(ItemLabels.stock(0), .yellow) : .text(ItemLabels.stock($0.stock)) }
            ) { .integer($0.stock) },
            .field(
                "discountedPrice", label: "discounted", korean: "할인 가격",
                input: .optional(
                    "discounted", .count, "the discounted price, lower than the price (할인 가격, 선택 사항)", edit: .text,
                    editSummary: "a new discounted price, or none to remove it", api: "discounted_price"),
                set: .to(\.discountedPrice),
                shown: { $0.discountedPrice == nil ? .text("") : .marked(ItemLabels.discountedPrice($0), .red) }
            ) {
                $0.discountedPrice.map(FieldValue.integer) ?? .null
            },
            .children(
                "images", of: picture, data: .value { .text(images(of: $0).joinedText(separator: " ")) },
                input: .required(
                    "image", .paths(maximum: MarketError.maximumImageCount),
                    "one to five PNG or JPEG files, separated by commas", api: "images[]"),
                shown: { .integer(images(of: $0).count) }, json: { .list(images(of: $0).map { .text($0) }) }
            ) { item in images(of: item).enumerated().map { Picture(number: $0.offset + 1, name: $0.element) } },
            .field(
                "registeredAt", label: "registered",
                input: .restoring("registered", .date, "restore with this registration time (what .dump writes)")
            ) { .date(Date(timeIntervalSince1970: $0.registrationDate)) },
            .field("labels", data: .none, detail: false) { item in
                .object([
                    Field("price", .text(ItemLabels.price(item.price, currency: item.currency))),
                    Field("discountedPrice", .text(ItemLabels.discountedPrice(item))),
                    Field("stock", .text(ItemLabels.stock(item.stock))),
                ])
            },
        ],
        // As the app's list cell: title, price, discounted price, stock (pictures and the
        // registration time are in `show product`); 20 rows fit an 80-column terminal.
        listing: ["id", "title", "price", "discountedPrice", "stock"],
        // The dump supplies the pictures' copied paths and the password hash (never a password).
        restore: [
            "id", "title", "price", "currency", "stock", "discountedPrice", "description", "images", "registeredAt",
            "hash",
        ])

    static func images(of item: Item) -> [String] { item.images ?? item.thumbnails }

    /// One of a product's pictures, as its detail lists them (the app's N번째 사진).
    struct Picture {
        var number: Int
        var name: String
    }

    static let pictureKind: EntityKind = EntityKind(
        singular: "picture", plural: "pictures", korean: "사진", indefinite: "a picture", keyStyle: .opaque,
        columns: { picture.columns })
    static let picture = EntitySchema<Picture>(
        kind: pictureKind,
        fields: [
            // Under `.lang ko` a picture is named as the apps name one (1번째 사진).
            .field("number", label: "#", shown: { .localized(String($0.number), korean: "\($0.number)번째 사진") }) {
                .integer($0.number)
            },
            .field("name") { .text($0.name) },
        ],
        listing: ["number", "name"])

    static func record(_ item: Item) -> Record { product.record(item) }
}
