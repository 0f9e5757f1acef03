import ClosetLanguage
import Foundation

/// Items as the 2021 API wrote them: the app's own `Item` encoded (its `CodingKeys` are the
/// API's names and order), with pictures named by their URLs on this server
/// (`<base>/thumbnails/<name>`, `<base>/images/<name>`).
enum ItemJSON {
    static func list(_ list: ItemList, base: String) throws -> Data {
        // The API's list carries neither descriptions nor images: `show` (one item) has them.
        let items = list.items.map { item in
            var listed = served(item, base: base)
            listed.descriptions = nil
            listed.images = nil
            return listed
        }
        return Data(try JSONBytesEncoder.encode(ItemList(page: list.page, items: items)))
    }

    static func item(_ item: Item, base: String) throws -> Data {
        Data(try JSONBytesEncoder.encode(served(item, base: base)))
    }

    /// The item with its pictures' names as URLs.
    static func served(_ item: Item, base: String) -> Item {
        var item = item
        item.thumbnails = item.thumbnails.map { base + "/thumbnails/" + $0 }
        item.images = item.images?.map { base + "/images/" + $0 }
        return item
    }
}
