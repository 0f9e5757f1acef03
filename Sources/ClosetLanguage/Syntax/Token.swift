/// What the lexer produces: words, quoted strings, `=` and `,`, each with its range and
/// whether blank space came before it (arguments are written without blanks: `key=value`).
package struct Token: Hashable, Sendable {
    package enum Kind: Hashable, Sendable {
        /// A bare word: a name, a number, an id, `$name`, `@N`, or unquoted text.
        case word(String)
        /// A quoted string with its escapes resolved.
        case quoted(String)
        case equals
        case comma
    }

    public var kind: Kind
    public var range: SourceRange
    package var followsBlank: Bool

    public init(kind: Kind, range: SourceRange, followsBlank: Bool) {
        self.kind = kind
        self.range = range
        self.followsBlank = followsBlank
    }
}
