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

    /// A JSON string (RFC 8259): quotes, backslashes and control characters escaped.
    static func string(_ value: String, into out: inout String) {
        out += "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let control where control.value < 0x20 || control.value == 0x7F:
                let hex = String(control.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }

    /// Whole seconds as an integer, others in Swift's shortest exact form.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return "0" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
