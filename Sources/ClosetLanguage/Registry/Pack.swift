import ClosetCore
import ClosetTables

/// An app hosted by the engine, registered through this one door: its vocabularies, entity
/// kinds and commands, and how to make its per-session state. Help, completion, suggestions,
/// `.vars`, `.store`, the banner and `.dump` read everything about a pack from here.
public struct Pack: Sendable {
    /// The name `.help <pack>` takes, in lower case.
    public var name: String
    /// One line for `.help`.
    public var summary: String
    public var vocabularies: [VocabularyInfo]
    public var entityKinds: [EntityKind]
    /// The tables it stores, opened with the store (so rows of older formats can be read).
    public var tables: [AnyTableSchema]
    public var commands: [CommandSpec]
    /// Statements the parser quotes to show a shape, in this pack's words.
    public var syntaxExamples: SyntaxExamples?
    /// The pack's state for one session: repositories, view models, caches.
    public var makeState: @Sendable (PackServices) throws -> any PackState

    public init(
        name: String, summary: String, vocabularies: [VocabularyInfo], entityKinds: [EntityKind],
        tables: [AnyTableSchema] = [], commands: [CommandSpec], syntaxExamples: SyntaxExamples? = nil,
        makeState: @escaping @Sendable (PackServices) throws -> any PackState
    ) {
        self.syntaxExamples = syntaxExamples
        self.tables = tables
        self.name = name
        self.summary = summary
        self.vocabularies = vocabularies
        self.entityKinds = entityKinds
        self.commands = commands
        self.makeState = makeState
    }
}
