import ClosetCore
import Foundation

/// A product as the open-market API and the app know it (reference §3.1).
public struct Item: Codable, Equatable, Sendable {
    public var id: Int
    public var title: String
    public var descriptions: String?
    public var price: Int
    public var currency: String
    public var stock: Int
    public var discountedPrice: Int?
    public var thumbnails: [String]
    public var images: [String]?
    public var registrationDate: Double

    enum CodingKeys: String, CodingKey {
        case id, title, descriptions, price, currency, stock, thumbnails, images
        case discountedPrice = "discounted_price"
        case registrationDate = "registration_date"
    }

    public init(
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
public struct ItemList: Codable, Equatable, Sendable {
    public var page: Int
    public var items: [Item]
}

/// The labels the app shows (reference §3.4): `KRW 30,000`, `품절`, `수량 : 999+`, `수량 : N`.
public enum ItemLabels {
    public static let soldOut = "품절"
    public static let standardCount = 1000

    public static func price(_ amount: Int, currency: String) -> String { "\(currency) \(grouped(amount))" }

    public static func discountedPrice(_ item: Item) -> String {
        item.discountedPrice.map { price($0, currency: item.currency) } ?? ""
    }

    public static func stock(_ stock: Int) -> String {
        if stock == 0 { return soldOut }
        if stock >= standardCount { return "수량 : 999+" }
        return "수량 : \(stock)"
    }

    static func grouped(_ number: Int) -> String { DigitGrouping.grouped(number) }
}
