import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The 2021 open-market API (reference §3.1, SPEC-packs §12), answered by `closet serve` from the
/// embedded market, so the app (whose server is gone) runs against closet: GET `/items/{page}`
/// and `/item/{id}`, POST `/item` and PATCH `/item/{id}` as multipart (`params` text parts and
/// `images[]` files), DELETE `/item/{id}` with a JSON password; 404 for an unknown id or a wrong
/// password; pictures at the URLs the items name (`/images/<name>`, `/thumbnails/<name>`).
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
            let form = try form(parts)
            guard case .success(let form) = form else { return form.failure }
            guard let password = parts.text("password"), !password.isEmpty else {
                return error("a password is required", 400)
            }
            for name in ["title", "price", "currency", "stock", "descriptions"] where parts.text(name) == nil {
                return error("'\(name)' is required", 400)
            }
            guard form.images?.isEmpty == false else { return error("at least one image is required", 400) }
            return json(ItemJSON.item(detail(try market.create(form, password: password), context.baseURL)))
        case ("PATCH", "item", 2):
            guard let id = itemID(segments[1]) else { return badID }
            guard let parts = request.multipart else { return error("the body is not multipart/form-data", 400) }
            let form = try form(parts)
            guard case .success(let form) = form else { return form.failure }
            do {
                let item = try market.update(id: id, form, password: parts.text("password") ?? "")
                return json(ItemJSON.item(detail(item, context.baseURL)))
            } catch MarketError.wrongPassword {
                context.passwordRefused()
                return error("no item with that id and password", 404)
            } catch MarketError.noSuchProduct {
                return error("no item with that id and password", 404)
            }
        case ("DELETE", "item", 2):
            guard let id = itemID(segments[1]) else { return badID }
            let object = (try? JSONSerialization.jsonObject(with: request.body)) as? [String: Any]
            guard let password = object?["password"] as? String else {
                return error("the body must be JSON with a password", 400)
            }
            do {
                return json(ItemJSON.item(detail(try market.delete(id: id, password: password), context.baseURL)))
            } catch MarketError.wrongPassword {
                context.passwordRefused()
                return error("no item with that id and password", 404)
            } catch MarketError.noSuchProduct {
                return error("no item with that id and password", 404)
            }
        case ("GET", "images", 2), ("GET", "thumbnails", 2), ("HEAD", "images", 2), ("HEAD", "thumbnails", 2):
            // Only a stored picture's own name: nothing else of the store, nothing outside it.
            let name = segments[1]
            guard BlobStoreNames.isValid(name), let bytes = market.picture(named: name) else {
                return error("no such image", 404)
            }
            return HTTPResponse(
                status: 200, headers: [HTTPHeader("Content-Type", name.hasSuffix(".png") ? "image/png" : "image/jpeg")],
                body: Data(bytes))
        default:
            return error("\(request.method) is not a route of this API", 405)
        }
    }

    /// An id as a path gives it: a whole number from 1 (`WholeNumber`), else nil.
    static func itemID(_ text: String) -> Int? { WholeNumber.value(text).flatMap { $0 >= 1 ? $0 : nil } }

    static var badID: HTTPResponse { error("the id must be a whole number from 1 to \(WholeNumber.maximum)", 400) }

    // MARK: the form

    enum FormResult {
        case success(ItemForm)
        case failure(HTTPResponse)

        var failure: HTTPResponse {
            if case .failure(let response) = self { return response }
            return error("", 500)
        }
    }

    /// The parts as the app's `PostItem`/`PatchItem` carried them; every text checked as the
    /// embedded market checks a statement's.
    static func form(_ parts: [MultipartPart]) throws -> FormResult {
        var form = ItemForm()
        form.title = parts.text("title")
        form.descriptions = parts.text("descriptions")
        for (name, write) in [
            ("price", { (value: Int) in form.price = value }), ("stock", { form.stock = $0 }),
            ("discounted_price", { form.discountedPrice = .some($0) }),
        ] {
            guard let text = parts.text(name) else { continue }
            guard let value = WholeNumber.value(text) else {
                return .failure(error("'\(name)' must be a whole number from 0 to \(WholeNumber.maximum)", 400))
            }
            write(value)
        }
        if let text = parts.text("currency") {
            guard let currency = Currency.allCases.first(where: { $0.englishName == text.uppercased() }) else {
                return .failure(error("unknown currency '\(text)'", 400))
            }
            form.currency = currency
        }
        let files = parts.filter { $0.name == "images[]" && $0.filename != nil }
        guard files.count <= MarketError.maximumImageCount else {
            return .failure(error("The number of images must be 5 or less", 400))
        }
        if !files.isEmpty {
            var images: [(bytes: [UInt8], info: ImageInfo)] = []
            for file in files {
                let bytes = [UInt8](file.data)
                guard var info = try? ImageHeader.inspect(bytes) else {
                    return .failure(error("'\(file.filename ?? "")' is not a PNG or JPEG picture", 400))
                }
                info.checksum = Checksum.crc32(bytes)
                images.append((bytes, info))
            }
            form.images = images
        }
        return .success(form)
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
