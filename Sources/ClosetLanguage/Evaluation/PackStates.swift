import ClosetCore

/// Each installed pack's state for one session, in registry order, made when first needed: a
/// statement pays for the packs it uses (their tables, repositories and caches), not for every
/// installed one.
package final class PackStates {
    private let packs: [Pack]
    /// Nil until made.
    private var states: [(any PackState)?]
    /// What a pack's state is made with (the session's store, clock, ids and network).
    private var services: PackServices
    /// Entity kind (singular) → the number of the pack that holds it.
    private var catalogIndex: [String: Int] = [:]

    init(packs: [Pack], services: PackServices) {
        self.packs = packs
        self.services = services
        states = Array(repeating: nil, count: packs.count)
        for (number, pack) in packs.enumerated() {
            for kind in pack.entityKinds { catalogIndex[kind.singular] = number }
        }
    }

    /// Every pack starts over with new services (`.open`). Every state is made here, to know
    /// that each pack can start; if one cannot, nothing changes.
    func replace(with newServices: PackServices) throws {
        let made = try packs.map { try $0.makeState(newServices) }
        services = newServices
        states = made
    }

    /// Every installed pack's state (made now if it was not yet); a pack that cannot start on
    /// the store is left out here and fails the statements that need it.
    package var all: [any PackState] { packs.indices.compactMap { try? state(ofPack: $0) } }

    /// The states made so far (completion asks these, never making one).
    package var madeStates: [any PackState] { states.compactMap { $0 } }

    /// The state of pack number `number`, made on first use.
    package func state(ofPack number: Int) throws -> any PackState {
        if let made = states[number] { return made }
        let made = try packs[number].makeState(services)
        states[number] = made
        return made
    }

    /// The state of type `State`: already made, or the pack whose command is running, or the
    /// first pack whose state is one.
    package func state<State: PackState>(_ type: State.Type, preferring pack: () -> Int?) throws -> State? {
        // A state of exactly that class first, without a dynamic cast (every statement of a
        // seed script asks; the casts were 2 % of its time).
        for case let made? in states where ObjectIdentifier(Swift.type(of: made)) == ObjectIdentifier(State.self) {
            return unsafeDowncast(made, to: State.self)
        }
        for case let made? in states { if let state = made as? State { return state } }
        if let pack = pack(), let state = try state(ofPack: pack) as? State { return state }
        for number in packs.indices where states[number] == nil {
            if let state = try state(ofPack: number) as? State { return state }
        }
        return nil
    }

    /// The state of the pack that holds a kind of entity.
    package func catalog(for kind: EntityKind) -> EntityCatalog? {
        catalogIndex[kind.singular].flatMap { try? state(ofPack: $0) }
    }

    /// How many of each stored entity kind there are, across packs (`.store`, the banner).
    package var entityCounts: [(EntityKind, Int)] { all.flatMap(\.counts) }

    /// The counts a one-line summary names (the banner, a dump's first line): each pack
    /// that holds something, or the first pack's when the store is empty. So a store of one
    /// app reads the same whatever other packs are installed.
    package var summaryCounts: [(EntityKind, Int)] {
        let perPack = all.map(\.counts).filter { !$0.isEmpty }
        let holding = perPack.filter { $0.contains { $0.1 > 0 } }
        return (holding.isEmpty ? Array(perPack.prefix(1)) : holding).flatMap { $0 }
    }
}
