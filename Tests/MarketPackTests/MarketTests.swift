import ClosetCore
import ClosetCrypto
import ClosetLanguage
import ClosetPictures
import ClosetShell
import Foundation
import TestSupport
import Testing

@testable import MarketPack

/// Reference §3.5 `DecodingTests` with the app's fixtures (MockItem, MockItemList).
@Suite struct MarketDecodingTests {
    static let mockItem = #"""
        {"id":1,"title":"MacBook Pro","descriptions":"Apple M1 칩은 13형 MacBook Pro에 믿을 수 없을 만큼의 속도와 파워를 선사합니다","price":1690000,"currency":"KRW","stock":1000000000000,"thumbnails":["https://camp-open-market.s3.ap-northeast-2.amazonaws.com/thumbnails/1-1.png","https://camp-open-market.s3.ap-northeast-2.amazonaws.com/thumbnails/1-2.png"],"images":["https://camp-open-market.s3.ap-northeast-2.amazonaws.com/images/1-1.png","https://camp-open-market.s3.ap-northeast-2.amazonaws.com/images/1-2.png"],"registration_date":1611523563.719116}
        """#
    static let mockItemList = #"""
        {"page":1,"items":[
        {"id":1,"title":"MacBook Pro","price":1690,"currency":"USD","stock":0,"thumbnails":["a","b"],"registration_date":1611523563.7237701},
        {"id":2,"title":"MacBook Air","price":1290000,"currency":"KRW","stock":1000000000000,"thumbnails":["c"],"registration_date":1611523563.7237701},
        {"id":3,"title":"Mac mini","price":890000,"currency":"KRW","stock":90,"discounted_price":89000,"thumbnails":["d"],"registration_date":1611523563.7237701},
        {"id":4,"title":"iPad Pro","price":999000,"currency":"KRW","stock":200000000,"thumbnails":["e"],"registration_date":1611523563.7237701},
        {"id":5,"title":"Apple Pencil","price":165,"currency":"USD","stock":5000000,"discounted_price":160,"thumbnails":["f"],"registration_date":1611523563.7237701}]}
        """#

    @Test func mockItemDecodes() throws {
        let item = try JSONDecoder().decode(Item.self, from: Data(Self.mockItem.utf8))
        #expect(item.title == "MacBook Pro" && item.images?.count == 2 && item.thumbnails.count == 2)
        #expect(item.discountedPrice == nil && item.registrationDate == 1_611_523_563.719116)
    }

    @Test func mockItemListDecodes() throws {
        let list = try JSONDecoder().decode(ItemList.self, from: Data(Self.mockItemList.utf8))
        #expect(list.page == 1 && list.items.count == 5 && list.items[0].title == "MacBook Pro")
        #expect(list.items[2].discountedPrice == 89000 && list.items[0].descriptions == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ItemList.self, from: Data(Self.mockItem.utf8)) }
    }
}

/// Reference §3.5 `ItemListCellViewModelTests` labels and `ItemEditViewModelTests`.
@Suite struct MarketViewModelTests {
    static let picture = (
        bytes: SampleImages.png(width: 2, height: 2), info: ImageInfo(format: .png, width: 2, height: 2, bytes: 75)
    )

    @Test func labels() {
        #expect(ItemLabels.stock(12) == "수량 : 12")
        #expect(ItemLabels.stock(0) == "품절")
        #expect(ItemLabels.stock(1000) == "수량 : 999+" && ItemLabels.stock(999) == "수량 : 999")
        #expect(ItemLabels.price(30000, currency: "KRW") == "KRW 30,000")
        #expect(ItemLabels.price(1_690_000, currency: "KRW") == "KRW 1,690,000")
    }

    @Test func currenciesAreSortedAsTheAppSortsThem() {
        #expect(ItemEditViewModel.currencies == ["BTC", "CNY", "EUR", "JPY", "KRW", "USD"])
        #expect(Currency.allCases.map(\.englishName) == ItemEditViewModel.currencies)
        #expect(Currency.named("원") == .krw && Currency.named("usd") == .usd)
    }

    @Test func aValidFormIsSatisfied() {
        let viewModel = ItemEditViewModel()
        #expect(viewModel.addImage(Self.picture))
        let state = viewModel.validate(
            titleText: "iPhone13 mini", stockText: "13", currencyText: "USD", priceText: "10000",
            discountedPriceText: "8500", descriptionsText: "작은 아이폰")
        #expect(state == .satisfied && viewModel.discountedPrice == 8500 && viewModel.price == 10000)
    }

    @Test func missingFieldsOrADiscountNotBelowThePriceAreDissatisfied() {
        let empty = ItemEditViewModel()
        #expect(
            empty.validate(
                titleText: nil, stockText: nil, currencyText: nil, priceText: nil, discountedPriceText: nil,
                descriptionsText: nil) == .dissatisfied)
        let discount = ItemEditViewModel()
        _ = discount.addImage(Self.picture)
        #expect(
            discount.validate(
                titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: "100",
                descriptionsText: "d") == .dissatisfied)
        let placeholder = ItemEditViewModel()
        _ = placeholder.addImage(Self.picture)
        #expect(
            placeholder.validate(
                titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: nil,
                descriptionsText: ItemEditViewModel.descriptionPlaceholder) == .dissatisfied)
        let noImage = ItemEditViewModel()
        #expect(
            noImage.validate(
                titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: "",
                descriptionsText: "d") == .dissatisfied)
    }

    /// The reference's `ItemEditViewModelTests` that go through the market: load, register,
    /// update, their failures, and the picture cells.
    @Test func loadRegisterUpdateAndTheirFailures() throws {
        let harness = Harness(format: .json)
        let state = harness.session.packs.catalog(for: Market.product) as? MarketState
        let market = try #require(try state?.market())
        let viewModel = ItemEditViewModel(market: market)
        #expect(viewModel.addImage(Self.picture) && viewModel.state == .addPhoto(1))
        _ = viewModel.validate(
            titleText: "iPhone13 mini", stockText: "13", currencyText: "USD", priceText: "10000",
            discountedPriceText: "8500", descriptionsText: "작은 아이폰")
        viewModel.registerItem(password: "1234")
        guard case .register(let registered) = viewModel.state else {
            Issue.record("register: \(viewModel.state)")
            return
        }
        #expect(registered.title == "iPhone13 mini" && registered.discountedPrice == 8500)

        let editor = ItemEditViewModel(id: registered.id, market: market)
        editor.loadItem()
        #expect(editor.state == .initial(try market.item(id: registered.id)))
        _ = editor.addImage(Self.picture)
        _ = editor.validate(
            titleText: "iPhone13 mini", stockText: "0", currencyText: "USD", priceText: "10000",
            discountedPriceText: nil, descriptionsText: "작은 아이폰")
        editor.updateItem(password: "1234")
        guard case .update(let updated) = editor.state else {
            Issue.record("update: \(editor.state)")
            return
        }
        #expect(updated.stock == 0)
        // Failures: an id the market does not have, a wrong password.
        let missing = ItemEditViewModel(id: 999, market: market)
        missing.loadItem()
        #expect(missing.state == .error(.editUseCaseError("Item Edit UseCase no product has id 999")))
        for (id, password, message) in [
            (999, "1234", "no product has id 999"),
            (registered.id, "nope", MarketError.wrongPassword.message),
        ] {
            let failing = ItemEditViewModel(id: id, market: market)
            _ = failing.addImage(Self.picture)
            _ = failing.validate(
                titleText: "t", stockText: "1", currencyText: "KRW", priceText: "100", discountedPriceText: nil,
                descriptionsText: "d")
            failing.updateItem(password: password)
            #expect(failing.state == .error(.editUseCaseError("Item Edit UseCase " + message)), "\(id)")
        }
    }

    @Test func addingAndDeletingPicturesNameTheirCells() {
        let viewModel = ItemEditViewModel()
        #expect(viewModel.addImage(Self.picture) && viewModel.state == .addPhoto(1))
        viewModel.deleteImage(at: 1)
        #expect(viewModel.state == .deletePhoto(1) && viewModel.imageCount == 0)
    }

    @Test func atMostFiveImages() {
        let viewModel = ItemEditViewModel()
        #expect((0..<6).map { _ in viewModel.addImage(Self.picture) } == [true, true, true, true, true, false])
    }
}

/// A repository that asks for more while it is answering: the use case must not send a
/// second request (`test_when_loading중일때retrieveItems호출시_then한번만수행`).
final class ReentrantMarket: MarketRepository {
    weak var state: MarketState?
    var requests = 0
    var nested: ItemList??
    func items(page: Int) throws -> ItemList {
        requests += 1
        nested = .some(try state?.retrieveItems())
        return ItemList(page: page, items: [])
    }
    func item(id: Int) throws -> Item { throw MarketError.noSuchProduct(id) }
    func create(_ form: ItemForm, password: String) throws -> Item { throw MarketError.wrongPassword }
    func update(id: Int, _ form: ItemForm, password: String) throws -> Item { throw MarketError.wrongPassword }
    func delete(id: Int, password: String) throws -> Item { throw MarketError.wrongPassword }
    var count: Int? { 0 }
}

@Suite struct MarketUseCaseTests {
    @Test func oneRequestInFlightAndThePageAfterTheListsPage() throws {
        let harness = Harness(format: .json)
        let state = try #require(harness.session.packs.all.first { $0 is MarketState } as? MarketState)
        let market = ReentrantMarket()
        market.state = state
        state.repositoryOverride = market
        let list = try state.retrieveItems()
        #expect(list?.page == 1 && market.requests == 1)
        #expect(market.nested == .some(nil))  // the nested call returned without a request
        #expect(state.nextPage == 2)
    }
}

/// Passwords are never stored in clear: a durable store's every byte is searched for them.
@Suite struct MarketPasswordTests {
    @Test func theStoreHoldsOnlySaltedHashes() throws {
        let folder = NSTemporaryDirectory() + "closet-market-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let picture = NSTemporaryDirectory() + "closet-market-\(UUID().uuidString).png"
        try Data(SampleImages.png(width: 2, height: 2)).write(to: URL(fileURLWithPath: picture))
        defer { try? FileManager.default.removeItem(atPath: picture) }
        let passwords = ["correct horse battery staple", "비밀번호1234"]
        do {
            let store = try SessionFactory.durableStore(at: folder) { _ in }
            let host = RecordingHost()
            host.binaryFiles[picture] = SampleImages.png(width: 2, height: 2)
            let session = try SessionFactory.makeSession(store: store, host: host)
            for (index, password) in passwords.enumerated() {
                #expect(
                    session.executeAndCommit(
                        StatementSource(
                            "add product title=p\(index) price=10 currency=KRW stock=1 description=d image=\(picture) password=\"\(password)\""
                        )), "\(host.standardError)")
            }
            #expect(session.executeAndCommit(StatementSource("edit product 1 password=\"\(passwords[0])\" stock=2")))
            #expect(!session.executeAndCommit(StatementSource("edit product 1 password=\"\(passwords[1])\" stock=3")))
            // Nothing the session printed carries a password either.
            for password in passwords { #expect(!host.transcript.contains(password)) }
        }
        let manager = FileManager.default
        var files = 0
        for case let name as String in manager.enumerator(atPath: folder)! {
            guard let bytes = manager.contents(atPath: folder + "/" + name), !bytes.isEmpty else { continue }
            files += 1
            for password in passwords {
                #expect(bytes.range(of: Data(password.utf8)) == nil, "\(name) holds a password")
            }
        }
        #expect(files >= 2)
    }

    @Test func hashesAreSaltedAndChecked() {
        let cost = PasswordHash.testIterations
        let one = PasswordHash(password: "1234", salt: Array(repeating: 1, count: 16), iterations: cost)
        let two = PasswordHash(password: "1234", salt: Array(repeating: 2, count: 16), iterations: cost)
        #expect(one != two && one.matches("1234") && two.matches("1234") && !one.matches("1235"))
        #expect(PasswordHash(text: one.text) == one && PasswordHash(text: "1234") == nil)
    }
}

/// The same statements against the embedded market and against a loopback open-market
/// server (`CLOSET_MARKET_URL`), through the helper: the same transcript, byte for byte.
@Suite struct MarketBothWaysTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/market").path

    func transcript(_ script: String, environment: [String: String]?) throws -> String {
        try GoldenRunner.transcript(
            of: Self.goldens + "/" + script, environment: environment ?? [:], network: environment.map { _ in .live }
        ).text
    }

    /// A product's detail lists its pictures by where they are: a file in the store here, a
    /// URL on the server there. The rows stay (so their number is compared); their names go.
    static func pictureNamesHidden(_ transcript: String) -> String {
        var out: [Substring] = []
        var inPictures = false
        for line in transcript.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("images (") {
                inPictures = true
            } else if inPictures, line.hasPrefix("closet> ") || line.isEmpty {
                inPictures = false
            } else if inPictures {
                out.append(line.hasPrefix("#") || line.hasPrefix("-") ? "(header)" : "(a picture)")
                continue
            }
            out.append(line)
        }
        return out.joined(separator: "\n")
    }

    @Test(arguments: ["both-ways.closet", "errors.closet", "paging.closet"])
    func theSameTranscriptFromBothMarkets(_ script: String) throws {
        let market = try OpenMarketFixture()
        defer { market.stop() }
        let embedded = Self.pictureNamesHidden(try transcript(script, environment: nil))
        let remote = Self.pictureNamesHidden(
            try transcript(
                script, environment: ["CLOSET_MARKET_URL": market.baseURL, "CLOSET_HTTP_HELPER": HelperPath.path]))
        #expect(remote == embedded)
        for (x, y) in differingLines(remote, embedded) { Issue.record("remote: \(x)\nembedded: \(y)") }
        #expect(embedded.contains("비밀번호 오류") || script == "paging.closet")
    }

    @Test func aRolledBackScriptSaysWhatItWroteRemotely() throws {
        let market = try OpenMarketFixture()
        defer { market.stop() }
        let (session, host) = try liveMarketSession(market.baseURL, bail: true)
        let picture = Self.goldens + "/../images/fixtures/knit.png"
        host.binaryFiles[picture] = SampleImages.png(width: 2, height: 2)
        _ = session.runScript(
            "add product title=t price=10 currency=KRW stock=1 description=d image=\(picture) password=p\ncount nothing\n",
            name: "bail.closet")
        #expect(host.standardError.contains("note: 1 remote write was made before it stopped and cannot be undone"))
    }
}

/// Reference §3.5 `RequestMakerTest` and `NetworkManagerTest`, against the loopback server:
/// POST and PATCH are multipart with `images[]` parts, DELETE is JSON; nothing a recording
/// keeps holds the password.
@Suite struct MarketRequestTests {
    @Test func requestsAreMadeAsTheAppMadeThem() throws {
        let market = try OpenMarketFixture()
        defer { market.stop() }
        let folder = NSTemporaryDirectory() + "closet-market-rec-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var configuration = SessionFactory.Configuration.golden
        configuration.network = .record(folder: folder)
        configuration.environment = ["CLOSET_MARKET_URL": market.baseURL, "CLOSET_HTTP_HELPER": HelperPath.path]
        let host = RecordingHost()
        let session = try SessionFactory.makeSession(store: SessionFactory.memoryStore(), host: host, configuration)
        host.binaryFiles["a.png"] = SampleImages.png(width: 2, height: 2)
        host.binaryFiles["b.jpg"] = SampleImages.jpeg(width: 2, height: 2)
        for line in [
            "add product title=t price=10 currency=KRW stock=1 description=d image=a.png,b.jpg password=s3cret-pw",
            "edit product 1 password=s3cret-pw stock=2", "remove product 1 password=s3cret-pw",
        ] {
            #expect(session.executeAndCommit(StatementSource(line)), "\(host.standardError)")
        }
        let requests = market.server.requests
        // An edit reads the product first, to check a discount against the price it will have.
        #expect(requests.map(\.method) == ["POST", "GET", "PATCH", "DELETE"])
        #expect(requests[0].header("Content-Type")?.hasPrefix("multipart/form-data; boundary=") == true)
        #expect(OpenMarketFixture.multipart(requests[0]).images == 2)
        // Every picture goes up as a JPEG (the PNG re-encoded), named as the app named them.
        let body = String(decoding: requests[0].body, as: UTF8.self)
        #expect(
            body.contains("name=\"images[]\"; filename=\"0.jpeg\"\r\nContent-Type: image/jpeg\r\n\r\n\u{FFFD}\u{FFFD}"))
        #expect(body.contains("name=\"images[]\"; filename=\"1.jpeg\"\r\nContent-Type: image/jpeg"))
        #expect(!body.contains("image/png") && !body.contains("PNG"))
        #expect(requests[2].header("Content-Type")?.hasPrefix("multipart/form-data") == true)
        #expect(requests[3].header("Content-Type") == "application/json")
        #expect(String(decoding: requests[3].body, as: UTF8.self) == #"{"password":"s3cret-pw"}"#)
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let text = String(
                decoding: FileManager.default.contents(atPath: folder + "/" + name) ?? Data(), as: UTF8.self)
            #expect(!text.contains("s3cret-pw"), "\(name)")
        }
        #expect(!host.transcript.contains("s3cret-pw"))
    }

    @Test func aServerThatIsDownIsOneLine() throws {
        let market = try OpenMarketFixture()
        market.stop()
        let (session, host) = try liveMarketSession(market.baseURL)
        #expect(!session.executeAndCommit(StatementSource("list products")))
        #expect(
            host.standardError.hasPrefix("error: cannot connect to 127.0.0.1:\(market.server.port): connection refused")
        )
        let (bad, badHost) = try liveMarketSession("market.local")
        #expect(!bad.executeAndCommit(StatementSource("count products")))
        #expect(
            badHost.standardError.hasPrefix(
                "error: CLOSET_MARKET_URL is not an http:// or https:// URL: 'market.local'"))
    }
}

/// Reference §3.5 `ItemListViewModelTests`, `ItemListCellViewModelTests`, `ItemDetailViewModelTests`.
@Suite struct MarketScreenTests {
    static let list = try! JSONDecoder().decode(ItemList.self, from: Data(MarketDecodingTests.mockItemList.utf8))
    static let item = try! JSONDecoder().decode(Item.self, from: Data(MarketDecodingTests.mockItem.utf8))

    struct Failure: Error {}

    @Test func listLoadsUpdateAndFailuresAreErrors() throws {
        var fail = false
        var resets = 0
        let viewModel = ItemListViewModel(
            useCase: {
                if fail { throw Failure() }
                return Self.list
            }, reset: { resets += 1 })
        #expect(try viewModel.loadItems() == 0..<5 && viewModel.state == .update(0..<5))
        #expect(try viewModel.loadItems() == 5..<10 && viewModel.state == .update(5..<10))
        fail = true
        #expect(throws: Failure.self) { try viewModel.loadItems() }
        if case .error(let message) = viewModel.state {
            #expect(message.hasPrefix("UseCase "))
        } else {
            Issue.record("\(viewModel.state)")
        }
        fail = false
        #expect(try viewModel.reset() == 0..<5 && resets == 1 && viewModel.items.count == 5)
        let busy = ItemListViewModel(useCase: { nil }, reset: {})
        #expect(try busy.loadItems() == nil && busy.state == .empty)
    }

    @Test func cellLabels() throws {
        let items = Self.list.items
        let stock12 = try ItemCellLabels(
            Item(
                id: 9, title: "t", descriptions: nil, price: 30000, currency: "KRW", stock: 12, discountedPrice: nil,
                thumbnails: ["a"], images: nil, registrationDate: 0))
        #expect(
            stock12.stock == "수량 : 12" && !stock12.isSoldOut && stock12.price == "KRW 30,000"
                && !stock12.isPriceStruckThrough)
        let soldOut = try ItemCellLabels(items[0])
        #expect(soldOut.stock == "품절" && soldOut.isSoldOut && soldOut.price == "USD 1,690")
        #expect(try ItemCellLabels(items[1]).stock == "수량 : 999+")
        let discounted = try ItemCellLabels(items[2])
        #expect(discounted.isPriceStruckThrough && discounted.isNeededDiscountedLabel)
        #expect(discounted.price == "KRW 890,000" && discounted.discountedPrice == "KRW 89,000")
        var noThumbnail = items[0]
        noThumbnail.thumbnails = []
        #expect(throws: ItemCellLabels.Problem.emptyPath) { try ItemCellLabels(noThumbnail) }
    }

    final class OneItem: MarketRepository {
        var fail = false
        func items(page: Int) throws -> ItemList { MarketScreenTests.list }
        func item(id: Int) throws -> Item {
            if fail { throw MarketError.noSuchProduct(id) }
            return MarketScreenTests.item
        }
        func create(_ form: ItemForm, password: String) throws -> Item { MarketScreenTests.item }
        func update(id: Int, _ form: ItemForm, password: String) throws -> Item { MarketScreenTests.item }
        func delete(id: Int, password: String) throws -> Item {
            guard password == "right" else { throw MarketError.wrongPassword }
            return MarketScreenTests.item
        }
        var count: Int? { 1 }
    }

    @Test func detailLoadsAndDeletes() throws {
        let repository = OneItem()
        let viewModel = ItemDetailViewModel(id: 1, repository: repository)
        #expect(try viewModel.loadItem().title == "MacBook Pro" && viewModel.state == .update(Self.item))
        #expect(throws: MarketError.wrongPassword) { try viewModel.deleteItem(password: "wrong") }
        #expect(viewModel.state == .error("UseCase " + MarketError.wrongPassword.message))
        #expect(try viewModel.deleteItem(password: "right").id == 1 && viewModel.state == .delete)
        repository.fail = true
        #expect(throws: MarketError.noSuchProduct(1)) { try viewModel.loadItem() }
        if case .error = viewModel.state {} else { Issue.record("a failed load is an error state") }
    }
}

/// The app's marks on a terminal (tables in colour): the original price struck through when
/// discounted, the discounted price red, 품절 yellow; plain in pipes, files and every other format.
@Suite struct StruckPriceTests {
    @Test func aDiscountedPriceIsStruckThroughOnATerminalOnly() {
        let harness = Harness(format: .table)
        harness.host.binaryFiles["p.png"] = SampleImages.png(width: 2, height: 2)
        #expect(
            harness.run(
                "add product title=t price=30000 currency=KRW stock=1 discounted=25000 description=d image=p.png password=p"
            ))
        #expect(harness.run("add product title=u price=100 currency=KRW stock=0 description=d image=p.png password=p"))
        let plain = harness.output("list products")
        #expect(plain.contains("KRW 30,000") && !plain.contains("\u{1B}"))
        harness.session.settings.color = true
        let terminal = harness.output("list products")
        #expect(terminal.contains("\u{1B}[9mKRW 30,000\u{1B}[29m"))
        #expect(!terminal.contains("\u{1B}[9mKRW 100"))
        #expect(terminal.contains("\u{1B}[31mKRW 25,000\u{1B}[39m"))
        #expect(terminal.contains("\u{1B}[33m품절\u{1B}[39m"))
        #expect(harness.output("show product 2").contains("\u{1B}[33m품절\u{1B}[39m"))
        harness.session.settings.format = .json
        #expect(harness.output("show product 1").contains(#""price":"KRW 30,000""#))
    }
}

/// `image=` takes paths split at commas, each without the spaces around it (tabs and Unicode
/// spaces too); one that starts and ends with a printable character is kept as it is.
@Suite struct PicturePathTests {
    @Test func spacesAroundEachPathAreDropped() {
        let harness = Harness(format: .json)
        harness.host.binaryFiles["p.png"] = SampleImages.png(width: 2, height: 2)
        harness.host.binaryFiles["q r.png"] = SampleImages.png(width: 3, height: 3)
        #expect(
            harness.run(
                "add product title=t price=1 currency=KRW stock=1 description=d image=\" p.png ,\tq r.png\u{3000}, p.png\" password=p"
            ))
        let shown = harness.output("show product 1")
        let product = (try? JSONSerialization.jsonObject(with: Data(shown.utf8))) as? [String: Any]
        #expect((product?["images"] as? [String])?.count == 3, "\(shown)")
        #expect(
            !harness.run(
                "add product title=u price=1 currency=KRW stock=1 description=d image=\"p.png, x.png\" password=p"))
    }
}

/// A golden-configured session whose market is the server at `base`, over the live network.
func liveMarketSession(_ base: String, bail: Bool = false) throws -> (Session, RecordingHost) {
    var configuration = SessionFactory.Configuration.golden
    configuration.network = .live
    configuration.environment = ["CLOSET_MARKET_URL": base, "CLOSET_HTTP_HELPER": HelperPath.path]
    configuration.settings.bail = bail
    let host = RecordingHost()
    return (try SessionFactory.makeSession(store: SessionFactory.memoryStore(), host: host, configuration), host)
}

/// Issue 26, part 6: the app's `compress(target: 300)`.
@Suite struct UploadPictureTests {
    @Test func aPictureGoesUpAsAJPEGOfAbout300KB() throws {
        // A small JPEG is sent as it is; a PNG becomes a JPEG that decodes to its size.
        let small = SampleImages.fixture("served-dog.jpg")
        #expect(try UploadPicture.jpeg(small, ImageHeader.inspect(small)) == small)
        let png = SampleImages.png(width: 40, height: 30)
        let converted = try UploadPicture.jpeg(png, ImageHeader.inspect(png))
        let decoded = try JPEGDecoder.decode(converted)
        #expect((decoded.width, decoded.height) == (40, 30))
        // A picture far over the target (noise does not compress) comes down to it.
        var noisy = Bitmap(width: 1200, height: 900)
        var seed: UInt32 = 1
        for i in noisy.pixels.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noisy.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        let large = JPEGEncoder.encode(noisy, quality: 100)
        #expect(large.count > UploadPicture.accepted)
        let fitted = try UploadPicture.jpeg(large, ImageHeader.inspect(large))
        #expect(fitted.count <= UploadPicture.accepted && fitted.count > UploadPicture.target / 4)
        // What cannot be decoded cannot be converted: one line, nothing sent.
        let broken = SampleImages.pngHeader(width: 10, height: 10)
        #expect(throws: UploadPictureError.self) { try UploadPicture.jpeg(broken, ImageHeader.inspect(broken)) }
    }

    @Test func aPictureLargerThanTheUploadSideIsMadeThatSizeFirst() throws {
        // 5000×1000, flat: it would fit at full size, but goes up at most 2048 on its longer side.
        let wide = PNGEncoder.encode(
            Bitmap(
                width: 5000, height: 1000,
                pixels: Array([[UInt8]](repeating: [200, 200, 200, 255], count: 5000 * 1000).joined())))
        let sent = try JPEGDecoder.decode(try UploadPicture.jpeg(wide, ImageHeader.inspect(wide)))
        #expect((sent.width, sent.height) == (UploadPicture.largestSide, 409))
        #expect(sent.pixels[0] >= 198 && sent.pixels[0] <= 202)
    }

    @Test func theLargestQualityThatFitsIsFoundAsTryingEachWouldFindIt() throws {
        // The halving search against trying 90, 80, ... 30 one by one, over pictures of every size
        // of file.
        for side in [60, 240] {
            var bitmap = Bitmap(width: side, height: side)
            var seed: UInt32 = UInt32(side)
            for i in bitmap.pixels.indices {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                bitmap.pixels[i] = i % 4 == 3 ? 255 : UInt8(truncatingIfNeeded: (seed >> 28) &+ UInt32(i / 4 % side))
            }
            for target in [2_000, 8_000, 20_000, 60_000] {
                let found = JPEGEncoder.encode(bitmap, fittingIn: target)
                let oneByOne = stride(from: 90, through: 30, by: -10).lazy
                    .map { JPEGEncoder.encode(bitmap, quality: $0) }.first { $0.count <= target }
                if let oneByOne { #expect(found == oneByOne, "\(side) px within \(target) bytes") }
            }
        }
    }
}

/// Issue 27: the market's goldens give the same transcript through `closet serve` (closet's
/// remote repository talking to closet's server) as from the embedded market.
@Suite struct MarketThroughServeTests {
    @Test(arguments: ["both-ways.closet", "errors.closet", "paging.closet"])
    func theSameTranscriptThroughCloset(_ script: String) throws {
        let store = NSTemporaryDirectory() + "closet-serve-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        let both = MarketBothWaysTests()
        let embedded = MarketBothWaysTests.pictureNamesHidden(try both.transcript(script, environment: nil))
        let served = MarketBothWaysTests.pictureNamesHidden(
            try both.transcript(
                script, environment: ["CLOSET_MARKET_URL": server.baseURL, "CLOSET_HTTP_HELPER": HelperPath.path]))
        #expect(served == embedded)
        for (x, y) in differingLines(served, embedded) { Issue.record("served: \(x)\nembedded: \(y)") }
        #expect(server.stop() == 0)
        #expect(server.text.contains("POST /item 200") && server.text.hasSuffix("closet serve: stopped\n"))
    }
}
