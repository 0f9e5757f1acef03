/// Statements the parser quotes in its messages to show the right shape. The parser knows no
/// command, so the examples come from the installed packs (the first that offers them), and
/// read like the user's own domain.
public struct SyntaxExamples: Sendable, Hashable {
    /// A `let` statement, cut short: `let $box = add item ...`.
    public var binding: String
    /// A key with a list value: `size=small,large`.
    public var list: String

    public init(binding: String, list: String) {
        self.binding = binding
        self.list = list
    }

    /// With no pack installed.
    package static let generic = SyntaxExamples(binding: "let $name = <command>", list: "key=a,b")
}
