import ClosetCore

/// Every command closet knows: the shell's dot commands and each installed pack's commands.
/// `.help`, tab completion, `did you mean` and the reference docs all read from here, so a
/// command registered once is known everywhere.
package struct CommandRegistry: Sendable {
    public private(set) var packs: [Pack] = []
    /// The engine's own commands (`next`) first, then each pack's.
    public private(set) var commands: [CommandSpec] = EngineCommands.all
    /// The commands every registry has, whatever packs are installed.
    package var engineCommands: [CommandSpec] { Array(commands.prefix(engineCommandCount)) }
    /// How many of `commands` are the engine's and the host's, before the packs'.
    private var engineCommandCount = EngineCommands.all.count
    /// The dot commands: made when first asked for (a statement that is no dot command never
    /// needs their specs: 7% of a trivial statement's instructions).
    public var dotCommands: [DotCommandSpec] { ShellCommands.all }
    /// The pack of each command, by position in `commands` (-1: the engine's own).
    private var packOfCommand: [Int] = Array(repeating: -1, count: EngineCommands.all.count)
    /// "verb" or "verb object" (lowercased, objects normalized) → position in `commands`:
    /// resolving a statement is one or two dictionary lookups, not a scan.
    private var index: [String: Int] = [:]
    /// The first two words (as `index` keys them) of every path or alias of three words: a
    /// statement whose first two are not among them is never a three-word command, so its
    /// third word (an id, in `remove <entity> <id>`) is not lowercased and looked up as one.
    private var threeWordStarts: Set<String> = []
    /// Every spelling of every entity word (singular, plural, Korean) → its singular.
    private var entityWords: [String: String] = [:]

    /// `engineCommands`: the host's own commands beside the engine's (`export fixtures`, which
    /// needs the APIs the shell serves), in every session of it.
    public init(packs: [Pack], engineCommands extra: [CommandSpec] = []) {
        commands += extra
        packOfCommand += Array(repeating: -1, count: extra.count)
        engineCommandCount += extra.count
        // Sized once: growing them rehashed every word and path several times at start-up.
        entityWords.reserveCapacity(packs.reduce(0) { $0 + $1.entityKinds.count * 3 })
        commands.reserveCapacity(commands.count + packs.reduce(0) { $0 + $1.commands.count })
        packOfCommand.reserveCapacity(commands.capacity)
        for pack in packs { add(pack) }
        rebuildIndex()
    }

    /// Adds a pack's commands. Paths must be unique across packs (`RegistryValidator` checks).
    public mutating func register(_ pack: Pack) {
        add(pack)
        rebuildIndex()
    }

    /// A pack's words and commands, without the index: it is built once all are in (a later
    /// pack's entity words normalize earlier commands' objects), not once per pack.
    private mutating func add(_ pack: Pack) {
        let number = packs.count
        packs.append(pack)
        if packs.count == 1 || syntaxExamples == .generic, let examples = pack.syntaxExamples {
            syntaxExamples = examples
        }
        for kind in pack.entityKinds {
            for word in kind.words { entityWords[word.lowercasedQuickly] = kind.singular }
        }
        commands += pack.commands
        packOfCommand += Array(repeating: number, count: pack.commands.count)
    }

    private mutating func rebuildIndex() {
        index = [:]
        index.reserveCapacity(commands.reduce(0) { $0 + 1 + $1.aliases.count })
        threeWordStarts = []
        // The first spelling of a path wins: written last, walking backwards (one hash a path,
        // and no array of paths made per command).
        for position in commands.indices.reversed() {
            for alias in commands[position].aliases.reversed() {
                index[pathKey(alias)] = position
                if alias.count > 2 { threeWordStarts.insert(pathKey(Array(alias.prefix(2)))) }
            }
            let path = commands[position].path
            index[pathKey(path)] = position
            if path.count > 2 { threeWordStarts.insert(pathKey(Array(path.prefix(2)))) }
        }
    }

    /// Whether a command of three words or more starts with these two (as a statement spells
    /// them): if not, what two words name does not depend on the words after them.
    package func startsLongerCommand(_ first: String, _ second: String) -> Bool {
        threeWordStarts.contains(pathKey([first, second]))
    }

    /// The number of the pack a command belongs to (nil: the engine's own).
    package func packNumber(of spec: CommandSpec) -> Int? {
        guard let position = index[pathKey(spec.path)], commands[position].path == spec.path else { return nil }
        let number = packOfCommand[position]
        return number >= 0 ? number : nil
    }

    /// The pack a command belongs to.
    public func pack(of spec: CommandSpec) -> Pack? {
        guard let position = commands.firstIndex(where: { $0.path == spec.path }) else { return nil }
        let number = packOfCommand[position]
        return number >= 0 ? packs[number] : nil
    }

    public func pack(named name: String) -> Pack? {
        packs.first { $0.name == name.lowercased() }
    }

    /// The commands of one pack, in registration order.
    public func commands(of pack: Pack) -> [CommandSpec] {
        guard let number = packs.firstIndex(where: { $0.name == pack.name }) else { return [] }
        return commands.indices.filter { packOfCommand[$0] == number }.map { commands[$0] }
    }

    /// The parser's examples, from the first pack that offers them.
    public private(set) var syntaxExamples = SyntaxExamples.generic

    /// Every entity kind of every pack.
    public var entityKinds: [EntityKind] { packs.flatMap(\.entityKinds) }

    /// Words that may start a statement: every command's first word and its aliases'.
    package var verbs: [String] {
        var seen: [String] = []
        for spec in commands {
            for path in [spec.path] + spec.aliases where !seen.contains(path[0]) { seen.append(path[0]) }
        }
        return seen + ["let"]
    }

    /// Second words valid after a verb (an entity word, or `stats`).
    public func objects(after verb: String) -> [String] {
        var seen: [String] = []
        for spec in commands {
            for path in [spec.path] + spec.aliases where path.count > 1 && path[0] == verb.lowercased() {
                if !seen.contains(path[1]) { seen.append(path[1]) }
            }
        }
        return seen
    }

    /// Keys whose values are secrets in some command: masked wherever statements are shown.
    package var secretKeys: Set<String> {
        Set(commands.flatMap { $0.keys.filter(\.isSecret).map(\.name) })
    }

    /// A statement as it may be shown or kept: secret values masked.
    public func masked(_ line: String) -> String { SecretMask.mask(line, keys: secretKeys) }

    /// How a path is looked up: `verb`, `verb object` or `verb object what` (`cache stats
    /// posters`), entity words normalized.
    package func pathKey(_ path: [String]) -> String {
        var key = path[0].lowercasedQuickly
        for word in path.dropFirst().prefix(2) { key += " " + normalizedObject(word) }
        return key
    }

    /// The command a statement's leading words name, and the words left for its parameters.
    public func resolve(_ words: [Word]) throws(Diagnostic) -> (CommandSpec, [Word]) {
        guard let first = words.first else { throw .expectedCommand }
        let verb = first.text.lowercasedForMatching
        if !first.isQuoted {
            if let position = index[verb] { return (commands[position], Array(words.dropFirst())) }
            if words.count > 2, !words[1].isQuoted, !words[2].isQuoted,
                startsLongerCommand(first.text, words[1].text),
                let position = index[pathKey(words.prefix(3).map(\.text))]
            {
                return (commands[position], Array(words.dropFirst(3)))
            }
            if words.count > 1, let position = index[verb + " " + normalizedObject(words[1].text)] {
                return (commands[position], Array(words.dropFirst(2)))
            }
        }
        // Not found: work out the most helpful error.
        let matching = commands.filter { spec in ([spec.path] + spec.aliases).contains { $0[0] == verb } }
        if first.isQuoted, !matching.isEmpty {
            throw .quotedCommandName(verb, at: first.range)
        }
        guard !matching.isEmpty else {
            throw Diagnostic.unknown(
                "command", first.text, at: first.range, among: verbs + dotCommands.map(\.name),
                hint: "'.help' lists the commands")
        }
        if let single = matching.first(where: { ([$0.path] + $0.aliases).contains { $0 == [verb] } }) {
            return (single, Array(words.dropFirst()))
        }
        guard words.count > 1 else {
            throw .needsObject(verb, among: objects(after: verb), at: first.range)
        }
        let second = normalizedObject(words[1].text)
        for spec in matching {
            for path in [spec.path] + spec.aliases where path.count > 1 && path[0] == verb {
                if normalizedObject(path[1]) == second { return (spec, Array(words.dropFirst(2))) }
            }
        }
        let objects = objects(after: verb)
        throw Diagnostic.unknown(
            "entity", words[1].text, at: words[1].range, among: objects,
            hint: "'\(verb)' works on \(objects.joined(separator: ", "))")
    }

    package func dotCommand(named name: String) -> DotCommandSpec? {
        let lowered = name.lowercased()
        return dotCommands.first { $0.name == lowered || $0.aliases.contains(lowered) }
    }

    public func command(named name: String) -> CommandSpec? {
        let words = name.split(separator: " ").map { Word(text: String($0), isQuoted: false, range: SourceRange(0, 0)) }
        guard let (spec, rest) = try? resolve(words), rest.isEmpty else { return nil }
        return spec
    }

    /// Entity words accept singular, plural and Korean (`item`, `items`, and its Korean word); other
    /// second words (`stats`) are only lowercased.
    /// The Korean word of the entity a command's object names (`stories` → 스토리), if any.
    package func koreanWord(_ object: String) -> String? {
        let singular = normalizedObject(object)
        return entityKinds.first { $0.singular == singular }?.korean
    }

    package func normalizedObject(_ word: String) -> String {
        let lowered = word.lowercasedForMatching
        return entityWords[lowered] ?? lowered
    }
}
