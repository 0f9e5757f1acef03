import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The 2021 open-market API (reference §3.1, SPEC-packs §12), answered by `closet serve` from the
/// embedded market, so the app (whose server is gone) runs against closet: GET `/items/{page}`
/// and `/item/{id}`, POST `/item` and PATCH `/item/{id}` as multipart (`params` text parts and
/// `images[]` files), DELETE `/item/{id}` with a JSON password; 404 for an unknown id or a wrong
/// password; pictures at the URLs the items name (`/images/<name>`, `/thumbnails/<name>`). Every
/// write is the pack's own command (`add product`, `edit product`, `remove product`), run from
/// the form: the same keys, conversions, checks and password rules as at the prompt.
enum OpenMarketService {
    static let api = ServedAPI(
        name: "market",
        summary: "the open market: GET /items/{page}, GET /item/{id}, POST /item, PATCH /item/{id}, DELETE /item/{id}",
        readsOnlyTheStore: true, claims: { _, path in claims(path) }, error: { error($1, $0) }, failure: failure,
        answer: answer)

    static func claims(_ path: String) -> Bool {
        let first = path.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first
        return first.map { ["items", "item", "images", "thumbnails"].contains($0) } ?? false
    }

    static func claims(_ request: ServedRequest) -> Bool { claims(request.path) }

    /// The 2021 server's breakage: a 500 with its error shape.
    static func failure(_ request: ServedRequest) -> HTTPResponse? {
        claims(request) ? error("Internal Server Error", 500) : nil
    }

    static func answer(_ request: ServedRequest, _ context: ServedContext) throws -> HTTPResponse? {
        guard claims(request), let segments = request.segments, let first = segments.first else { return nil }
        guard let market = context.session.state(MarketState.self)?.embedded else {
            return error("the market is not running on this store", 500)
        }
        switch (request.method, first, segments.count) {
        case ("GET", "items", 2), ("HEAD", "items", 2):
            guard let page = WholeNumber.value(segments[1]), page >= 1 else {
                return error("the page must be a whole number from 1 to \(WholeNumber.maximum)", 400)
            }
            return json(ItemJSON.list(list(try market.items(page: page), context.baseURL)))
        case ("GET", "item", 2), ("HEAD", "item", 2):
            guard let id = itemID(segments[1]) else { return badID }
            guard let item = try? market.item(id: id) else { return error("no such item", 404) }
            return json(ItemJSON.item(detail(item, context.baseURL)))
        case ("POST", "item", 1):
            guard let parts = request.multipart else { return error("the body is not multipart/form-data", 400) }
            return try write(command(["add", "product"], parts), context) { try market.item(id: $0) }
        case ("PATCH", "item", 2):
            guard let id = itemID(segments[1]) else { return badID }
            guard let parts = request.multipart else { return error("the body is not multipart/form-data", 400) }
            return try write(command(["edit", "product"], parts, id: id), context) { try market.item(id: $0) }
        case ("DELETE", "item", 2):
            guard let id = itemID(segments[1]) else { return badID }
            let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            guard let password = object?["password"] as? String else {
                return error("the body must be JSON with a password", 400)
            }
            // The answer is the item as it was: read before it goes, in the same transaction.
            guard let item = try? market.item(id: id) else { return error("no item with that id and password", 404) }
            let remove = CommandRequest(
                ["remove", "product"], parameters: [String(id)], arguments: [("password", password)])
            return try write(remove, context) { _ in item }
        case ("GET", "images", 2), ("GET", "thumbnails", 2), ("HEAD", "images", 2), ("HEAD", "thumbnails", 2):
            // Only a stored picture's own name: nothing else of the store, nothing outside it.
            let name = segments[1]
            guard BlobStoreNames.isValid(name) else { return error("no such image", 404) }
            let bytes =
                first == "thumbnails"
                ? ProductThumbnail.bytes(named: name) { market.picture(named: name) } : market.picture(named: name)
            guard let bytes else { return error("no such image", 404) }
            return ServedPictures.picture(bytes, for: request)
        default:
            return error("\(request.method) is not a route of this API", 405)
        }
    }

