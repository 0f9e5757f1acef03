import ClosetCore
import ClosetCrypto
import ClosetLanguage
import ClosetNetwork
import ClosetTables
import Foundation

/// The market in one session: the repository (embedded) and the list's use case.
package final class MarketState: PackState {
    let embedded: EmbeddedMarket
    /// The open-market server when `CLOSET_MARKET_URL` is set (or why it cannot be used).
    let remote: Result<RemoteMarket, NetworkError>?
    /// Tests put another repository here.
    var repositoryOverride: MarketRepository?

    /// The market the commands use: a server when `CLOSET_MARKET_URL` is set, else the store.
    func market() throws(NetworkError) -> MarketRepository {
        if let repositoryOverride { return repositoryOverride }
        switch remote {
        case .success(let market)?: return market
        case .failure(let error)?: throw error
        case nil: return embedded
        }
    }
    /// A product's pictures, for its gallery: a server's fetched by their URLs (as the app's
    /// `ImageNetworkUseCase` does), the store's read and checked.
    func picture(_ index: Int, ofProduct id: Int, urls: [String]) -> Picture {
        if case .success(let remote)? = remote {
            do throws(ImageNetworkUseCaseError) {
                return .bytes(
                    try remote.pictures.retrieveImage(with: urls[index]).bytes,
                    name: FilePath.lastComponent(of: urls[index]))
            } catch {
                return Picture(.unavailable(error.message))
            }
        }
        guard let product = try? embedded.stored(id), index < product.pictures.count else {
            return Picture(.unavailable("missing from the store"))
        }
        let picture = product.pictures[index]
        return .stored(embedded.picture(named: picture.name), picture.info, name: picture.name)
    }

    /// The list use case's page (`ItemListNetworkUseCase`): the next page to ask for.
    private(set) var nextPage = 1
    private var loading = false

    init(_ services: PackServices) throws {
        let ids = services.ids
        let clock = services.clock
        // A seeded id source is a deterministic (test) session: its salts repeat, so its
        // hashes are for tests only and take the cheapest accepted cost.
        embedded = try EmbeddedMarket(
            services.store, newID: { ids.next() }, now: { clock.now() },
            passwordIterations: ids.mayRepeat ? PasswordHash.testIterations : PasswordHash.standardIterations)
        let network = services.network
        if network.isConfigured(OpenMarketAPI.api) {
            do {
                remote = .success(RemoteMarket(network: network, base: try network.base(of: OpenMarketAPI.api) ?? ""))
            } catch {
                remote = .failure(error)
            }
        } else {
            remote = nil
        }
    }

    /// How many products: the store's, or counted page by page on a server.
    func count() throws -> Int {
        let market = try market()
        if let count = market.count { return count }
        return try allItems().count
    }

    /// Every product, newest first, page by page (as the list screen would load them all);
    /// the list screen's own paging is not moved.
    func allItems() throws -> [Item] {
        let market = try market()
        var items: [Item] = []
        var page = 1
        while true {
            let list = try market.items(page: page)
            items += list.items
            if list.items.count < EmbeddedMarket.pageSize { return items }
            page += 1
        }
    }

    /// `retrieveItems`: the next page; nil while a load is under way (one request in
    /// flight). The app's stuck-loading quirk is not copied: a failure clears `loading`.
    func retrieveItems() throws -> ItemList? {
        guard !loading else { return nil }
        loading = true
        defer { loading = false }
        let list = try market().items(page: nextPage)
        nextPage = list.page + 1
        return list
    }

    /// `reset()`: back to the first page (`startPage`: 1 unless `page=` asked for another).
    func reset() { nextPage = startPage }
    var startPage = 1

    /// The list screen over the use case.
    private(set) lazy var list = ItemListViewModel(
        useCase: { [unowned self] in try self.retrieveItems() }, reset: { [unowned self] in self.reset() })

    func id(_ key: EntityKey, at range: SourceRange?) throws(Diagnostic) -> Int {
        guard let id = Int(key.text), id > 0 else { throw .notAProductID(key.text, at: range) }
        return id
    }

    // MARK: the engine's questions

    package var counts: [(EntityKind, Int)] { [(Market.product, embedded.count ?? 0)] }

    package func keys(of kind: EntityKind) -> [EntityKey] {
        embedded.products.rows.map { .opaque(String($0.id)) }
    }

    /// Any key may name a product (a remote market says whether it exists); commands
    /// check its shape.
    package func contains(_ key: EntityKey, kind: EntityKind) -> Bool { kind == Market.product }

    package func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    package func label(of key: EntityKey, kind: EntityKind) -> String? {
        Int(key.text).flatMap { embedded.products[$0]?.fields.title }
    }

    package func completionLabel(of key: EntityKey, kind: EntityKind) -> String { label(of: key, kind: kind) ?? "" }

    package func dump(into writer: inout DumpWriter) throws {
        try MarketDump.write(embedded, into: &writer)
    }
}
