import ClosetCore
import Foundation

/// Tab completion: given the line and the cursor, what the word before the cursor can become.
/// Everything comes from the command registry and the session (ids, variables), so a new
/// command completes the day it is registered. Paths come from an injected lister: the
/// language does no I/O.
package struct Completer {
    package struct Candidate: Hashable, Sendable {
        /// What replaces the word being completed.
        public var text: String
        /// What a list of several shows (an id with its description).
        public var display: String
        /// Whether completing to this one ends the word (a blank follows).
        package var isComplete: Bool

        /// What is displayed is terminal-safe: a stored description cannot send escapes.
        public init(text: String, display: String, isComplete: Bool) {
            self.text = text
            self.display = TerminalText.visible(display)
            self.isComplete = isComplete
        }
    }

    public struct Result: Hashable, Sendable {
        /// Byte offset in the line where the word being completed starts.
        package var wordStart: Int
        public var candidates: [Candidate]
    }

    /// How many ids a list shows at most: a big store should not flood the screen.
    package static let idCandidateLimit = 50

    let session: Session
    /// Files and folders starting with a path prefix (folders end with "/").
    let listPaths: (String) -> [String]

    public init(session: Session, listPaths: @escaping (String) -> [String]) {
        self.session = session
        self.listPaths = listPaths
    }

    package func complete(line: String, cursor: Int) -> Result {
        let bytes = Array(line.utf8.prefix(cursor))
        let before = String(decoding: bytes, as: UTF8.self)
        var words = Self.words(before)
        let current = words.removeLast()
        let start = bytes.count - current.utf8.count
        if words.first == "let", words.count >= 3, words[2] == "=" { words.removeFirst(3) }  // `let $x = <command>`
        return Result(wordStart: start, candidates: candidates(for: current, after: words))
    }

    /// Blank-separated words; the last is the (possibly empty) word under the cursor. Quotes
    /// group words so a blank inside "..." does not start a new one.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quote: Character?
        for character in text {
            if let open = quote {
                current.append(character)
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
                current.append(character)
            } else if character == " " || character == "\t" {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        words.append(current)
        return words
    }

    private func candidates(for word: String, after words: [String]) -> [Candidate] {
        let registry = session.registry
        guard let verb = words.first?.lowercased() else {
            let names = registry.verbs + registry.dotCommands.flatMap { [$0.name] + $0.aliases }
            return matching(word, names.map { Candidate(text: $0, display: $0, isComplete: $0 != "let") })
                .map { $0.text == "let" ? Candidate(text: "let $", display: "let", isComplete: false) : $0 }
        }
        if verb.hasPrefix(".") { return dotArgument(word, command: verb, position: words.count - 1) }
        if verb == "let" {
            return words.count == 2 ? [Candidate(text: "=", display: "=", isComplete: true)] : []
        }
        let objects = registry.objects(after: verb)
        if words.count == 1, !objects.isEmpty {
            // Korean entity words when Korean is being typed; the English ones otherwise.
            let korean = word.unicodeScalars.first.map { !$0.isASCII } ?? false
            let offered =
                korean
                ? objects.compactMap(registry.koreanWord) + objects.filter { !$0.allSatisfy(\.isASCII) }
                : objects.filter { $0.allSatisfy(\.isASCII) }
            var unique: [String] = []
            for object in offered where !unique.contains(object) { unique.append(object) }
            return matching(word, unique.map { Candidate(text: $0, display: $0, isComplete: true) })
        }
        // The third word of a three-word command (`cache stats posters`), beside what the
        // two-word one takes.
        var thirdWords: [Candidate] = []
        if words.count == 2 {
            let object = registry.normalizedObject(words[1])
            for spec in registry.commands where spec.path.count == 3 && spec.path[0] == verb {
                if registry.normalizedObject(spec.path[1]) == object {
                    thirdWords.append(Candidate(text: spec.path[2], display: spec.path[2], isComplete: true))
                }
            }
            thirdWords = matching(word, thirdWords)
        }
        let known = words.map { Word(text: $0, isQuoted: false, range: SourceRange(0, 0)) }
        guard let (spec, rest) = try? registry.resolve(known) else { return thirdWords }

        if let equals = word.firstIndex(of: "=") {
            let key = word[..<equals].lowercased()
            guard let keySpec = spec.keys.first(where: { $0.isNamed(key) }) else { return [] }
            let value = String(word[word.index(after: equals)...])
            let listHead = value.lastIndex(of: ",").map { String(value[...$0]) } ?? ""
            let partial = String(value.dropFirst(listHead.count))
            let prefix = String(word[...equals]) + listHead
            // A list does not offer again what it already holds (`region=서울,` then not 서울).
            let taken = Set(listHead.split(separator: ",").map { $0.lowercased() })
            return values(for: keySpec.kind, partial).filter { !taken.contains($0.text.lowercased()) }.map {
                Candidate(text: prefix + $0.text, display: $0.display, isComplete: $0.isComplete)
            }
        }
        var results: [Candidate] = thirdWords
        let filled = rest.filter { !$0.text.contains("=") }.count
        if filled < spec.parameters.count { results += values(for: spec.parameters[filled].kind, word) }
        let used = Set(words.compactMap { $0.split(separator: "=").first.map { $0.lowercased() } })
        let keys = spec.keys.filter {
            spec.keysRepeat || !(used.contains($0.name) || $0.korean.map(used.contains) == true)
        }
        results += matching(
            word, keys.map { Candidate(text: $0.name + "=", display: $0.name + "=", isComplete: false) })
        // A key in Korean is offered once its first letters are typed (never in the list of all).
        if !word.isEmpty {
            results += matching(
                word,
                keys.compactMap { $0.korean.map { Candidate(text: $0 + "=", display: $0 + "=", isComplete: false) } })
        }
        return results
    }

    private func dotArgument(_ word: String, command: String, position: Int) -> [Candidate] {
        guard position == 0, let spec = session.registry.dotCommand(named: command) else { return [] }
        if spec.takesPath { return paths(word) }
        if spec.name == ".help" {
            let topics =
                session.registry.verbs + session.registry.dotCommands.flatMap { [$0.name] + $0.aliases }
                + session.registry.packs.map(\.name)
            return matching(word, topics.map { Candidate(text: $0, display: $0, isComplete: true) })
        }
        return matching(word, spec.choices.map { Candidate(text: $0, display: $0, isComplete: true) })
    }

    private func values(for kind: ValueKind, _ partial: String) -> [Candidate] {
        switch kind {
        case .vocabulary:
            return matching(partial, kind.choices.map { Candidate(text: $0, display: $0, isComplete: true) })
        case .reference(let entity, _, let allowsNone, let constraint):
            let none = allowsNone ? [Candidate(text: "none", display: "none", isComplete: true)] : []
            return matching(partial, none) + references(partial, kind: entity, constraint: constraint)
        case .path(let allowsNone):
            let none = allowsNone ? [Candidate(text: "none", display: "none", isComplete: true)] : []
            return matching(partial, none) + paths(partial)
        case .paths:
            // The file after the last comma (a list's head is kept by the caller).
            return paths(partial)
        case .name(let list):
            // A name with a blank completes quoted, so the lexer keeps it one word (a quote
            // already typed is kept).
            let typed = partial.hasPrefix("\"") ? String(partial.dropFirst()) : partial
            let names = Set(session.packs.madeStates.flatMap { $0.names(in: list) }).sorted()
            return matching(typed, names.map { Candidate(text: $0, display: $0, isComplete: true) }).map { found in
                let quoted = found.text.contains(" ") || partial.hasPrefix("\"")
                return Candidate(
                    text: quoted ? "\"\(found.text)\"" : found.text, display: found.display, isComplete: true)
            }
        case .text, .count, .size, .date, .newID:
            return []
        }
    }

    /// Variables holding this kind, or keys already in the store (never the network).
    private func references(_ partial: String, kind: EntityKind, constraint: ReferenceConstraint?) -> [Candidate] {
        if partial.hasPrefix("$") {
            // Only variables that fit the slot: the kind, and the constraint (a top for `top=`).
            let catalog = session.packs.catalog(for: kind)
            let names = session.variables.names.filter { name in
                switch session.variables[name] {
                case .entities(let held, let keys, _)?:
                    guard held == kind else { return false }
                    guard let constraint, let catalog else { return true }
                    return keys.allSatisfy { catalog.violation(of: constraint, by: $0, kind: kind) == nil }
                case .count?, nil: return false
                }
            }
            return matching(partial, names.map { Candidate(text: "$" + $0, display: "$" + $0, isComplete: true) })
        }
        guard let catalog = session.packs.catalog(for: kind) else { return [] }
        let prefix: String
        switch kind.keyStyle {
        case .uuid:
            guard partial.allSatisfy({ $0.isHexDigit || $0 == "-" }) else { return [] }
            prefix = partial.uppercased()
        case .opaque:
            prefix = partial
        }
        var found: [Candidate] = []
        var more = 0
        for key in catalog.keys(of: kind) where key.text.hasPrefix(prefix) {
            if let constraint, catalog.violation(of: constraint, by: key, kind: kind) != nil { continue }
            guard found.count < Self.idCandidateLimit else {
                more += 1
                continue
            }
            let label = catalog.completionLabel(of: key, kind: kind)
            found.append(Candidate(text: key.short, display: "\(key.short)  \(label)", isComplete: true))
        }
        // Say that the list was cut; its empty text also keeps Tab from narrowing the word to a
        // prefix only the shown ids share.
        if more > 0 {
            found.append(Candidate(text: "", display: "(\(more) more: type more of the id)", isComplete: false))
        }
        return found
    }

    /// Files and folders. A name with a blank, quote, `#`, `,`, `=` or `\\` completes quoted
    /// (the lexer would split it otherwise), in single quotes unless it holds one; a word
    /// begun with a quote completes inside it. A folder leaves its quote open.
    private func paths(_ partial: String) -> [Candidate] {
        var opening: Character?
        var typed = partial
        if let first = partial.first, first == "\"" || first == "'" {
            opening = first
            typed = String(partial.dropFirst())
        }
        return listPaths(typed).map { path in
            let isFolder = path.hasSuffix("/")
            let needsQuotes = path.contains { " \t\"'#,=\\".contains($0) }
            guard needsQuotes || opening != nil else {
                return Candidate(text: path, display: path, isComplete: !isFolder)
            }
            let quote: Character = path.contains("'") ? "\"" : opening ?? "'"
            let body =
                quote == "\""
                ? path.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") : path
            return Candidate(
                text: String(quote) + body + (isFolder ? "" : String(quote)), display: path, isComplete: !isFolder)
        }
    }

    /// Candidates starting with the word: English case-insensitively, Korean exactly.
    private func matching(_ word: String, _ candidates: [Candidate]) -> [Candidate] {
        let lowered = word.lowercased()
        return candidates.filter { $0.text.lowercased().hasPrefix(lowered) }
    }
}
