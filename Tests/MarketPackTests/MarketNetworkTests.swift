import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetShell
import Foundation
import TestSupport
import Testing

@testable import MarketPack

/// Reference §3.5's enum and message tests: `HttpMethodTests`, `MimeTypeTests`,
/// `NetworkErrorTests`, `OpenMarketAPITests` and the `*ErrorTests.testErrorMessage` cases.
@Suite struct MarketMessageTests {
    @Test func httpMethodsAreTheirNames() {
        #expect(HTTPRequest.Method.get.rawValue == "GET")
        #expect(HTTPRequest.Method.post.rawValue == "POST")
        #expect(HTTPRequest.Method.patch.rawValue == "PATCH")
        #expect(HTTPRequest.Method.delete.rawValue == "DELETE")
    }

    @Test func mimeTypes() {
        #expect(MimeType.applicationJson.description == "application/json")
        #expect(MimeType.imageJpeg.description == "image/jpeg")
        #expect(MimeType.applicationJson.fileExtension == ".json")
        #expect(MimeType.imageJpeg.fileExtension == ".jpeg")
    }

    @Test func routesAreTheAppsPathsAndMethods() {
        let routes: [(OpenMarketRoute, String, HTTPRequest.Method)] = [
            (.load(page: 1), "/items/1", .get), (.loadProduct(id: 1), "/item/1", .get), (.postProduct, "/item", .post),
            (.patchProduct(id: 1), "/item/1", .patch), (.deleteProduct(id: 1), "/item/1", .delete),
        ]
        for (route, path, method) in routes {
            #expect(route.path == path && route.method == method, "\(route)")
        }
        #expect(OpenMarketRoute.successStatusCode == 200...299)
    }

    @Test func networkErrorMessages() {
        #expect(OpenMarketNetworkError.connectionProblem.message == "dataTask작업 error 존재")
        #expect(OpenMarketNetworkError.invalidResponseStatuscode(404).message == "Response StatusCode 404")
        #expect(OpenMarketNetworkError.invalidData.message == "dataTask작업 Data 미반환")
        #expect(OpenMarketNetworkError.invalidURL.message == "유효하지 않는 URL")
        #expect(OpenMarketNetworkError.invalidRequest.message == "유효하지 않는 Request")
    }

    /// closet's failures classified as the app's `NetworkManager` classified them.
    @Test func closetsFailuresAreTheAppsErrors() {
        let status = NetworkError.status(
            500, statusLine: "500 Internal Server Error", method: "GET", url: "u", detail: nil)
        #expect(OpenMarketNetworkError(status) == .invalidResponseStatuscode(500))
        #expect(OpenMarketNetworkError(.connectionRefused(host: "h")) == .connectionProblem)
        #expect(OpenMarketNetworkError(.invalidBaseURL(variable: "V", value: "x")) == .invalidURL)
        #expect(OpenMarketUseCaseFailure(.malformed(url: "u", expected: "x")) == .decodingError)
    }

    @Test func useCaseAndScreenMessages() {
        let noData = NetworkError.malformed(url: "u", expected: "x")
        #expect(OpenMarketUseCase.itemList.screenMessage(noData) == "UseCase Decoding Error")
        #expect(OpenMarketUseCase.item.screenMessage(noData) == "UseCase Decoding Error")
        #expect(OpenMarketUseCase.itemEdit.screenMessage(noData) == "Item Edit UseCase Decoding 에러 발생")
        #expect(
            OpenMarketUseCase.itemEdit.message(.networkError(.invalidData))
                == "Networking Error - dataTask작업 Data 미반환")
        #expect(
            ItemEditViewModel.ItemEditError.edit(
                RemoteMarketError(cause: .failed(url: "u", reason: "r"), useCase: .itemEdit)
            )
            .message == "Item Edit UseCase Networking Error - dataTask작업 error 존재")
        #expect(
            ItemEditViewModel.ItemEditError.image(.convertDataToImageError).message
                == "Image Load UseCase Can't convert Data to Image error")
        #expect(
            ImageNetworkUseCaseError.networkError(.connectionProblem).message
                == "Networking Error - dataTask작업 error 존재")
        #expect(ImageNetworkUseCaseError.invalidURL.message == "Invalid URL 주소")
        // The market's own errors keep their words under the screen's prefix.
        #expect(OpenMarketUseCase.item.screenMessage(MarketError.noSuchProduct(9)) == "UseCase no product has id 9")
    }
}

/// Reference §3.5 `ItemEditNetworkUseCaseTests` and `ImageNetworkUseCaseTests`, against a
/// loopback server answering as the test says.
@Suite struct MarketUseCaseNetworkTests {
    static let png = SampleImages.png(width: 2, height: 2)

