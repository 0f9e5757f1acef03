import ClosetCore

/// A word after the command's name (`show item <ref>`).
public struct ParameterSpec: Sendable, Hashable {
    public var name: String
    public var kind: ValueKind
    public var summary: String

    /// How usage and help show it: its kind's (`<ref>`, `<n>`), or its own name where the kind
    /// says only that it is text.
    public var placeholder: String {
        if case .text = kind { return "<\(name)>" }
        return kind.placeholder
    }

    public init(_ name: String, _ kind: ValueKind, _ summary: String) {
        self.name = name
        self.kind = kind
        self.summary = summary
    }
}
