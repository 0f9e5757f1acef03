import ClosetCore
import Foundation

/// Resolves `<ref>` words (SPEC §3) for any entity kind: a full key, a hex prefix of at
/// least four characters (UUID keys), `$name` from `let`, or `@N` from the last listing. The
/// pack that owns the kind says which keys exist; every failure says what was looked for
/// and what was found instead.
package struct References {
    /// Fewer hex digits than this match too much to be a useful reference.
    package static let minimumPrefixLength = 4
    /// How many candidates an ambiguity error names.
    static let ambiguityListLimit = 5

    let session: Session

    /// The keys a word names: one, or a list variable's when `expectOne` is false. Each
    /// still exists.
    func resolve(_ word: Word, kind: EntityKind, expectOne: Bool) throws(Diagnostic) -> [EntityKey] {
        guard let catalog = session.packs.catalog(for: kind) else {
            throw .noPackHolds(kind, at: word.range)
        }
        let keys: [EntityKey]
        switch try lookup(word) {
        case .variable(let name, .entities(let held, let list, let isList)):
            guard held.names(kind) else {
                throw .variableOfOtherKind(name, holds: held, not: kind, at: word.range)
            }
            if expectOne, isList, list.count != 1 {
                throw .variableHoldsMany(name, kind, count: list.count, at: word.range)
            }
            keys = list
        case .variable(let name, .count):
            throw .variableIsCount(name, not: kind, at: word.range)
        case .row(let n, let listing):
            guard listing.kind.names(kind) else {
                throw .rowOfOtherKind(word.text, listed: listing.kind, not: kind, at: word.range)
            }
            keys = [listing.keys[n - 1]]
        case .key(let text):
            return [try match(text, word: word, kind: kind, catalog: catalog)]
        }
        for key in keys where !catalog.contains(key, kind: kind) {
            throw .removed(word.text, kind, key, at: word.range)
        }
        return keys
    }

    /// The one entity `@N` or `$name` names, with the listing's row for `@N`; nil for a key
    /// (which names no kind by itself) or a count.
    func entity(_ word: Word) throws(Diagnostic) -> (kind: EntityKind, key: EntityKey, row: Int?)? {
        switch try lookup(word) {
        case .variable(let name, .entities(let kind, let list, _)):
            guard list.count == 1 else { throw .variableHoldsMany(name, kind, count: list.count, at: word.range) }
            return (kind, list[0], nil)
        case .row(let n, let listing):
            return (listing.kind, listing.keys[n - 1], n)
        case .key, .variable(_, .count):
            return nil
        }
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
                // `$c2` is never offered for `$c1`: a numbered series names different things
                // (a dump's rows), and one that failed to bind is not its neighbour.
                let numberless = { (name: String) in name.filter { !$0.isNumber } }
                let candidates = session.variables.names.filter {
                    numberless($0) != numberless(name) || !name.contains(where: \.isNumber)
                }
                throw Diagnostic.unknown(
                    "variable", text, at: word.range, among: candidates.map { "$" + $0 },
                    hint: session.variables.names.isEmpty ? "bind one with 'let \(text) = ...'" : nil)
            }
            return .variable(name, value)
        }
        if !word.isQuoted, text.hasPrefix("@") {
            guard let n = Int(text.dropFirst()), n >= 1 else {
                throw .notARowReference(text, at: word.range)
            }
            guard let listing = session.listings.last else {
                throw .nothingListed(text, at: word.range)
            }
            guard n <= listing.keys.count else {
                throw .noSuchRow(text, rows: listing.keys.count, at: word.range)
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
                throw .noSuchID(kind, text, at: word.range)
            }
            return key
        case .uuid:
            break
        }
        if let uuid = UUID(text: text) {
            let key = EntityKey.uuid(uuid)
            guard catalog.contains(key, kind: kind) else {
                throw .noSuchID(kind, text, at: word.range)
            }
            return key
        }
        let hex = text.replacingOccurrences(of: "-", with: "")
        guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else {
            throw .notAReference(text, at: word.range)
        }
        guard hex.count >= Self.minimumPrefixLength else {
            throw .prefixTooShort(text, minimum: Self.minimumPrefixLength, at: word.range)
        }
        let prefix = text.uppercased()
        let found = catalog.keys(of: kind).filter { $0.text.hasPrefix(prefix) }
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw .noPrefixMatch(kind, text, at: word.range)
        default:
            // Long enough that the candidates shown can be told apart.
            let candidates = found.prefix(Self.ambiguityListLimit).map(\.text)
            var length = prefix.count + 4
            while length < 36, Set(candidates.map { $0.prefix(length) }).count < candidates.count { length += 1 }
            let shown = candidates.map { String($0.prefix(length)) }
            let more = found.count > Self.ambiguityListLimit ? ", ..." : ""
            throw .ambiguousPrefix(
                text, matches: kind.counted(found.count), shown: shown.joined(separator: ", ") + more, at: word.range)
        }
    }
}

/// A paged listing's rows so far, and how to fetch its next page (nil: no more).
public struct PagedListing: Sendable {
    public var listing: Listing
    public var next: (@Sendable (Invocation) throws -> Outcome)?
}

/// The rows of the most recent listing, for `@N`.
public struct Listing: Sendable {
    public var kind: EntityKind
    public var keys: ListingKeys
}