    func network() -> Network {
        Network(
            transport: HelperTransport(timeoutSeconds: 5, userAgent: "t", helperPath: HelperPath.path), environment: [:]
        )
    }

    /// A server whose item names two pictures on itself; `/items/*` and PATCH answer a list.
    func server() throws -> LoopbackServer {
        let picture = Self.png
        return try LoopbackServer { request in
            switch (request.method, request.path) {
            case ("GET", "/pictures/1.png"), ("GET", "/pictures/2.png"):
                return .respond(status: 200, headers: ["Content-Type": "image/png"], body: Data(picture))
            case ("GET", "/pictures/not-a-picture.png"): return .json(MarketDecodingTests.mockItem)
            case ("GET", "/item/1"), ("GET", "/item/2"):
                let pictures = request.path == "/item/1" ? ["1.png", "2.png"] : ["not-a-picture.png"]
                let port = request.header("Host") ?? ""
                let urls = pictures.map { "\"http://\(port)/pictures/\($0)\"" }.joined(separator: ",")
                return .json(
                    #"{"id":1,"title":"MacBook Pro","descriptions":"M1","price":1690000,"currency":"KRW","stock":1,"thumbnails":[],"images":["#
                        + urls + #"],"registration_date":1611523563.719116}"#)
            case ("GET", "/items/1"):
                let port = request.header("Host") ?? ""
                return .json(
                    #"{"page":1,"items":[{"id":1,"title":"MacBook Pro","price":1690000,"currency":"KRW","stock":1,"thumbnails":["http://"#
                        + port + #"/pictures/1.png"],"registration_date":1611523563.719116}]}"#)
            case ("GET", "/items/2"): return .json(#"{"page":2,"items":[]}"#)
            // Where a list is asked for, an item: the list cannot be decoded.
            case ("GET", "/items/3"): return .json(MarketDecodingTests.mockItem)
            case ("PATCH", _): return .json(MarketDecodingTests.mockItemList)
            case ("POST", _): return .json(#"{"error":true,"reason":"broken"}"#, status: 500)
            default: return .json("{}", status: 404)
            }
        }
    }

    @Test func editLoadsTheItemAndItsPicturesInOrder() throws {
        let server = try server()
        defer { server.stop() }
        let network = network()
        let market = RemoteMarket(network: network, base: server.baseURL)
        let viewModel = ItemEditViewModel(id: 1, market: market, images: market.pictures)
        viewModel.loadItem()
        guard case .initial(let item) = viewModel.state else {
            Issue.record("\(viewModel.state)")
            return
        }
        #expect(item.title == "MacBook Pro" && viewModel.imageCount == 2)
        #expect(viewModel.images.allSatisfy { $0.bytes == Self.png })
        // A picture that is not one is the image use case's error.
        let broken = ItemEditViewModel(id: 2, market: market, images: market.pictures)
        broken.loadItem()
        #expect(broken.state == .error(.imageUseCaseError("Image Load UseCase Can't convert Data to Image error")))
    }

    @Test func aPatchAnsweredWithAListIsADecodingError() throws {
        let server = try server()
        defer { server.stop() }
        let market = RemoteMarket(network: network(), base: server.baseURL)
        let viewModel = ItemEditViewModel(id: 1, market: market)
        _ = viewModel.addImage((Self.png, try ImageHeader.inspect(Self.png)))
        _ = viewModel.validate(
            titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: nil,
            descriptionsText: "d")
        viewModel.updateItem(password: "pw")
        #expect(viewModel.state == .error(.editUseCaseError("Item Edit UseCase Decoding 에러 발생")))
    }

    /// Issue 41: the client's form and the server's reader are both the product's schema. What
    /// the app's register screen posts (its fields by the API's names, then the password and
    /// the pictures) is what `closet serve` reads back as `add product`'s arguments.
    @Test func theFormTheClientPostsIsTheOneTheServerReads() throws {
        let server = try server()
        defer { server.stop() }
        let market = RemoteMarket(network: network(), base: server.baseURL)
        let viewModel = ItemEditViewModel(market: market)
        _ = viewModel.addImage((Self.png, try ImageHeader.inspect(Self.png)))
        _ = viewModel.validate(
            titleText: "니트 \"A\"", stockText: "3", currencyText: "USD", priceText: "100", discountedPriceText: "90",
            descriptionsText: "따뜻한")
        viewModel.registerItem(password: "pw")
        let post = try #require(server.requests.first { $0.method == "POST" })
        let type = try #require(post.headers.first { $0.name.lowercased() == "content-type" }?.value)
        let parts = try #require(
            MultipartParser.parts(of: post.body, boundary: MultipartParser.boundary(of: type) ?? ""))
        #expect(
            parts.filter { $0.filename == nil }.map(\.name) == [
                "title", "price", "currency", "stock", "descriptions", "discounted_price", "password",
            ])
        let request = OpenMarketService.command(["add", "product"], parts)
        #expect(
            request.arguments.map { "\($0.key)=\($0.value)" } == [
                "title=니트 \"A\"", "price=100", "currency=USD", "stock=3", "description=따뜻한", "discounted=90",
                "password=pw", "image=images[0] '0.jpeg'",
            ])
    }

    @Test func aFailedPostIsANetworkError() throws {
        let server = try server()
        let market = RemoteMarket(network: network(), base: server.baseURL)
        let viewModel = ItemEditViewModel(market: market)
        _ = viewModel.addImage((Self.png, try ImageHeader.inspect(Self.png)))
        _ = viewModel.validate(
            titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: nil,
            descriptionsText: "d")
        viewModel.registerItem(password: "pw")
        #expect(
            viewModel.state == .error(.editUseCaseError("Item Edit UseCase Networking Error - Response StatusCode 500"))
        )
        server.stop()
        _ = viewModel.validate(
            titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: nil,
            descriptionsText: "d")
        viewModel.registerItem(password: "pw")
        #expect(
            viewModel.state == .error(.editUseCaseError("Item Edit UseCase Networking Error - dataTask작업 error 존재")))
    }

    @Test func imagesAreFetchedOnceCheckedAndTheirFailuresNamed() throws {
        let server = try server()
        let pictures = ImageNetworkUseCase(network: network())
        let url = server.baseURL + "/pictures/1.png"
        #expect(try pictures.retrieveImage(with: url).info.format == .png)
        #expect(try pictures.retrieveImage(with: url).bytes == Self.png)
        #expect(server.requests.filter { $0.path == "/pictures/1.png" }.count == 1)
        #expect(throws: ImageNetworkUseCaseError.convertDataToImageError) {
            try pictures.retrieveImage(with: server.baseURL + "/pictures/not-a-picture.png")
        }
        #expect(throws: ImageNetworkUseCaseError.invalidURL) { try pictures.retrieveImage(with: "") }
        server.stop()
        #expect(throws: ImageNetworkUseCaseError.networkError(.connectionProblem)) {
            try pictures.retrieveImage(with: server.baseURL + "/pictures/2.png")
        }
    }

    /// At the prompt: closet's account of the failure, then the app's alert text.
    @Test func thePromptSaysBothClosetsAndTheAppsWords() throws {
        let server = try server()
        defer { server.stop() }
        let (session, host) = try liveMarketSession(server.baseURL)
        host.binaryFiles["a.png"] = Self.png
        #expect(
            !session.executeAndCommit(
                StatementSource(
                    "add product title=t price=10 currency=KRW stock=1 description=d image=a.png password=pw")))
        #expect(
            host.standardError.hasPrefix(
                "error: POST \(server.baseURL)/item failed: HTTP 500 Internal Server Error: broken (Item Edit UseCase Networking Error - Response StatusCode 500)"
            ), "\(host.standardError)")
        host.clear()
        #expect(!session.executeAndCommit(StatementSource("list products page=3")))
        #expect(host.standardError.contains("(UseCase Decoding Error)"), "\(host.standardError)")
        host.clear()
        // export images= fetches a server's pictures by their URLs, saved by their last part.
        #expect(
            session.executeAndCommit(StatementSource("export products to=p.json images=pics")), "\(host.standardError)")
        #expect(host.binaryFiles["pics/1.png"] == Self.png && host.binaryFiles["pics/2.png"] == Self.png)
        #expect(host.files["p.json"]?.contains("/pictures/1.png") == true)
        // A server takes products one add at a time: an import says it fills the embedded market only.
        host.clear()
        #expect(!session.executeAndCommit(StatementSource("import products from=p.json images=pics password=pw")))
        #expect(
            host.standardError.contains("import products works on the embedded market only"), "\(host.standardError)")
        // and import products reads them back by those names (into the embedded market).
        var local = SessionFactory.Configuration.golden
        local.settings.echo = false
        let importer = RecordingHost()
        importer.binaryFiles = host.binaryFiles
        let embedded = try SessionFactory.makeSession(store: SessionFactory.memoryStore(), host: importer, local)
        #expect(
            embedded.executeAndCommit(StatementSource("import products from=p.json images=pics password=pw")),
            "\(importer.standardError)")
        #expect(embedded.executeAndCommit(StatementSource("show product 1")))
        #expect(importer.standardOutput.contains("MacBook Pro"))
    }
}
