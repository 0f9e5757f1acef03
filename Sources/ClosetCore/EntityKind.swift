import Foundation

/// A kind of thing a pack's commands work on (an item, a product, a movie): the words that
/// name it and how its rows are shown. References, variables, listings, help and the output
/// renderers read it, so the engine never names an entity itself.
public struct EntityKind: Sendable, Hashable {
    /// How rows of this kind are keyed: UUIDs take a unique hex prefix; opaque keys (a
    /// remote service's ids) must be written whole.
    public enum KeyStyle: Sendable, Hashable {
        case uuid
        case opaque
    }

    /// "item": the word in command paths and messages.
    public var singular: String { storage.singular }
    /// "items".
    public var plural: String { storage.plural }
    /// The Korean word, accepted wherever the English word is.
    public var korean: String { storage.korean }
    /// How a message names one: "an item".
    public var indefinite: String { storage.indefinite }
    public var keyStyle: KeyStyle { storage.keyStyle }
    /// The singulars of other kinds this kind's keys also name: a box office row's key is a
    /// movie code, so `show movie @3` takes row 3 of `list boxoffice` (and `show poster @3`
    /// its poster).
    public var namesEntities: [String] { storage.namesEntities }
    /// What follows a listing's row number under `.lang ko` where the app labels its cells by
    /// number (Picterest's feed: `3번째 사진`); nil: the number alone.
    public var koreanRowLabel: String? { storage.koreanRowLabel }
    /// What tables, csv and line show of a row, derived from the entity's fields when first
    /// read: start-up knows every kind by its words, and building each schema's fields was a
    /// quarter of a new process's instructions.
    @usableFromInline var columns: Deferred<Columns> { storage.columns }

    /// The kind's words and columns, shared by every copy: an outcome carries its kind, and
    /// copying seven strings and arrays (and releasing them) was a tenth of an import's `add`.
    @usableFromInline final class Storage: Sendable {
        let singular: String
        let plural: String
        let korean: String
        let indefinite: String
        let keyStyle: KeyStyle
        let namesEntities: [String]
        let koreanRowLabel: String?
        @usableFromInline let columns: Deferred<Columns>

        init(
            singular: String, plural: String, korean: String, indefinite: String, keyStyle: KeyStyle,
            namesEntities: [String], koreanRowLabel: String?, columns: Deferred<Columns>
        ) {
            self.singular = singular
            self.plural = plural
            self.korean = korean
            self.indefinite = indefinite
            self.keyStyle = keyStyle
            self.namesEntities = namesEntities
            self.koreanRowLabel = koreanRowLabel
            self.columns = columns
        }
    }
    @usableFromInline let storage: Storage

    /// Table columns (for people) and data columns (csv and line, for tools), in order. A
    /// record fills them; an empty listing still prints its header from here.
    public struct Columns: Sendable {
        package var table: [String]
        /// The table's headers as the app labels them in Korean (`.lang ko`).
        package var koreanTable: [String]
        public var data: [String]
        /// Every field an export may write, JSON's and csv's (what an import accepts).
        public var fieldNames: [String]
        /// Table columns left out when they are empty in every row shown (pictures).
        package var optionalTable: Set<String>
        /// Table columns a narrow terminal never cuts (a date range: cut, it says the wrong thing).
        package var wholeTable: Set<String>
        /// Fields `add` and `edit` take as whole numbers (`price=`, `stock=`): JSON numbers in
        /// every output, which a test of every command's JSON holds them to.
        package var wholeNumbers: Set<String>

        public init(
            table: [String], koreanTable: [String]? = nil, data: [String], fieldNames: [String] = [],
            optionalTable: Set<String> = [], wholeTable: Set<String> = [], wholeNumbers: Set<String> = []
        ) {
            self.table = table
            self.koreanTable = koreanTable ?? table
            self.data = data
            self.fieldNames = fieldNames
            self.optionalTable = optionalTable
            self.wholeTable = wholeTable
            self.wholeNumbers = wholeNumbers
        }
    }

    package var tableColumns: [String] { columns.value.table }
    package var koreanTableColumns: [String] { columns.value.koreanTable }
    public var dataColumns: [String] { columns.value.data }
    public var fieldNames: [String] { columns.value.fieldNames }
    package var optionalTableColumns: Set<String> { columns.value.optionalTable }
    @usableFromInline package var wholeTableColumns: Set<String> { columns.value.wholeTable }
    package var wholeNumberFields: Set<String> { columns.value.wholeNumbers }

    /// A kind whose columns come from its schema when first read (`EntitySchema.columns`):
    /// `columns` must not be read while the schema is being made.
    public init(
        singular: String, plural: String, korean: String, indefinite: String, keyStyle: KeyStyle = .uuid,
        namesEntities: [String] = [], koreanRowLabel: String? = nil, columns: @escaping @Sendable () -> Columns
    ) {
        storage = Storage(
            singular: singular, plural: plural, korean: korean, indefinite: indefinite, keyStyle: keyStyle,
            namesEntities: namesEntities, koreanRowLabel: koreanRowLabel, columns: Deferred(columns))
    }

    /// A kind is its word: entity words are unique across the installed packs
    /// (`RegistryValidator`), and comparing every column list made each `kind ==` check of a
    /// statement's references cost thousands of instructions.
    public static func == (a: EntityKind, b: EntityKind) -> Bool { a.storage === b.storage || a.singular == b.singular }

    public func hash(into hasher: inout Hasher) { hasher.combine(singular) }

    /// "1 item", "3 items".
    public func counted(_ count: Int) -> String { "\(count) \(count == 1 ? singular : plural)" }

    /// Whether a key of this kind may stand for one of `other` (the same kind, or the kind
    /// this one names).
    public func names(_ other: EntityKind) -> Bool { self == other || namesEntities.contains(other.singular) }

    /// Every word that names this kind: singular, plural, Korean.
    public var words: [String] { [singular, plural, korean] }
}

/// A row's key: what references resolve to, variables and listings hold, and `@N` names.
public enum EntityKey: Hashable, Sendable {
    case uuid(UUID)
    case opaque(String)

    /// How ids are shortened in tables: long enough to be unique in any real store, and a
    /// valid prefix reference.
    package static let shortLength = 8

    /// The full key, as JSON, csv and `.dump` write it.
    public var text: String {
        switch self {
        case .uuid(let id): id.text
        case .opaque(let text): text
        }
    }

    /// The key as a table shows it: a UUID's first eight characters, an opaque key whole.
    public var short: String {
        switch self {
        case .uuid(let id): String(id.text.prefix(Self.shortLength))
        case .opaque(let text): text
        }
    }

    public var uuid: UUID? {
        switch self {
        case .uuid(let id): id
        case .opaque: nil
        }
    }
}
