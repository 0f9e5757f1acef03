import ClosetCore

/// The dot commands: shell settings and actions, never stored (SPEC §5). They belong to the
/// engine, not to a pack, and work the same whatever packs are installed.
enum ShellCommands {
    static let all: [DotCommandSpec] = [
        HelpCommand.spec, ReadCommand.spec, ModeCommand.spec, EchoCommand.spec, BailCommand.spec,
        TimerCommand.spec, VarsCommand.spec, StoreCommand.spec, DumpCommand.spec, QuitCommand.spec,
    ]
}

/// `.echo`, `.bail` and `.timer`: one `on|off` setting each.
enum OnOffSetting {
    static func spec(
        _ name: String, _ summary: String, _ setting: WritableKeyPath<Session.Settings, Bool> & Sendable
    ) -> DotCommandSpec {
        DotCommandSpec(
            name: name, summary: summary, arguments: ["on|off"], choices: ["on", "off"], examples: ["\(name) on"],
            run: { invocation in
                invocation.session.settings[keyPath: setting] = try invocation.onOff()
                return .nothing
            })
    }
}

/// `.echo on|off`: print each statement before its output (as golden transcripts do).
enum EchoCommand {
    static let spec = OnOffSetting.spec(".echo", "print each statement before running it", \.echo)
}

/// `.bail on|off`: stop a script at its first failing statement (and keep none of it).
enum BailCommand {
    static let spec = OnOffSetting.spec(".bail", "stop scripts at the first error, keeping nothing of them", \.bail)
}

/// `.timer on|off`: print how long each statement took.
enum TimerCommand {
    static let spec = OnOffSetting.spec(".timer", "print the time each statement takes", \.timer)
}

/// `.mode [table|json|csv|line]`: the output format; with no word, print it.
enum ModeCommand {
    static let spec = DotCommandSpec(
        name: ".mode", summary: "set the output format, or print it", arguments: ["[table|json|csv|line]"],
        choices: OutputFormat.allCases.map(\.rawValue), examples: [".mode json", ".mode"],
        run: { invocation in
            let words = invocation.call.arguments
            guard let word = words.first else { return .text(invocation.session.settings.format.rawValue) }
            if words.count > 1 { throw Diagnostic("usage: \(invocation.spec.usage)", at: words[1].range) }
            guard let format = OutputFormat(rawValue: word.text.lowercased()) else {
                throw Diagnostic.unknown(
                    "mode", word.text, at: word.range, among: OutputFormat.allCases.map(\.rawValue),
                    hint: "use table, json, csv or line")
            }
            invocation.session.settings.format = format
            return .nothing
        })
}

/// `.quit` / `.exit`: stop reading statements.
enum QuitCommand {
    static let spec = DotCommandSpec(
        name: ".quit", aliases: [".exit"], summary: "leave closet", examples: [".quit"],
        run: { invocation in
            if let extra = invocation.call.arguments.first {
                throw Diagnostic("'.quit' takes no words", at: extra.range)
            }
            invocation.session.quitRequested = true
            return .nothing
        })
}

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
                        if let catalog = session.catalog(for: kind), catalog.contains(key, kind: kind) {
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
            if rows.isEmpty { return .text("no variables; bind one with 'let $name = <command>'") }
            return .table(Grid(columns: ["name", "kind", "value"], rows: rows))
        })
}

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

/// `.read <file>`: run a script inside this session, as `run` does: one transaction for the
/// file, failures reported and skipped, or the whole file undone under `.bail on`.
enum ReadCommand {
    static let spec = DotCommandSpec(
        name: ".read", summary: "run the statements of a .closet file", arguments: ["<file>"], takesPath: true,
        examples: [".read Examples/mock-data.closet"],
        run: { invocation in
            let session = invocation.session
            let words = invocation.call.arguments
            guard let path = words.first else { throw Diagnostic("usage: .read <file>", at: invocation.call.name.range) }
            if words.count > 1 {
                throw Diagnostic("'.read' takes one file; quote a path with spaces", at: words[1].range)
            }
            guard session.readDepth < Session.maximumReadDepth else {
                throw Diagnostic("'.read' is nested more than \(Session.maximumReadDepth) deep; does a script read itself?", at: path.range)
            }
            let script: (text: String, displayName: String)
            do {
                script = try session.host.readScript(at: path.text)
            } catch let error as Diagnostic {
                throw Diagnostic(error.message, at: path.range)
            }
            session.readDepth += 1
            defer { session.readDepth -= 1 }
            let result = session.runScript(script.text, name: script.displayName)
            if result.stopped { throw AlreadyReported() }
            return .nothing
        })
}
