import Foundation

/// One value of a record's field: what renderers know how to write. Tables show keys short
/// and dates as ISO 8601; JSON writes each kind as its JSON type. Not `indirect`: the nested
/// cases hold arrays, which are references already, and a boxed value was an allocation for
/// every field of every row written.
public enum FieldValue: Sendable, Hashable {
    case text(String)
    /// Text with the Korean the app shows (a vocabulary term, a label made of terms): people
    /// read it in the session's language (`.lang`); JSON, csv and line always carry English.
    case localized(String, korean: String)
    /// Text a table on a terminal marks as the app does (an original price struck through beside
    /// its discount, 신작 in red, 품절 in yellow); plain text everywhere else.
    case marked(String, TextMark)
    case integer(Int)
    case decimal(Double)
    case bool(Bool)
    case date(Date)
    case key(EntityKey)
    case null
    case object([Field])
    case list([FieldValue])

    /// Whether tables right-align it.
    package var isNumeric: Bool {
        switch self {
        case .integer, .decimal: true
        case .text, .localized, .marked, .bool, .date, .key, .null, .object, .list: false
        }
    }
}

/// How a terminal (in colour) shows a marked value: the apps' own emphasis.
public enum TextMark: Sendable, Hashable {
    case struck
    case red
    case blue
    case yellow

    /// The SGR sequences that turn it on and off.
    package var sequences: (on: String, off: String) {
        switch self {
        case .struck: ("\u{1B}[9m", "\u{1B}[29m")
        case .red: ("\u{1B}[31m", "\u{1B}[39m")
        case .blue: ("\u{1B}[34m", "\u{1B}[39m")
        case .yellow: ("\u{1B}[33m", "\u{1B}[39m")
        }
    }
}

/// A named value, in the order the record gives (JSON keeps it).
public struct Field: Sendable, Hashable {
    public var name: String
    public var value: FieldValue

    public init(_ name: String, _ value: FieldValue) {
        self.name = name
        self.value = value
    }
}

/// One entity as output sees it, built by its pack's schema; renderers turn records into
/// tables, JSON, csv and lines, so a pack writes no output code.
///
/// - `fields`: the JSON object, nested where the entity is (a list of records inside a record).
/// - `data`: flat values for csv and line, one per `EntityKind.dataColumns`.
/// - `table`: values for people, one per `EntityKind.tableColumns` (short keys, labels).
/// - `detail`: what `show` lists, when it was asked for: every field for people, and the
///   entity's children as tables of their own.
public struct Record: Sendable, Hashable {
    public var fields: [Field]
    public var data: [FieldValue]
    public var table: [FieldValue]
    public var detail: RecordDetail?

    public init(fields: [Field], data: [FieldValue], table: [FieldValue], detail: RecordDetail? = nil) {
        self.fields = fields
        self.data = data
        self.table = table
        self.detail = detail
    }

    /// The parts of a record a writer reads: a listing written as csv reads its data alone,
    /// and making the JSON object and the table's cells too was half of making its records.
    /// A part not asked for may be left empty.
    public struct Parts: OptionSet, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let fields = Parts(rawValue: 1)
        public static let data = Parts(rawValue: 2)
        public static let table = Parts(rawValue: 4)
        public static let all: Parts = [.fields, .data, .table]
    }
}

/// An entity's detail view (`show`): a labelled value per field, in full, then its children
/// (a story's comments) as tables under it.
public struct RecordDetail: Sendable, Hashable {
    package var lines: [Line]
    public var children: [ChildTable]

    /// One field by the label people read (in English and in the app's Korean), with the
    /// value they see.
    public struct Line: Sendable, Hashable {
        public var label: String
        public var korean: String
        public var value: FieldValue

        public init(_ label: String, korean: String? = nil, _ value: FieldValue) {
            self.label = label
            self.korean = korean ?? label
            self.value = value
        }
    }

    public init(lines: [Line], children: [ChildTable] = []) {
        self.lines = lines
        self.children = children
    }
}

/// Rows under an entity in its detail view, with the columns of their own listing.
public struct ChildTable: Sendable, Hashable {
    /// `comments`: what the rows are.
    public var title: String
    package var koreanTitle: String
    public var columns: [String]
    package var koreanColumns: [String]
    public var rows: [[FieldValue]]

    public init(
        title: String, koreanTitle: String? = nil, columns: [String], koreanColumns: [String]? = nil,
        rows: [[FieldValue]]
    ) {
        self.title = title
        self.koreanTitle = koreanTitle ?? title
        self.columns = columns
        self.koreanColumns = koreanColumns ?? columns
        self.rows = rows
    }
}
