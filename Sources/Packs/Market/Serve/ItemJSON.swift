import ClosetLanguage
import Foundation

/// Items as the 2021 API wrote them, in its key order, written by hand into bytes: JSONEncoder
/// spent over 90% of a request's instructions on a page of twenty (Swift's corelibs on Linux),
/// and strings appended piece by piece were a fifth of a page made from the store. Pictures
/// are named by their URLs on this server (`<base>/thumbnails/<name>`, `<base>/images/<name>`).
enum ItemJSON {
    static func list(_ list: ItemList, base: String) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(64 + list.items.count * 640)
        append(#"{"page":"#, to: &out)
        append(String(list.page), to: &out)
        append(#","items":["#, to: &out)
        for (index, item) in list.items.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            write(item, base: base, into: &out)
        }
        append("]}", to: &out)
        return Data(out)
    }

    static func item(_ item: Item, base: String) -> Data {
        var out: [UInt8] = []
        write(item, base: base, into: &out)
        return Data(out)
    }

    static func write(_ item: Item, base: String, into out: inout [UInt8]) {
        append(#"{"id":"#, to: &out)
        append(String(item.id), to: &out)
        append(#","title":"#, to: &out)
        JSONText.write(item.title, into: &out)
        append(#","price":"#, to: &out)
        append(String(item.price), to: &out)
        append(#","currency":"#, to: &out)
        JSONText.write(item.currency, into: &out)
        append(#","stock":"#, to: &out)
        append(String(item.stock), to: &out)
        if let discount = item.discountedPrice {
            append(#","discounted_price":"#, to: &out)
            append(String(discount), to: &out)
        }
        append(#","thumbnails":"#, to: &out)
        urls(item.thumbnails, base + "/thumbnails/", into: &out)
        if let descriptions = item.descriptions {
            append(#","descriptions":"#, to: &out)
            JSONText.write(descriptions, into: &out)
        }
        if let images = item.images {
            append(#","images":"#, to: &out)
            urls(images, base + "/images/", into: &out)
        }
        append(#","registration_date":"#, to: &out)
        append(JSONText.number(item.registrationDate), to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// Blob names as URLs under `prefix`, a JSON array of strings.
    static func urls(_ names: [String], _ prefix: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "["))
        for (index, name) in names.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            JSONText.write(prefix + name, into: &out)
        }
        out.append(UInt8(ascii: "]"))
    }

    static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }
}
