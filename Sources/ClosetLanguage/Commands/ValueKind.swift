import ClosetDomain

/// What a key or positional parameter takes. The binder checks values against it, help
/// prints it, and completion offers values from it.
public enum ValueKind: Sendable, Hashable {
    case text
    case category
    case categories
    case season
    case seasons
    case sort
    /// A whole number ≥ 0.
    case count
    case size
    case date
    /// One clothes; `slot` demands that category; `allowsNone` accepts `none` to empty.
    case clothesRef(slot: ClothesCategory?, allowsNone: Bool)
    case clothesRefs
    case styleRef
    /// A file path; `allowsNone` accepts `none` to remove.
    case path(allowsNone: Bool)
    /// A full UUID for a new entity (`add ... id=`), as `.dump` writes to pin ids.
    case newID

    /// How usage lines show the value.
    public var placeholder: String {
        switch self {
        case .text: "<text>"
        case .category: "<category>"
        case .categories: "<category>[,...]"
        case .season: "<season>"
        case .seasons: "<season>[,...]"
        case .sort: "new|old"
        case .count: "<n>"
        case .size: "<size>"
        case .date: "<date>"
        case .clothesRef(_, let allowsNone): allowsNone ? "<ref>|none" : "<ref>"
        case .clothesRefs: "<ref>[,...]"
        case .styleRef: "<ref>"
        case .path(let allowsNone): allowsNone ? "<path>|none" : "<path>"
        case .newID: "<uuid>"
        }
    }

    /// Fixed words this kind accepts, English first then Korean, for help and completion.
    public var choices: [String] {
        switch self {
        case .category, .categories: ClothesCategory.allCases.flatMap(\.spellings)
        case .season, .seasons: WeatherType.allCases.flatMap(\.spellings)
        case .sort: SortBy.allCases.flatMap(\.spellings)
        case .clothesRef(_, true), .path(true): ["none"]
        case .text, .count, .size, .date, .clothesRef, .clothesRefs, .styleRef, .path, .newID: []
        }
    }
}

/// A `key=value` a command accepts.
public struct KeySpec: Sendable, Hashable {
    public var name: String
    public var kind: ValueKind
    public var summary: String
    public var isRequired: Bool

    public init(_ name: String, _ kind: ValueKind, _ summary: String, required: Bool = false) {
        self.name = name
        self.kind = kind
        self.summary = summary
        self.isRequired = required
    }
}

/// A word after the command's name (`show clothes <ref>`).
public struct ParameterSpec: Sendable, Hashable {
    public var name: String
    public var kind: ValueKind
    public var summary: String

    public init(_ name: String, _ kind: ValueKind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }
}
