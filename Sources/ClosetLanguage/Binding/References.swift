import ClosetCore
import Foundation

/// Resolves `<ref>` words (SPEC §3) for any entity kind: a full key, a hex prefix of at
/// least four characters (UUID keys), `$name` from `let`, or `@N` from the last listing. The
/// pack that owns the kind says which keys exist; every failure says what was looked for
/// and what was found instead.
public struct References {
    /// Fewer hex digits than this match too much to be a useful reference.
    public static let minimumPrefixLength = 4
    /// How many candidates an ambiguity error names.
    static let ambiguityListLimit = 5

    let session: Session

    /// The keys a word names: one, or a list variable's when `expectOne` is false. Each
    /// still exists.
    func resolve(_ word: Word, kind: EntityKind, expectOne: Bool) throws(Diagnostic) -> [EntityKey] {
        guard let catalog = session.catalog(for: kind) else {
            throw Diagnostic("no installed pack holds \(kind.plural)", at: word.range)
        }
        let keys: [EntityKey]
        switch try lookup(word) {
        case .variable(let name, .entities(let held, let list, let isList)):
            guard held == kind else {
                throw Diagnostic("'$\(name)' is \(held.indefinite), not \(kind.indefinite)", at: word.range)
            }
            if expectOne, isList, list.count != 1 {
                throw Diagnostic("'$\(name)' holds \(kind.counted(list.count)); one is needed here", at: word.range)
            }
            keys = list
        case .variable(let name, .count):
            throw Diagnostic("'$\(name)' is a count, not \(kind.indefinite)", at: word.range)
        case .row(let n, let listing):
            guard listing.kind == kind else {
                throw Diagnostic(
                    "'\(word.text)' is a row of the last \(listing.kind.singular) listing, not \(kind.indefinite)",
                    at: word.range)
            }
            keys = [listing.keys[n - 1]]
        case .key(let text):
            return [try match(text, word: word, kind: kind, catalog: catalog)]
        }
        for key in keys where !catalog.contains(key, kind: kind) {
            throw Diagnostic(
                "'\(word.text)' refers to \(kind.singular) \(key.short), which was removed", at: word.range)
        }
        return keys
    }

    private enum Target {
        case variable(String, VariableValue)
        case row(Int, Listing)
        case key(String)
    }

    private func lookup(_ word: Word) throws(Diagnostic) -> Target {
        let text = word.text
        if !word.isQuoted, text.hasPrefix("$") {
            let name = String(text.dropFirst())
            guard let value = session.variables[name] else {
                throw Diagnostic.unknown(
                    "variable", text, at: word.range, among: session.variables.names.map { "$" + $0 },
                    hint: session.variables.names.isEmpty ? "bind one with 'let \(text) = ...'" : nil)
            }
            return .variable(name, value)
        }
        if !word.isQuoted, text.hasPrefix("@") {
            guard let n = Int(text.dropFirst()), n >= 1 else {
                throw Diagnostic(
                    "'\(text)' is not a row reference; write @1 for the first row of the last listing", at: word.range)
            }
            guard let listing = session.lastListing else {
                throw Diagnostic(
                    "'\(text)' refers to the last listing, and nothing has been listed yet", at: word.range)
            }
            guard n <= listing.keys.count else {
                throw Diagnostic(
                    "there is no row \(text): the last listing had \(listing.keys.count) row\(listing.keys.count == 1 ? "" : "s")",
                    at: word.range)
            }
            return .row(n, listing)
        }
        return .key(text)
    }

    private func match(_ text: String, word: Word, kind: EntityKind, catalog: EntityCatalog) throws(Diagnostic)
        -> EntityKey
    {
        switch kind.keyStyle {
        case .opaque:
            let key = EntityKey.opaque(text)
            guard catalog.contains(key, kind: kind) else {
                throw Diagnostic("no \(kind.singular) has id '\(text)'", at: word.range)
            }
            return key
        case .uuid:
            break
        }
        if let uuid = UUID(uuidString: text) {
            let key = EntityKey.uuid(uuid)
            guard catalog.contains(key, kind: kind) else {
                throw Diagnostic("no \(kind.singular) has id '\(text)'", at: word.range)
            }
            return key
        }
        let hex = text.replacingOccurrences(of: "-", with: "")
        guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else {
            throw Diagnostic(
                "'\(text)' is not a reference: use an id or id prefix, a $variable, or @N for a row of the last listing",
                at: word.range)
        }
        guard hex.count >= Self.minimumPrefixLength else {
            throw Diagnostic(
                "id prefix '\(text)' is too short: type at least \(Self.minimumPrefixLength) characters", at: word.range
            )
        }
        let prefix = text.uppercased()
        let found = catalog.keys(of: kind).filter { $0.text.hasPrefix(prefix) }
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw Diagnostic("no \(kind.singular) has an id starting with '\(text)'", at: word.range)
        default:
            let shown = found.prefix(Self.ambiguityListLimit).map { String($0.text.prefix(prefix.count + 4)) }
            let more = found.count > Self.ambiguityListLimit ? ", ..." : ""
            throw Diagnostic(
                "'\(text)' matches \(kind.counted(found.count)) (\(shown.joined(separator: ", "))\(more)); type more of the id",
                at: word.range)
        }
    }
}

/// The rows of the most recent listing, for `@N`.
public struct Listing: Sendable {
    public var kind: EntityKind
    public var keys: [EntityKey]
}
