import ClosetCore

/// Checks what the registry cannot check as packs register one by one: command paths and
/// aliases unique across packs, entity words, pack and table names unique, key
/// names in lowercase ASCII and each declared once per command, and every example
/// in the help well-formed (it parses, names its own command, uses only known keys with
/// values of the right shape, and gives every required key). Run as a test, so a pack that
/// breaks a rule fails the build's tests, not a user's session.
package enum RegistryValidator {
    package static func problems(_ registry: CommandRegistry) -> [String] {
        var problems: [String] = []
        var owners: [String: String] = [:]
        func claim(_ name: String, by owner: String, what: String) {
            if let earlier = owners[what + " " + name], earlier != owner {
                problems.append("\(what) '\(name)' is claimed by \(earlier) and \(owner)")
            } else {
                owners[what + " " + name] = owner
            }
        }
        // Two packs of one name claim it as the same owner: counted apart.
        for (name, count) in Dictionary(registry.packs.map { ($0.name, 1) }, uniquingKeysWith: +) where count > 1 {
            problems.append("pack name '\(name)' is claimed by \(count) packs")
        }
        for pack in registry.packs {
            for kind in pack.entityKinds {
                for word in Set(kind.words.map { $0.lowercased() }) {
                    claim(word, by: "pack \(pack.name)", what: "entity word")
                }
            }
            for table in pack.tables {
                claim(table.name, by: "pack \(pack.name)", what: "table")
                // '@' names a row layout and '#' a section derived from a table's rows.
                if table.name.contains("@") || table.name.contains("#") || table.name.utf8.count > 200 {
                    problems.append(
                        "table '\(table.name)' of pack \(pack.name): a table name has no '@' or '#' and at most 200 bytes"
                    )
                }
            }
            for spec in registry.commands(of: pack) {
                for path in [spec.path] + spec.aliases {
                    claim(registry.pathKey(path), by: "'\(spec.name)' of pack \(pack.name)", what: "command")
                }
                if spec.examples.isEmpty { problems.append("'\(spec.name)' has no example") }
                // A key's Korean name counts as a name: the binder takes either.
                let names = spec.keys.flatMap { [$0.name] + ($0.korean.map { [$0] } ?? []) }
                for (name, count) in Dictionary(names.map { ($0, 1) }, uniquingKeysWith: +) where count > 1 {
                    problems.append("'\(spec.name)' declares key '\(name)' \(count) times")
                }
                // The binder matches keys lowercased, and invocations compare them as bytes.
                for key in spec.keys
                where key.name.isEmpty || key.name.utf8.contains(where: { $0 >= 0x80 || (0x41...0x5A).contains($0) }) {
                    problems.append("'\(spec.name)' key '\(key.name)': a key's name is lowercase ASCII")
                }
                for example in spec.examples {
                    if let problem = check(example, of: spec, registry) {
                        problems.append("'\(spec.name)' example '\(example)': \(problem)")
                    }
                }
            }
        }
        for spec in registry.dotCommands {
            for example in spec.examples {
                guard case .dot(let call)? = try? Parser.parse(example)?.kind,
                    registry.dotCommand(named: call.name.text)?.name == spec.name
                else {
                    problems.append("'\(spec.name)' example '\(example)' does not name it")
                    continue
                }
            }
        }
        return problems
    }

    /// What is wrong with one command example, or nil.
    static func check(_ example: String, of spec: CommandSpec, _ registry: CommandRegistry) -> String? {
        let statement: Statement?
        do {
            statement = try Parser.parse(example, examples: registry.syntaxExamples)
        } catch {
            return "does not parse: \(error.message)"
        }
        let call: CommandCall
        switch statement?.kind {
        case .command(let command)?: call = command
        case .binding(let binding)?: call = binding.command
        case .dot?, nil: return "is not a command"
        }
        guard let (resolved, words) = try? registry.resolve(call.words), resolved.path == spec.path else {
            return "does not name the command"
        }
        if words.count != spec.parameters.count {
            return "gives \(words.count) words after the name; it takes \(spec.parameters.count)"
        }
        for (word, parameter) in zip(words, spec.parameters) {
            if let problem = shape([word], parameter.kind) { return problem }
        }
        var given = Set<String>()
        for argument in call.arguments {
            let name = argument.key.text.lowercased()
            guard let key = spec.keys.first(where: { $0.isNamed(name) }) else { return "unknown key '\(name)'" }
            given.insert(key.name)
            if let problem = shape(argument.values, key.kind) { return problem }
        }
        for key in spec.keys where key.isRequired && !given.contains(key.name) {
            return "misses the required '\(key.name)'"
        }
        return nil
    }

    /// Whether values have the shape the kind takes (references are checked for form only:
    /// an example cannot know the ids of anyone's data).
    private static func shape(_ values: [Word], _ kind: ValueKind) -> String? {
        for word in values {
            switch kind {
            case .vocabulary(let info, _):
                if info.term(named: word.text) == nil { return "'\(word.text)' is not a \(info.name)" }
            case .count:
                if Int(word.text) == nil { return "'\(word.text)' is not a number" }
            case .size:
                if ByteSize.parse(word.text) == nil { return "'\(word.text)' is not a size" }
            case .date:
                if Timestamp.parse(word.text) == nil { return "'\(word.text)' is not a date" }
            case .reference(let entity, _, let allowsNone, _):
                let text = word.text
                if allowsNone, text == "none" { continue }
                let isReference: Bool
                if text.hasPrefix("$") {
                    isReference = Variables.isValidName(String(text.dropFirst()))
                } else if text.hasPrefix("@") {
                    isReference = Int(text.dropFirst()).map { $0 >= 1 } ?? false
                } else {
                    switch entity.keyStyle {
                    case .uuid:
                        isReference =
                            text.count >= References.minimumPrefixLength
                            && text.allSatisfy { $0.isHexDigit || $0 == "-" }
                    case .opaque:
                        isReference = !text.isEmpty
                    }
                }
                if !isReference { return "'\(text)' is not a reference to \(entity.indefinite)" }
            case .name:
                if word.text.isEmpty { return "an empty name" }
            case .text, .path, .paths, .newID:
                break
            }
        }
        return nil
    }
}
