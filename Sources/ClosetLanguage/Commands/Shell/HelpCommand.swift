import ClosetCore

/// `.help [topic]`: generated from the registry, so it lists exactly what exists.
enum HelpCommand {
    static let spec = DotCommandSpec(
        name: ".help", summary: "list commands, or explain one or a pack", arguments: ["[command|pack]"],
        examples: [".help", ".help add", ".help .mode"],
        run: { invocation in
            let registry = invocation.session.registry
            let words = invocation.call.arguments
            guard let first = words.first else { return .text(HelpText.overview(registry)) }
            let topic = words.map(\.text).joined(separator: " ")
            if let text = HelpText.topic(topic, registry) { return .text(text) }
            let names =
                registry.commands.map(\.name) + registry.commands.map { $0.path[0] }
                + registry.dotCommands.map(\.name) + registry.packs.map(\.name)
            throw Diagnostic.unknown(
                "help topic", topic, at: first.range.union(words.last?.range ?? first.range), among: names,
                hint: "'.help' lists the commands")
        })
}

/// The text of `.help` and `closet --help`, built from the registry.
package enum HelpText {
    static let maximumNameWidth = 27

    package static func overview(_ registry: CommandRegistry) -> String {
        // A name longer than the column (`.mode [table|json|...]`) runs past it rather than
        // pushing every summary to the right.
        let width = min(
            maximumNameWidth,
            (registry.commands.map(\.name.count) + registry.dotCommands.map(\.listed.count) + [letUsage.count]).max()
                ?? 0)
        var out = "Commands:\n"
        out += "  " + pad(letUsage, width) + "  bind the result of a command to a variable\n"
        for spec in registry.engineCommands {
            out += "  " + pad(spec.name, width) + "  " + spec.summary + "\n"
        }
        for pack in registry.packs {
            out += "\n" + packCommands(pack, registry, width: width)
        }
        out += "\nDot commands:\n"
        for spec in registry.dotCommands {
            out += "  " + pad(spec.listed, width) + "  " + spec.summary + "\n"
        }
        out += values(registry.packs.flatMap(\.vocabularies))
        out += "\nReferences: a full id, an id prefix of 4+ characters, $variable, or @N (row N of the last listing).\n"
        out += "'.help <command>' shows a command's keys and examples; '.help <pack>' shows one pack"
        out += registry.packs.isEmpty ? ".\n" : " (\(registry.packs.map(\.name).joined(separator: ", "))).\n"
        return out
    }

    static let letUsage = "let $name = <command>"

    /// `.help <pack>`: its commands and its words.
    public static func pack(_ pack: Pack, _ registry: CommandRegistry) -> String {
        let width = registry.commands(of: pack).map(\.name.count).max() ?? 0
        var out = packCommands(pack, registry, width: width)
        if !pack.entityKinds.isEmpty {
            out +=
                "\nEntities: " + pack.entityKinds.map { "\($0.singular) (\($0.korean))" }.joined(separator: ", ") + "\n"
        }
        out += values(pack.vocabularies)
        return out
    }

    private static func packCommands(_ pack: Pack, _ registry: CommandRegistry, width: Int) -> String {
        var out = "\(pack.name): \(pack.summary)\n"
        for spec in registry.commands(of: pack) {
            out += "  " + pad(spec.name, width) + "  " + spec.summary + "\n"
        }
        return out
    }

    private static func values(_ vocabularies: [VocabularyInfo]) -> String {
        var seen: [VocabularyInfo] = []
        for info in vocabularies where !seen.contains(info) { seen.append(info) }
        guard !seen.isEmpty else { return "" }
        let width = seen.map(\.name.count).max() ?? 0
        return "\nValues (English or Korean):\n"
            + seen.map { "  " + pad($0.name, width) + "  " + $0.summary + "\n" }.joined()
    }

    /// Help for a verb (`add`), a command, a dot command or a pack; nil if no such topic.
    package static func topic(_ topic: String, _ registry: CommandRegistry) -> String? {
        let lowered = topic.lowercased()
        if lowered == "let" || lowered == "let $name" {
            return """
                \(letUsage): bind the result of a command to a variable

                $name then holds the entities the command returned (one, or a listing) by id, or a
                count; use it wherever a <ref> is taken. '.vars' lists the bindings.

                example:
                  \(registry.syntaxExamples.binding)

                """
        }
        if lowered.hasPrefix(".") {
            return registry.dotCommand(named: lowered).map(dotCommand)
        }
        if let spec = registry.command(named: lowered) { return command(spec) }
        if let pack = registry.pack(named: lowered) { return self.pack(pack, registry) }
        let matching = registry.commands.filter { ([$0.path] + $0.aliases).contains { $0[0] == lowered } }
        guard !matching.isEmpty else {
            // `.help pictures`: a dot command named without its dot, where no command, pack
            // or verb has the word.
            return registry.dotCommand(named: "." + lowered).map(dotCommand)
        }
        return matching.map(command).joined(separator: "\n")
    }

    /// A dot command's help: its usage, what it does, its other names, the words it takes
    /// (`.pictures`: the outputs and the sizes), and examples.
    static func dotCommand(_ spec: DotCommandSpec) -> String {
        var out = "\(spec.usage)\n  \(spec.summary)\n"
        if !spec.aliases.isEmpty { out += "  also: \(spec.aliases.joined(separator: ", "))\n" }
        if !spec.choices.isEmpty { out += "  takes: \(spec.choices.joined(separator: ", "))\n" }
        out += "\nexample:\n" + spec.examples.map { "  \($0)\n" }.joined()
        return out
    }

    public static func command(_ spec: CommandSpec) -> String {
        var out = "\(spec.name): \(spec.summary)\n\nusage: \(spec.usage)\n"
        if !spec.aliases.isEmpty {
            out += "also: " + spec.aliases.map { $0.joined(separator: " ") }.joined(separator: ", ") + "\n"
        }
        if !spec.parameters.isEmpty || !spec.keys.isEmpty {
            out += "\n"
            let width = (spec.parameters.map { $0.placeholder.count } + spec.keys.map(\.name.count)).max() ?? 0
            for parameter in spec.parameters {
                out += "  " + pad(parameter.placeholder, width) + "  " + parameter.summary + "\n"
            }
            for key in spec.keys {
                let notes = (key.isRequired ? ["required"] : []) + (key.korean.map { ["also \($0)="] } ?? [])
                let noted = notes.isEmpty ? "" : " (" + notes.joined(separator: ", ") + ")"
                out += "  " + pad(key.name, width) + "  " + key.summary + noted + "\n"
                if let values = values(key.kind) { out += "  " + pad("", width) + "    " + values + "\n" }
            }
        }
        if !spec.notes.isEmpty { out += "\n" + spec.notes.map { $0 + "\n" }.joined() }
        out += "\nexample\(spec.examples.count == 1 ? "" : "s"):\n" + spec.examples.map { "  \($0)\n" }.joined()
        return out
    }

    private static func values(_ kind: ValueKind) -> String? {
        switch kind {
        case .vocabulary(let info, _): info.summary
        case .date: "2024-05-17 or 2024-05-17T09:30:00Z"
        case .size: "a number with B, KB, MB or GB (powers of 1024)"
        case .newID: "a full id: E220A839-7B1D-4DAF-AE78-9E6AA1B965F4"
        case .name: "a name (or its code) from a list the pack fetches; Tab offers those seen this session"
        case .text, .count, .reference, .path, .paths: nil
        }
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - text.count))
    }
}

extension DotCommandSpec {
    /// How `.help` lists it: its usage, then its other names (`.quit, .exit`).
    var listed: String { ([usage] + aliases).joined(separator: ", ") }
}
