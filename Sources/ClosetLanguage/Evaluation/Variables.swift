import ClosetCore

/// What `let $name = ...` bound. Entities are kept by key, so `$x` always means the entity as
/// it is now, and a removed one is reported as gone rather than shown stale.
public enum VariableValue: Hashable, Sendable {
    /// One entity (`isList` false) or a listing's entities.
    case entities(EntityKind, [EntityKey], isList: Bool)
    case count(Int)
}

public struct Variables: Sendable {
    public private(set) var values: [String: VariableValue] = [:]
    /// Names in the order first bound, for `.vars`.
    public private(set) var names: [String] = []

    public init() {}

    public subscript(name: String) -> VariableValue? {
        get { values[name] }
        set {
            if values[name] == nil, newValue != nil { names.append(name) }
            if newValue == nil { names.removeAll { $0 == name } }
            values[name] = newValue
        }
    }

    /// `$` then a letter or `_`, then letters, digits or `_` (Hangul letters included).
    package static func isValidName(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
