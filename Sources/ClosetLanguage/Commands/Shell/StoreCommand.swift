import ClosetCore

/// `.store`: where the data lives and what it holds: the entities that have rows (a pack with
/// nothing stored adds no line, so installing one changes no other pack's output).
enum StoreCommand {
    static let spec = DotCommandSpec(
        name: ".store", summary: "show where the store is and what it holds", examples: [".store"],
        run: { invocation in
            let session = invocation.session
            var rows = [["store", session.store.location]]
            let held = session.packs.entityCounts.filter { $0.1 > 0 }
            rows += held.isEmpty ? [["rows", "0"]] : held.map { [$0.0.plural, String($0.1)] }
            rows += session.store.details.map { [$0.0, $0.1] }
            return .table(Grid(columns: ["property", "value"], rows: rows))
        })
}
