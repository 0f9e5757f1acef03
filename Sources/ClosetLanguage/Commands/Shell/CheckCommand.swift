import ClosetCore

/// `.check`: reads everything the store holds and checks it (sqlite3's `PRAGMA
/// integrity_check`): every snapshot block's checksum, every row decoded, the snapshot's
/// index, every picture against its checksum. Opening and statements check only what they
/// read. Lists what was checked; fails with every problem in one line if anything is damaged.
enum CheckCommand {
    static let spec = DotCommandSpec(
        name: ".check", summary: "read the whole store and check it for damage", examples: [".check"],
        run: { invocation in
            if let extra = invocation.call.arguments.first {
                throw Diagnostic.usage(invocation.spec.usage, at: extra.range)
            }
            let store = invocation.session.store
            let result = store.check()
            guard result.problems.isEmpty else {
                throw Diagnostic.storeDamaged(store.location, result.problems, at: invocation.call.range)
            }
            let rows = [["store", store.location]] + result.checked.map { [$0.0, $0.1] } + [["result", "ok"]]
            return .table(Grid(columns: ["checked", "found"], rows: rows))
        })
}
