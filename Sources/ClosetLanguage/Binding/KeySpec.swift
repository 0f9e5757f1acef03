import ClosetCore

/// A `key=value` a command accepts.
public struct KeySpec: Sendable, Hashable {
    public var name: String
    public var kind: ValueKind
    public var summary: String
    public var isRequired: Bool
    /// A secret (a password): its value is masked in the echo, error listings and history.
    public var isSecret: Bool

    public init(_ name: String, _ kind: ValueKind, _ summary: String, required: Bool = false, secret: Bool = false) {
        self.isSecret = secret
        self.name = name
        self.kind = kind
        self.summary = summary
        self.isRequired = required
    }
}
