import ClosetCore

/// `.store`: where the data lives and what it holds: the entities that have rows (a pack with
/// nothing stored adds no line, so installing one changes no other pack's output).
enum StoreCommand {
    static let spec = DotCommandSpec(
        name: ".store", summary: "show where the store is and what it holds", examples: [".store"],
        run: { invocation in
            let session = invocation.session
            var properties = [Field("store", .text(session.store.location))]
            let held = session.packs.entityCounts.filter { $0.1 > 0 }
            properties += held.isEmpty ? [Field("rows", .integer(0))] : held.map { Field($0.0.plural, .integer($0.1)) }
            return .properties(properties + session.store.details)
        })
}
