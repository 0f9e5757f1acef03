import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The adoption pack in one session: the dogs seen (for `show dog` and completion) and the
/// query the last `list dogs` paged through.
public final class AdoptionState: PackState {
    let network: Network
    private(set) var seen: [String: ShelterDog] = [:]
    private(set) var seenOrder: [String] = []
    var query = AnimalAPI.Query()
    /// Rows listed so far for the current query (`next` numbers on).
    var listed = 0

    init(_ services: PackServices) throws {
        network = services.network
    }

    func fetch(_ query: AnimalAPI.Query) throws(NetworkError) -> AnimalAPI.Page {
        let page = try AnimalAPI.page(query, network: network)
        for dog in page.dogs where !dog.desertionNo.isEmpty {
            if seen[dog.desertionNo] == nil { seenOrder.append(dog.desertionNo) }
            seen[dog.desertionNo] = dog
        }
        return page
    }

    func dog(_ number: String) throws -> ShelterDog? {
        if let dog = seen[number] { return dog }
        var query = AnimalAPI.Query()
        query.desertionNo = number
        return try fetch(query).dogs.first { $0.desertionNo == number }
    }

    // MARK: the engine's questions

    public var counts: [(EntityKind, Int)] { [] }

    public func keys(of kind: EntityKind) -> [EntityKey] { seenOrder.map { .opaque($0) } }

    /// Any number may name a dog: the API says whether it exists.
    public func contains(_ key: EntityKey, kind: EntityKind) -> Bool { kind == Adoption.dog }

    public func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }

    public func label(of key: EntityKey, kind: EntityKind) -> String? { seen[key.text].map { $0["kindFullNm"] } }

    public func completionLabel(of key: EntityKey, kind: EntityKind) -> String { label(of: key, kind: kind) ?? "" }

    /// Shelter dogs come from the API each time: nothing to dump yet.
    public func dump(into writer: inout DumpWriter) throws {}
}
