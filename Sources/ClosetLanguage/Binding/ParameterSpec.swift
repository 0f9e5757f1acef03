import ClosetCore

/// A word after the command's name (`show item <ref>`).
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
