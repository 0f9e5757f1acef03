/// What a key or positional parameter takes. The binder checks values against it, help
/// prints it, and completion offers values from it. The engine's primitives are closed
/// cases; a pack's words and entities come in through the two open ones.
public enum ValueKind: Sendable, Hashable {
    case text
    /// A whole number from 0 to `WholeNumber.maximum`.
    case count
    case size
    case date
    /// A file path; `allowsNone` accepts `none` to remove.
    case path(allowsNone: Bool)
    /// Pictures or other files, one or up to `maximum`, separated by commas (`a.png,b.jpg`);
    /// the command reads them as one text (`Invocation.text`).
    case paths(maximum: Int)
    /// A full UUID for a new entity (`add ... id=`), as `.dump` writes to pin ids.
    case newID
    /// One term of a pack's vocabulary, or a comma-separated list of them.
    case vocabulary(VocabularyInfo, many: Bool)
    /// An entity (`<ref>`), or a list of them; `allowsNone` accepts `none` to empty a slot;
    /// a constraint is checked by the entity's pack (a slot that takes one kind of entity).
    case reference(EntityKind, many: Bool, allowsNone: Bool, constraint: ReferenceConstraint?)
    /// A name (or code) from a list the pack fetches: read as text, completed from the names
    /// of the list the session has seen.
    case name(NameList)

    /// How usage lines show the value.
    public var placeholder: String {
        switch self {
        case .text: "<text>"
        case .count: "<n>"
        case .size: "<size>"
        case .date: "<date>"
        case .path(let allowsNone): allowsNone ? "<path>|none" : "<path>"
        case .paths: "<path>[,<path>...]"
        case .newID: "<uuid>"
        case .name(let list): list.placeholder
        case .vocabulary(let info, let many): many ? "\(info.placeholder)[,...]" : info.placeholder
        case .reference(_, let many, let allowsNone, _): many ? "<ref>[,...]" : allowsNone ? "<ref>|none" : "<ref>"
        }
    }

    /// Fixed words this kind accepts, English first then Korean, for help and completion.
    package var choices: [String] {
        switch self {
        case .vocabulary(let info, _): info.spellings
        case .reference(_, _, true, _), .path(true): ["none"]
        case .text, .count, .size, .date, .path, .paths, .newID, .reference, .name: []
        }
    }
}
