import ClosetCore
import Foundation

/// A product as the open-market API and the app know it (reference §3.1): its `Codable` is the
/// API's JSON both ways (the client decodes it, `closet serve` writes it with
/// `JSONBytesEncoder`), in the 2021 server's key order.
package struct Item: Codable, Hashable, Sendable {
    package var id: Int
    package var title: String
    package var price: Int
    package var currency: String
    package var stock: Int
    package var discountedPrice: Int?
    package var thumbnails: [String]
    package var descriptions: String?
    package var images: [String]?
    package var registrationDate: Double

    enum CodingKeys: String, CodingKey {
        case id, title, price, currency, stock
        case discountedPrice = "discounted_price"
        case thumbnails, descriptions, images
        case registrationDate = "registration_date"
    }

    package init(
        id: Int, title: String, descriptions: String?, price: Int, currency: String, stock: Int, discountedPrice: Int?,
        thumbnails: [String], images: [String]?, registrationDate: Double
    ) {
        self.id = id
        self.title = title
        self.descriptions = descriptions
        self.price = price
        self.currency = currency
        self.stock = stock
        self.discountedPrice = discountedPrice
        self.thumbnails = thumbnails
        self.images = images
        self.registrationDate = registrationDate
    }
}

/// One page of the list: `page` is the page it is (`ItemListNetworkUseCase` asks for
/// `page + 1` next).
package struct ItemList: Codable, Equatable, Sendable {
    package var page: Int
    package var items: [Item]
}

/// The labels the app shows (reference §3.4): `KRW 30,000`, `품절`, `수량 : 999+`, `수량 : N`.
package enum ItemLabels {
    package static let soldOut = "품절"
    static let standardCount = 1000

    package static func price(_ amount: Int, currency: String) -> String { "\(currency) \(grouped(amount))" }

    package static func discountedPrice(_ item: Item) -> String {
        item.discountedPrice.map { price($0, currency: item.currency) } ?? ""
    }

    package static func stock(_ stock: Int) -> String {
        if stock == 0 { return soldOut }
        if stock >= standardCount { return "수량 : 999+" }
        return "수량 : \(stock)"
    }

    static func grouped(_ number: Int) -> String { DigitGrouping.grouped(number) }
}
