import ClosetCore

/// `.store`: where the data lives and what it holds.
enum StoreCommand {
    static let spec = DotCommandSpec(
        name: ".store", summary: "show where the store is and what it holds", examples: [".store"],
        run: { invocation in
            let session = invocation.session
            var rows = [["store", session.store.location]]
            rows += session.entityCounts.map { [$0.0.plural, String($0.1)] }
            rows += session.store.details.map { [$0.0, $0.1] }
            return .table(Grid(columns: ["property", "value"], rows: rows))
        })
}