    /// An id as a path gives it: a whole number from 1 (`WholeNumber`), else nil.
    static func itemID(_ text: String) -> Int? { WholeNumber.value(text).flatMap { $0 >= 1 ? $0 : nil } }

    static var badID: HTTPResponse { error("the id must be a whole number from 1 to \(WholeNumber.maximum)", 400) }

    // MARK: writes: the pack's own commands

    /// The form's parts by the API's names (the app's `PostItem` and `PatchItem` fields), and
    /// the command key each is: declared on the product's schema (its inputs' `api` names), and
    /// the password. Its `images[]` files are the command's `image`.
    static let fields: [(api: String, key: String)] = MarketRecords.product.apiNames + [("password", "password")]
    /// The pictures are files, never text: a text field named `images[]` names no file to read.
    static let textFields = fields.filter { $0.key != "image" }

    /// A form as the command it asks for (`add product`, or `edit product <id>`): every text
    /// part the API names becomes its key's argument, every `images[]` file an attachment the
    /// `image` argument names. Nothing is checked here: the command checks everything.
    static func command(_ words: [String], _ parts: [MultipartPart], id: Int? = nil) -> CommandRequest {
        var request = CommandRequest(words, parameters: id.map { [String($0)] } ?? [])
        for (api, key) in textFields {
            if let text = parts.text(api) { request.arguments.append((key, text)) }
        }
        let files = parts.filter { $0.name == "images[]" && $0.filename != nil }
        if !files.isEmpty {
            var names: [String] = []
            for (index, file) in files.enumerated() {
                let name = "images[\(index)] '\(file.filename ?? "")'"
                request.attachments[name] = [UInt8](file.data)
                names.append(name)
            }
            request.arguments.append(("image", names.joined(separator: ",")))
        }
        return request
    }

    /// Runs a write's command in the request's transaction and answers with the item it made
    /// (by the id its outcome names), or the command's diagnostic in the API's error shape: a
    /// wrong password or an unknown id is a 404, as the 2021 server answered; anything else a
    /// 400 naming the API's field.
    static func write(
        _ command: CommandRequest, _ context: ServedContext, item: (Int) throws -> Item
    ) throws -> HTTPResponse {
        let outcome: Outcome
        do throws(CommandFailure) {
            outcome = try context.session.run(command)
        } catch {
            switch error.id {
            case "market.wrong-password":
                context.passwordRefused()
                return Self.error("no item with that id and password", 404)
            case "market.no-such-product", "market.product-id":
                return Self.error("no item with that id and password", 404)
            case "market.images":
                // The 2021 server's own words for it.
                return Self.error("The number of images must be 5 or less", 400)
            case "store.failed":
                throw StoreError(error.message)
            default:
                let field = error.key.map { key in
                    fields.first { $0.key == key }?.api ?? key
                }
                return Self.error(field.map { "\($0): " + error.message } ?? error.message, 400)
            }
        }
        let id: Int
        if case .entities(let entities) = outcome {
            guard let key = entities.keys.first, let number = Int(key.short) else {
                return error("the command named no item", 500)
            }
            id = number
        } else {
            id = command.parameters.first.flatMap { Int($0) } ?? 0
        }
        return json(ItemJSON.item(detail(try item(id), context.baseURL)))
    }

    // MARK: answers

    /// An item as the API gives it, its pictures as URLs on this server.
    static func detail(_ item: Item, _ base: String) -> Item {
        var item = item
        item.thumbnails = item.thumbnails.map { base + "/thumbnails/" + $0 }
        item.images = item.images.map { $0.map { base + "/images/" + $0 } }
        return item
    }

    static func list(_ list: ItemList, _ base: String) -> ItemList {
        var list = list
        list.items = list.items.map { detail($0, base) }
        return list
    }

    static func json(_ body: Data) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    /// The server's error shape: `{"error":true,"reason":"..."}`.
    static func error(_ reason: String, _ status: Int) -> HTTPResponse {
        let body =
            (try? JSONSerialization.data(
                withJSONObject: ["error": true, "reason": reason], options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        return HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
    }
}

extension [MultipartPart] {
    /// The text of the last field named `name` (files are not fields).
    func text(_ name: String) -> String? { last { $0.name == name && $0.filename == nil }?.text }
}
