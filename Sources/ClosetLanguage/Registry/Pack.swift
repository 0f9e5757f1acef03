import ClosetCore

/// An app hosted by the engine, registered through this one door: its vocabularies, entity
/// kinds and commands, and how to make its per-session state. Help, completion, suggestions,
/// `.vars`, `.store`, the banner and `.dump` read everything about a pack from here.
public struct Pack: Sendable {
    /// "wardrobe": the name `.help <pack>` takes.
    public var name: String
    /// One line for `.help`.
    public var summary: String
    public var vocabularies: [VocabularyInfo]
    public var entityKinds: [EntityKind]
    /// The tables it stores, opened with the store (so rows of older formats can be read).
    public var tables: [AnyTableSchema]
    public var commands: [CommandSpec]
    /// The pack's state for one session: repositories, view models, caches.
    public var makeState: @Sendable (PackServices) throws -> any PackState

    public init(
        name: String, summary: String, vocabularies: [VocabularyInfo], entityKinds: [EntityKind],
        tables: [AnyTableSchema] = [], commands: [CommandSpec],
        makeState: @escaping @Sendable (PackServices) throws -> any PackState
    ) {
        self.tables = tables
        self.name = name
        self.summary = summary
        self.vocabularies = vocabularies
        self.entityKinds = entityKinds
        self.commands = commands
        self.makeState = makeState
    }
}

/// What a pack's state may use: never the session itself.
public struct PackServices {
    /// The session's store. A pack reaches its own tables and blobs through it.
    public let store: Store
    public let clock: Clock
    public let ids: IDGenerator

    public init(store: Store, clock: Clock, ids: IDGenerator) {
        self.store = store
        self.clock = clock
        self.ids = ids
    }
}

/// Which entities of a kind exist, for references, completion and `.vars`. A pack's state
/// answers for the kinds it registered.
public protocol EntityCatalog: AnyObject {
    /// Every key of the kind, in store order (prefix matching, completion).
    func keys(of kind: EntityKind) -> [EntityKey]
    func contains(_ key: EntityKey, kind: EntityKind) -> Bool
    /// Why the entity does not meet the constraint (`is a bottom, not a top`), or nil.
    func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String?
    /// What `.vars` shows after a bound entity's short key (a description), or nil.
    func label(of key: EntityKey, kind: EntityKind) -> String?
    /// What a completion list shows after the short key (`top  navy knit`).
    func completionLabel(of key: EntityKey, kind: EntityKind) -> String
}

/// One pack's state in one session.
public protocol PackState: EntityCatalog {
    /// How many of each stored kind there are: `.store` and the banner.
    var counts: [(EntityKind, Int)] { get }
    /// Statements that recreate the pack's stored data exactly (`.dump`).
    func dump(into writer: inout DumpWriter) throws
}
