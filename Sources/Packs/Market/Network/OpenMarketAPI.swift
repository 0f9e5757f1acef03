import ClosetLanguage
import ClosetNetwork
import ClosetPictures
import Foundation

/// The open-market API (reference §3.1, apis.md): `CLOSET_MARKET_URL` has no default; the
/// market is remote only when it is set.
enum OpenMarketAPI {
    static let api = RemoteAPI(
        name: "market", title: "open market", baseVariable: "CLOSET_MARKET_URL", defaultBase: nil, keyVariable: nil)

    /// `{"error":true,"reason":"..."}`: the server's reason.
    static func errorDetail(_ response: HTTPResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return nil }
        return object["reason"] as? String
    }
}

/// The market on an open-market server, behind the same protocol as the embedded one:
/// GET `/items/{page}`, GET `/item/{id}`, POST `/item` and PATCH `/item/{id}` as multipart
/// with `images[]` parts, DELETE `/item/{id}` with a JSON password; 404 on PATCH or DELETE
/// means a wrong password.
final class RemoteMarket: MarketRepository {
    let network: Network
    let base: String
    /// The products' pictures, by the URLs the items name.
    let pictures: ImageNetworkUseCase

    init(network: Network, base: String) {
        self.network = network
        self.base = base
        pictures = ImageNetworkUseCase(network: network)
    }

    var count: Int? { nil }

    private func request(_ route: OpenMarketRoute, body: HTTPBody? = nil, secrets: [String] = []) -> HTTPRequest {
        HTTPRequest(
            route.method, api: OpenMarketAPI.api.name, base: base, path: route.path, body: body, secretValues: secrets)
    }

    /// Sends and decodes; a 404 is the market's own error, any other failure is closet's
    /// account of it with the app's alert text for the use case (`RemoteMarketError`).
    private func decode<T: Decodable>(
        _ type: T.Type, _ request: HTTPRequest, notFound: MarketError, useCase: OpenMarketUseCase
    ) throws -> T {
        do {
            let response = try network.send(request)
            if response.status == 404 { throw notFound }
            guard OpenMarketRoute.successStatusCode.contains(response.status) else {
                throw NetworkError.status(
                    response.status, statusLine: response.statusLine, method: request.method.rawValue,
                    url: request.displayURL, detail: OpenMarketAPI.errorDetail(response))
            }
            do {
                return try JSONDecoder().decode(T.self, from: response.body)
            } catch {
                throw NetworkError.malformed(
                    url: request.displayURL,
                    expected: "an open-market \(T.self == ItemList.self ? "item list" : "item")")
            }
        } catch let error as NetworkError {
            throw RemoteMarketError.wrapping(error, useCase)
        }
    }

    func items(page: Int) throws -> ItemList {
        try decode(ItemList.self, request(.load(page: page)), notFound: .noSuchPage(page), useCase: .itemList)
    }

    func item(id: Int) throws -> Item {
        try decode(Item.self, request(.loadProduct(id: id)), notFound: .noSuchProduct(id), useCase: .item)
    }

    /// The form as the app's `PostItem`/`PatchItem` dictionary: text parts, then one
    /// `images[]` file part per picture.
    private func parts(_ form: ItemForm, password: String) throws -> [MultipartPart] {
        // The fields by the API's names, as the product's schema declares them (what the
        // server's form reader reads back).
        var parts = MarketRecords.product.apiForm(form.fields).map { MultipartPart.field($0.api, $0.text) }
        parts.append(.field("password", password, isSecret: true))
        // As the app sent them: each a JPEG of about 300 KB, named `0.jpeg`, `1.jpeg`, ...
        for (index, image) in (form.images ?? []).enumerated() {
            let type = MimeType.imageJpeg
            parts.append(
                .file(
                    "images[]", filename: "\(index)\(type.fileExtension)", contentType: type.description,
                    data: Data(try UploadPicture.jpeg(image.bytes, image.info))))
        }
        return parts
    }

    func create(_ form: ItemForm, password: String) throws -> Item {
        try decode(
            Item.self, request(.postProduct, body: .multipart(parts(form, password: password))),
            notFound: .wrongPassword, useCase: .itemEdit)
    }

    func update(id: Int, _ form: ItemForm, password: String) throws -> Item {
        // The server cannot remove a discount with a multipart PATCH; say so rather than pretend.
        if case .some(.none) = form.discountedPrice { throw MarketError.remoteCannotRemoveDiscount }
        return try write(id) {
            try decode(
                Item.self, request(.patchProduct(id: id), body: .multipart(parts(form, password: password))),
                notFound: .wrongPassword, useCase: .itemEdit)
        }
    }

    func delete(id: Int, password: String) throws -> Item {
        let body = try JSONSerialization.data(withJSONObject: ["password": password])
        return try write(id) {
            try decode(
                Item.self, request(.deleteProduct(id: id), body: .json(body), secrets: [password]),
                notFound: .wrongPassword, useCase: .item)
        }
    }

    /// A 404 on PATCH or DELETE means a wrong password, or no such item: a GET tells which,
    /// so the message is the embedded market's.
    private func write(_ id: Int, _ body: () throws -> Item) throws -> Item {
        do {
            return try body()
        } catch MarketError.wrongPassword {
            _ = try item(id: id)
            throw MarketError.wrongPassword
        }
    }
}
