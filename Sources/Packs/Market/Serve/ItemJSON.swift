import ClosetLanguage
import Foundation

/// Items as the 2021 API wrote them, in its key order, written by hand: JSONEncoder spent over
/// 90% of a request's instructions on a page of twenty (Swift's corelibs on Linux), this a few.
enum ItemJSON {
    static func list(_ list: ItemList) -> Data {
        var out = #"{"page":"# + String(list.page) + #","items":["#
        for (index, item) in list.items.enumerated() {
            if index > 0 { out += "," }
            write(item, into: &out)
        }
        out += "]}"
        return Data(out.utf8)
    }

    static func item(_ item: Item) -> Data {
        var out = ""
        write(item, into: &out)
        return Data(out.utf8)
    }

    static func write(_ item: Item, into out: inout String) {
        out += #"{"id":"# + String(item.id) + #","title":"#
        string(item.title, into: &out)
        out += #","price":"# + String(item.price) + #","currency":"#
        string(item.currency, into: &out)
        out += #","stock":"# + String(item.stock)
        if let discount = item.discountedPrice { out += #","discounted_price":"# + String(discount) }
        out += #","thumbnails":"#
        strings(item.thumbnails, into: &out)
        if let descriptions = item.descriptions {
            out += #","descriptions":"#
            string(descriptions, into: &out)
        }
        if let images = item.images {
            out += #","images":"#
            strings(images, into: &out)
        }
        out += #","registration_date":"# + number(item.registrationDate) + "}"
    }

    static func strings(_ values: [String], into out: inout String) {
        out += "["
        for (index, value) in values.enumerated() {
            if index > 0 { out += "," }
            string(value, into: &out)
        }
        out += "]"
    }

    /// The engine's JSON string literal (quotes, backslashes and control characters escaped).
    static func string(_ value: String, into out: inout String) { out += JSONText.string(value) }

    static func number(_ value: Double) -> String { JSONText.number(value) }
}
