import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The market in one session: the repository (embedded) and the list's use case.
public final class MarketState: PackState {
    let embedded: EmbeddedMarket
    /// Tests put another repository here (the remote one will be chosen by configuration).
    var repositoryOverride: MarketRepository?
    var repository: MarketRepository { repositoryOverride ?? embedded }
    /// The list use case's page (`ItemListNetworkUseCase`): the next page to ask for.
    private(set) var nextPage = 1
    private var loading = false

    init(_ services: PackServices) throws {
        let ids = services.ids
        let clock = services.clock
        embedded = try EmbeddedMarket(services.store, newID: { ids.next() }, now: { clock.now() })
    }

    /// `retrieveItems`: the next page; nil while a load is under way (one request in
    /// flight). The app's stuck-loading quirk is not copied: a failure clears `loading`.
    func retrieveItems() throws -> ItemList? {
        guard !loading else { return nil }
        loading = true
        defer { loading = false }
        let list = try repository.items(page: nextPage)
        nextPage = list.page + 1
        return list
    }

    /// `reset()`: back to page 1 (or a given page).
    func reset(page: Int = 1) { nextPage = page }

    func id(_ key: EntityKey, at range: SourceRange?) throws(Diagnostic) -> Int {
        guard let id = Int(key.text), id > 0 else { throw .notAProductID(key.text, at: range) }
        return id
    }

    // MARK: the engine's questions

    public var counts: [(EntityKind, Int)] { [(Market.product, embedded.count ?? 0)] }

    public func keys(of kind: EntityKind) -> [EntityKey] {
        embedded.products.rows.map { .opaque(String($0.id)) }
    }

    /// Any key may name a product (a remote market says whether it exists); commands
    /// check its shape.
    public func contains(_ key: EntityKey, kind: EntityKind) -> Bool { kind == Market.product }

    public func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    public func label(of key: EntityKey, kind: EntityKind) -> String? {
        Int(key.text).flatMap { embedded.products[$0]?.title }
    }

    public func completionLabel(of key: EntityKey, kind: EntityKind) -> String { label(of: key, kind: kind) ?? "" }

    public func dump(into writer: inout DumpWriter) throws {
        try MarketDump.write(embedded, into: &writer)
    }
}
