/// The syntax tree: what a statement says, before anyone checks it against the registry.
/// Every node keeps its source range so any later stage can point at the offending word.

/// A word as written: bare or quoted text.
public struct Word: Hashable, Sendable {
    public var text: String
    package var isQuoted: Bool
    public var range: SourceRange

    public init(text: String, isQuoted: Bool, range: SourceRange) {
        self.text = text
        self.isQuoted = isQuoted
        self.range = range
    }
}

/// `key=value` or `key=v1,v2,...`.
public struct Argument: Hashable, Sendable {
    public var key: Word
    public var values: [Word]
    public var range: SourceRange
}

/// `verb [entity] [positional...] [key=value...]`, in any order after the verb.
public struct CommandCall: Hashable, Sendable {
    /// Bare and quoted words that are not part of an argument, in order: verb, entity, refs.
    public var words: [Word]
    public var arguments: [Argument]
    public var range: SourceRange
}

/// `let $name = <command>`.
package struct Binding: Hashable, Sendable {
    /// The name without its `$`.
    public var name: String
    package var nameRange: SourceRange
    public var command: CommandCall
    public var range: SourceRange
}

/// `.name word...`: shell settings, never stored.
package struct DotCall: Hashable, Sendable {
    public var name: Word
    public var arguments: [Word]
    public var range: SourceRange
}

package struct Statement: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        case command(CommandCall)
        case binding(Binding)
        case dot(DotCall)
    }

    public var kind: Kind

    /// A dot command (a shell setting or action, not a statement on the data).
    package var isDot: Bool {
        switch kind {
        case .dot: true
        case .command, .binding: false
        }
    }
    public var range: SourceRange
}
