import ClosetDomain
import Foundation

/// Resolves `<ref>` words (SPEC §3): a full UUID, a hex prefix of at least four characters,
/// `$name` from `let`, or `@N` from the last listing. Every failure says what was looked for
/// and what was found instead.
public struct References {
    /// Fewer hex digits than this match too much to be a useful reference.
    public static let minimumPrefixLength = 4
    /// How many candidates an ambiguity error names.
    static let ambiguityListLimit = 5

    let session: Session

    /// One clothes, or the clothes of a list variable when `expectOne` is false.
    func clothes(_ word: Word, expectOne: Bool) throws(Diagnostic) -> [Clothes] {
        let store = session.store
        let ids: [UUID]
        switch try lookup(word) {
        case .variable(let name, .clothes(let list, let isList)):
            if expectOne, isList, list.count != 1 {
                throw Diagnostic("'$\(name)' holds \(list.count) clothes; one is needed here", at: word.range)
            }
            ids = list
        case .variable(let name, .styles):
            throw Diagnostic("'$\(name)' is a style, not clothes", at: word.range)
        case .variable(let name, .count):
            throw Diagnostic("'$\(name)' is a count, not clothes", at: word.range)
        case .row(let n, .clothes(let list)):
            ids = [list[n - 1]]
        case .row(_, .styles):
            throw Diagnostic("'\(word.text)' is a row of the last style listing, not clothes", at: word.range)
        case .id(let text):
            return [try match(text, word: word, entity: "clothes", all: store.fetchAllClothes(), id: \.id)]
        }
        return try ids.map { id throws(Diagnostic) in
            guard let clothes = store.clothes(withID: id) else {
                throw Diagnostic("'\(word.text)' refers to clothes \(GridBuilder.shortID(id)), which was removed", at: word.range)
            }
            return clothes
        }
    }

    func style(_ word: Word) throws(Diagnostic) -> Style {
        let store = session.store
        let id: UUID
        switch try lookup(word) {
        case .variable(let name, .styles(let list, _)):
            guard list.count == 1 else {
                throw Diagnostic("'$\(name)' holds \(list.count) styles; one is needed here", at: word.range)
            }
            id = list[0]
        case .variable(let name, .clothes):
            throw Diagnostic("'$\(name)' is clothes, not a style", at: word.range)
        case .variable(let name, .count):
            throw Diagnostic("'$\(name)' is a count, not a style", at: word.range)
        case .row(let n, .styles(let list)):
            id = list[n - 1]
        case .row(_, .clothes):
            throw Diagnostic("'\(word.text)' is a row of the last clothes listing, not a style", at: word.range)
        case .id(let text):
            let styles = (try? store.fetchStyles()) ?? []
            return try match(text, word: word, entity: "style", all: styles, id: \.id)
        }
        guard let style = store.style(withID: id) else {
            throw Diagnostic("'\(word.text)' refers to style \(GridBuilder.shortID(id)), which was removed", at: word.range)
        }
        return style
    }

    private enum Target {
        case variable(String, VariableValue)
        case row(Int, Listing)
        case id(String)
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
                throw Diagnostic("'\(text)' is not a row reference; write @1 for the first row of the last listing", at: word.range)
            }
            guard let listing = session.lastListing else {
                throw Diagnostic("'\(text)' refers to the last listing, and nothing has been listed yet", at: word.range)
            }
            guard n <= listing.count else {
                throw Diagnostic("there is no row \(text): the last listing had \(listing.count) row\(listing.count == 1 ? "" : "s")", at: word.range)
            }
            return .row(n, listing)
        }
        return .id(text)
    }

    private func match<T>(_ text: String, word: Word, entity: String, all: [T], id: KeyPath<T, UUID>) throws(Diagnostic) -> T {
        if let uuid = UUID(uuidString: text) {
            guard let found = all.first(where: { $0[keyPath: id] == uuid }) else {
                throw Diagnostic("no \(entity) has id '\(text)'", at: word.range)
            }
            return found
        }
        let hex = text.replacingOccurrences(of: "-", with: "")
        guard !hex.isEmpty, hex.allSatisfy(\.isHexDigit) else {
            throw Diagnostic(
                "'\(text)' is not a reference: use an id or id prefix, a $variable, or @N for a row of the last listing",
                at: word.range)
        }
        guard hex.count >= Self.minimumPrefixLength else {
            throw Diagnostic("id prefix '\(text)' is too short: type at least \(Self.minimumPrefixLength) characters", at: word.range)
        }
        let prefix = text.uppercased()
        let found = all.filter { $0[keyPath: id].uuidString.hasPrefix(prefix) }
        switch found.count {
        case 1:
            return found[0]
        case 0:
            throw Diagnostic("no \(entity) has an id starting with '\(text)'", at: word.range)
        default:
            let shown = found.prefix(Self.ambiguityListLimit).map { String($0[keyPath: id].uuidString.prefix(prefix.count + 4)) }
            let more = found.count > Self.ambiguityListLimit ? ", ..." : ""
            throw Diagnostic(
                "'\(text)' matches \(found.count) \(entity == "clothes" ? "clothes" : "styles") (\(shown.joined(separator: ", "))\(more)); type more of the id",
                at: word.range)
        }
    }
}

/// The rows of the most recent listing, for `@N`.
public enum Listing: Sendable {
    case clothes([UUID])
    case styles([UUID])

    var count: Int {
        switch self {
        case .clothes(let ids): ids.count
        case .styles(let ids): ids.count
        }
    }
}
