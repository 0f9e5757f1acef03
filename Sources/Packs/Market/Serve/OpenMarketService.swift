import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServing
import ClosetTables
import Foundation

/// The 2021 open-market API (reference §3.1, SPEC-packs §12), answered by `closet serve` from the
/// embedded market, so the app (whose server is gone) runs against closet: GET `/items/{page}`
/// and `/item/{id}`, POST `/item` and PATCH `/item/{id}` as multipart (`params` text parts and
/// `images[]` files), DELETE `/item/{id}` with a JSON password; 404 for an unknown id or a wrong
/// password; pictures at the URLs the items name (`/images/<name>`, `/thumbnails/<name>`). Every
/// write is the pack's own command (`add product`, `edit product`, `remove product`), run from
/// the form: the same keys, conversions, checks and password rules as at the prompt.
enum OpenMarketService {
    /// The routes, each one declaration; the engine's router checks `{page}` and `{id}` before a
    /// route runs and answers what no route takes with a 405 in this API's shape.
    static let api = ServedAPI(
        name: "market",
        routes: [
            ServedRoute(["GET"], [.word("items"), .number("page", least: 1)]) { match, _, context in
                try withMarket(context) { market in
                    json(try ItemJSON.list(try market.items(page: match.number("page")), base: context.baseURL))
                }
            },
            ServedRoute(["GET"], [.word("item"), .number("id", least: 1)]) { match, _, context in
                try withMarket(context) { market in
                    guard let item = try? market.item(id: match.number("id")) else { return error("no such item", 404) }
                    return json(try ItemJSON.item(item, base: context.baseURL))
                }
            },
            ServedRoute(["POST"], [.word("item")]) { _, request, context in
                try withMarket(context) { market in
                    guard let parts = request.multipart else {
                        return error("the body is not multipart/form-data", 400)
                    }
                    return try write(command(["add", "product"], parts), context) { try market.item(id: $0) }
                }
            },
            ServedRoute(["PATCH"], [.word("item"), .number("id", least: 1)]) { match, request, context in
                try withMarket(context) { market in
                    guard let parts = request.multipart else {
                        return error("the body is not multipart/form-data", 400)
                    }
                    return try write(command(["edit", "product"], parts, id: match.number("id")), context) {
                        try market.item(id: $0)
                    }
                }
            },
            ServedRoute(["DELETE"], [.word("item"), .number("id", least: 1)]) { match, request, context in
                try withMarket(context) { market in try delete(match.number("id"), request, market, context) }
            },
            ServedRoute(["GET"], [.word("images"), .text("name")]) { match, request, context in
                try withMarket(context) { market in picture(match.text("name"), thumbnail: false, request, market) }
            },
            ServedRoute(["GET"], [.word("thumbnails"), .text("name")]) { match, request, context in
                try withMarket(context) { market in picture(match.text("name"), thumbnail: true, request, market) }
            },
        ],
        readsOnlyTheStore: true, error: { error($1, $0) },
        // The 2021 server's breakage: a 500 with its error shape.
        failure: { _ in error("Internal Server Error", 500) },
        // What the app's tests read (its MockData): the first page, and each item on it.
        fixtures: { context in
            guard let market = context.session.state(MarketState.self)?.embedded else { return [] }
            return [ServedFixture("items-1.json", get: "/items/1")]
                + (try market.items(page: 1)).items.map { ServedFixture("item-\($0.id).json", get: "/item/\($0.id)") }
        })

    /// A route's answer from the embedded market (a 500 where the store holds none).
    static func withMarket(_ context: ServedContext, _ answer: (EmbeddedMarket) throws -> HTTPResponse) throws
        -> HTTPResponse
    {
        guard let market = context.session.state(MarketState.self)?.embedded else {
            return error("the market is not running on this store", 500)
        }
        return try answer(market)
    }

    /// DELETE `/item/{id}`: the JSON body's password, and the item as it was (read before it
    /// goes, in the same transaction).
    static func delete(_ id: Int, _ request: ServedRequest, _ market: EmbeddedMarket, _ context: ServedContext) throws
        -> HTTPResponse
    {
        let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
        guard let password = object?["password"] as? String else {
            return error("the body must be JSON with a password", 400)
        }
        guard let item = try? market.item(id: id) else { return error("no item with that id and password", 404) }
        let remove = CommandRequest(
            ["remove", "product"], parameters: [String(id)], arguments: [("password", password)])
        return try write(remove, context) { _ in item }
    }

    /// The list cell's pictures: its image is at most about 70 points a side; at three pixels a
    /// point, 200 pixels for the longer side.
    static let thumbnails = ServedThumbnails(longestSide: 200)

    /// A stored picture by its own name only: nothing else of the store, nothing outside it.
    static func picture(_ name: String, thumbnail: Bool, _ request: ServedRequest, _ market: EmbeddedMarket)
        -> HTTPResponse
    {
        guard BlobStoreNames.isValid(name) else { return error("no such image", 404) }
        let bytes =
            thumbnail
            ? thumbnails.bytes(named: name) { market.picture(named: name) } : market.picture(named: name)
        guard let bytes else { return error("no such image", 404) }
        return ServedPictures.picture(bytes, for: request)
    }

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
        request.attach(parts, field: "images[]", as: "image")
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
        return json(try ItemJSON.item(try item(id), base: context.baseURL))
    }

    // MARK: answers

    static func json(_ body: Data) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
    }

    /// The server's error shape: `{"error":true,"reason":"..."}`.
    static func error(_ reason: String, _ status: Int) -> HTTPResponse {
        // By hand: JSONSerialization was a sixth of the server's loop refusing guessed passwords.
        let body = Data((#"{"error":true,"reason":"# + JSONText.string(reason) + "}").utf8)
        return HTTPResponse(
            status: status, headers: [HTTPHeader("Content-Type", "application/json; charset=utf-8")], body: body)
    }
}
