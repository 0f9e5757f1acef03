import ClosetCore

/// `.vars`: the variables bound with `let`.
enum VarsCommand {
    static let spec = DotCommandSpec(
        name: ".vars", summary: "list the variables bound with let", examples: [".vars"],
        run: { invocation in
            let session = invocation.session
            let rows = session.variables.names.map { name -> [String] in
                switch session.variables[name] {
                case .entities(let kind, let keys, let isList)?:
                    if !isList, let key = keys.first {
                        let text: String
                        if let catalog = session.packs.catalog(for: kind), catalog.contains(key, kind: kind) {
                            text = catalog.label(of: key, kind: kind).map { " " + $0 } ?? ""
                        } else {
                            text = " (removed)"
                        }
                        return ["$" + name, kind.singular, key.short + text]
                    }
                    return ["$" + name, kind.singular + " list", kind.counted(keys.count)]
                case .count(let count)?:
                    return ["$" + name, "count", String(count)]
                case nil:
                    return ["$" + name, "", ""]
                }
            }
            // Tools get data in every format: an empty table (`[]` in JSON); people get a hint.
            if rows.isEmpty, session.settings.format == .table {
                return .text("no variables; bind one with 'let $name = <command>'")
            }
            return .table(Grid(columns: ["name", "kind", "value"], rows: rows))
        })
}
