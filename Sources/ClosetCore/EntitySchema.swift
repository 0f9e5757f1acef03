/// One field of an entity, declared once: its JSON name and value, the label people read, how
/// csv and line carry it, and how a table shows it. The schema derives every output from these.
public struct EntityField<Model>: Sendable {
    /// How csv and line (flat, for tools) carry the field.
    public enum Data: Sendable {
        /// Its JSON value, under its name.
        case same
        /// Not at all (a nested object whose parts are other fields already).
        case none
        /// Another value under its name (`images` as a count, a list joined into text).
        case value(@Sendable (Model) -> FieldValue)
        /// Several columns of their own (a picture's `format`, `width`, `height`, `bytes`).
        case columns([DataColumn])
    }

    /// One flat column a field is carried in.
    public struct DataColumn: Sendable {
        public var name: String
        public var value: @Sendable (Model) -> FieldValue

        public init(_ name: String, _ value: @escaping @Sendable (Model) -> FieldValue) {
            self.name = name
            self.value = value
        }
    }

    /// The JSON key, and the name `listing:` and tools use.
    public var name: String
    /// What people read: a table's header, a detail's label (`created` for `createdAt`).
    public var label: String
    /// The label the app shows in Korean, where it shows one.
    public var korean: String?
    /// The JSON value; nil for a column only people see (a picture's summary, a period).
    public var json: (@Sendable (Model) -> FieldValue)?
    /// The value people see (a label, a struck-through price); nil: the JSON value.
    public var shown: (@Sendable (Model) -> FieldValue)?
    public var data: Data
    /// A listing's column left out when it is empty in every row shown (pictures).
    @usableFromInline package var isOptionalColumn: Bool
    /// Whether `show` lists it (a JSON-only summary of other fields is left out).
    @usableFromInline package var inDetail: Bool
    /// Whether a narrow terminal may cut it in a listing (never, for a date range).
    @usableFromInline package var keepsWhole = false
    /// Whether `.dump` writes its text as a bare word (a currency code) rather than quoted.
    @usableFromInline package var restoresAsWord = false
    /// Rows of another entity under this one (a story's comments): `show` draws them as a
    /// table of their own under the fields.
    public var children: (@Sendable (Model) -> ChildTable)?
    /// How statements give it (`add`, `edit`, and what `.dump` writes); nil for a field no
    /// statement sets (a count, a label).
    public var input: FieldInput? = nil
    /// How the input's value is put on the model (`EntitySchema.apply`); nil where the pack
    /// reads the input itself (a picture, a reference, what only a dump gives).
    public var setter: FieldSetter<Model>? = nil

    /// A field of the JSON object, shown to people as `shown` (or as it is).
    /// `word`: `.dump` writes the text bare (`currency=KRW`), not quoted.
    /// `input`: how statements give it (`.required("title", .text, "the name")`), and `set`
    /// the property it sets (`.to(\.title)`).
    public static func field(
        _ name: String, label: String? = nil, korean: String? = nil, data: Data = .same, optional: Bool = false,
        detail: Bool = true, word: Bool = false, input: FieldInput? = nil, set setter: FieldSetter<Model>? = nil,
        shown: (@Sendable (Model) -> FieldValue)? = nil, _ json: @escaping @Sendable (Model) -> FieldValue
    ) -> EntityField {
        precondition(setter == nil || input != nil, "\(name): a field a statement sets declares its input")
        var field = EntityField(
            name: name, label: label ?? name, korean: korean, json: json, shown: shown, data: data,
            isOptionalColumn: optional, inDetail: detail)
        field.restoresAsWord = word
        field.input = input
        field.setter = setter
        return field
    }

    /// Entities of another schema held by this one (a story's comments): JSON nests their
    /// objects, `show` lists them as a table with the child's listing columns under `title`
    /// (default: the label), and a listing shows `shown` (a count) if this field is in it.
    public static func children<Child>(
        _ name: String, label: String? = nil, korean: String? = nil, of schema: EntitySchema<Child>,
        title: String? = nil, data: Data = .none, input: FieldInput? = nil,
        shown: (@Sendable (Model) -> FieldValue)? = nil, json: (@Sendable (Model) -> FieldValue)? = nil,
        _ rows: @escaping @Sendable (Model) -> [Child]
    ) -> EntityField {
        let title = title ?? label ?? name
        let koreanTitle = korean ?? schema.kind.korean
        return EntityField(
            name: name, label: label ?? name, korean: korean,
            json: json ?? { model in .list(rows(model).map { .object(schema.jsonFields($0)) }) }, shown: shown,
            data: data, isOptionalColumn: false, inDetail: true,
            children: { model in schema.childTable(title: title, koreanTitle: koreanTitle, rows(model)) }, input: input)
    }

    /// A value only people see, made of other fields (`WxH`, `2024-05-01 ~ 2024-05-11`);
    /// `whole` keeps a narrow terminal from cutting it.
    public static func column(
        _ name: String, korean: String? = nil, optional: Bool = false, detail: Bool = false, whole: Bool = false,
        _ shown: @escaping @Sendable (Model) -> FieldValue
    ) -> EntityField {
        var field = EntityField(
            name: name, label: name, korean: korean, json: nil, shown: shown, data: .none, isOptionalColumn: optional,
            inDetail: detail)
        field.keepsWhole = whole
        return field
    }

    func peopleValue(_ model: Model) -> FieldValue { (shown ?? json)?(model) ?? .null }

    /// The label in the session's language: the app's Korean where it has one.
    @usableFromInline var koreanLabel: String { korean ?? label }
}

/// An entity declared once (issue 23): its kind (its words) and its fields, in JSON order, and
/// which of them a listing shows, in its order. The kind's columns (for tables, csv and line) and
/// every record are derived from it, so a field's name is written in one place.
public struct EntitySchema<Model>: Sendable {
    public let kind: EntityKind
    public let fields: [EntityField<Model>]
    @usableFromInline let listing: [Int]
    /// What `.dump` writes to make the entity again, in order (see `restoring`).
    @usableFromInline let restore: [RestoreArgument]
    /// The bytes that begin each of `restore`'s arguments (` key=`), one after another.
    @usableFromInline let openings: [UInt8]
    /// The fields statements give (`input`), in the order `add` lists their keys: required,
    /// then optional, then restoring ones, each in `restore`'s order (else the fields').
    public let inputs: [Int]
    /// Each of `inputs`' declared input and setter, kept apart from the fields: code not
    /// specialized for the model (drafting a statement's values, applying them) copied a whole
    /// field, every closure in it retained, to read one of them (7 % of seeding products).
    @usableFromInline package let inputFields: [FieldInput]
    @usableFromInline package let inputSetters: [FieldSetter<Model>?]
    /// What tables, csv and line show, derived from the fields (the kind reads it from here).
    public let columns: EntityKind.Columns

    /// An entity whose kind was declared apart (`EntityKind(..., columns: { schema.columns })`),
    /// so start-up, which needs only its words, does not make its fields. `listing` names the
    /// fields a table shows, in order (their labels are its headers). `restore` names the
    /// arguments of the statement that makes the entity again (`.dump`), in order: a field's
    /// name (written `label=value`, left out when null or empty), or a key the pack supplies
    /// when it dumps (left out when it supplies none). Inlinable, so it is specialized for the
    /// pack's model: generic code copied each field through its value witnesses.
    @inlinable public init(kind: EntityKind, fields: [EntityField<Model>], listing: [String], restore: [String] = []) {
        // Plain loops over concrete arrays: key paths and unspecialized generic algorithms over
        // `EntityField<Model>` cost more than the work (each key path instantiates a class per
        // model).
        var fieldNames: [String] = []
        var hasJSON: [Bool] = []
        for index in fields.indices {
            fieldNames.append(fields[index].name)
            hasJSON.append(fields[index].json != nil)
        }
        var indices: [Int] = []
        for name in listing {
            guard let index = fieldNames.firstIndex(of: name) else {
                preconditionFailure("\(kind.singular): the listing names '\(name)', which is not a field")
            }
            indices.append(index)
        }
        var data: [String] = []
        for index in fields.indices {
            switch fields[index].data {
            case .same, .value: data.append(fieldNames[index])
            case .none: break
            case .columns(let columns): for column in columns { data.append(column.name) }
            }
        }
        precondition(Set(fieldNames).count == fields.count, "\(kind.singular): a field is declared twice")
        var openings: [UInt8] = []
        self.restore = restore.map { name in
            if let index = fieldNames.indices.first(where: { fieldNames[$0] == name && hasJSON[$0] }) {
                return .field(
                    index, opening: Self.opening(fields[index].input?.key ?? fields[index].label, in: &openings),
                    supplied: Self.opening(fields[index].input?.key ?? fieldNames[index], in: &openings))
            }
            return .supplied(name, opening: Self.opening(name, in: &openings))
        }
        self.openings = openings
        var inputs: [(use: FieldInput.Use, place: Int, index: Int)] = []
        var inputKeys: Set<String> = []
        for index in fields.indices {
            guard let input = fields[index].input else { continue }
            precondition(
                inputKeys.insert(input.key).inserted, "\(kind.singular): input key '\(input.key)' declared twice")
            let place = restore.firstIndex(of: fieldNames[index]) ?? restore.count + index
            inputs.append((input.use, place, index))
        }
        inputs.sort { ($0.use, $0.place) < ($1.use, $1.place) }
        self.inputs = inputs.map(\.index)
        inputFields = inputs.compactMap { fields[$0.index].input }
        inputSetters = inputs.map { fields[$0.index].setter }
        self.fields = fields
        self.listing = indices
        var names = data
        for index in fields.indices where hasJSON[index] && !names.contains(fieldNames[index]) {
            names.append(fieldNames[index])
        }
        columns = EntityKind.Columns(
            table: indices.map { fields[$0].label }, koreanTable: indices.map { fields[$0].koreanLabel }, data: data,
            fieldNames: names,
            optionalTable: Set(indices.filter { fields[$0].isOptionalColumn }.map { fields[$0].label }),
            wholeTable: Set(indices.filter { fields[$0].keepsWhole }.map { fields[$0].label }),
            wholeNumbers: Set(
                fields.indices.filter { index in
                    // What only a dump gives may be written otherwise (a receipt `R-000012`).
                    guard hasJSON[index], let input = fields[index].input, input.use != .restoring else { return false }
                    if case .count = input.kind { return true }
                    return false
                }.map { fieldNames[$0] }))
        self.kind = kind
    }

    /// The same entity with only the named fields, listed in that order: a brief form of it
    /// nested in another's detail (a profile's donations: receipt and amount), its fields still
    /// declared once here.
    public func only(_ names: [String]) -> EntitySchema {
        EntitySchema(kind: kind, fields: fields.filter { names.contains($0.name) }, listing: names)
    }

    /// The JSON object alone (an entity nested inside another, as a comment in its story).
    @inlinable public func jsonFields(_ model: Model) -> [Field] {
        var object: [Field] = []
        object.reserveCapacity(fields.count)
        for index in fields.indices {
            if let json = fields[index].json { object.append(Field(fields[index].name, json(model))) }
        }
        return object
    }

    /// The csv columns' values alone (an export to CSV: no JSON object, no table row).
    @inlinable public func dataValues(_ model: Model) -> [FieldValue] {
        var data: [FieldValue] = []
        data.reserveCapacity(columns.data.count)
        for index in fields.indices {
            switch fields[index].data {
            case .same: data.append(fields[index].json.map { $0(model) } ?? .null)
            case .none: break
            case .value(let value): data.append(value(model))
            case .columns(let columns): for column in columns { data.append(column.value(model)) }
            }
        }
        return data
    }

    /// One pass over the fields, each JSON value made once and shared by csv and the table:
    /// records are built for every row shown, so this is on the path of every listing. Fields
    /// are read in place by index (a copied field would retain each of its closures). Inlinable
    /// so it is specialized for the pack's model: generic code looked up metadata per field.
    @inlinable public func record(_ model: Model) -> Record {
        var values = [FieldValue](repeating: .null, count: fields.count)
        var object: [Field] = []
        object.reserveCapacity(fields.count)
        var data: [FieldValue] = []
        data.reserveCapacity(columns.data.count)
        for index in fields.indices {
            if let json = fields[index].json {
                let value = json(model)
                values[index] = value
                object.append(Field(fields[index].name, value))
            }
            switch fields[index].data {
            case .same: data.append(values[index])
            case .none: break
            case .value(let value): data.append(value(model))
            case .columns(let columns): for column in columns { data.append(column.value(model)) }
            }
        }
        var table: [FieldValue] = []
        table.reserveCapacity(listing.count)
        for index in listing {
            table.append(fields[index].shown.map { $0(model) } ?? values[index])
        }
        return Record(fields: object, data: data, table: table)
    }

    /// The record's `parts` alone (the others empty): a listing written as csv makes only
    /// the data values each row needs, as an export does.
    @inlinable public func record(_ model: Model, parts: Record.Parts) -> Record {
        if parts == .all { return record(model) }
        var object: [Field] = []
        if parts.contains(.fields) {
            object.reserveCapacity(fields.count)
            for index in fields.indices {
                if let json = fields[index].json { object.append(Field(fields[index].name, json(model))) }
            }
        }
        var table: [FieldValue] = []
        if parts.contains(.table) {
            table.reserveCapacity(listing.count)
            for index in listing {
                table.append(fields[index].shown.map { $0(model) } ?? fields[index].json.map { $0(model) } ?? .null)
            }
        }
        return Record(fields: object, data: parts.contains(.data) ? dataValues(model) : [], table: table)
    }

    /// The record with its detail view, for `show`: every field meant for it, in declared
    /// order, and its children's tables.
    public func detailRecord(_ model: Model) -> Record {
        var record = record(model)
        var lines: [RecordDetail.Line] = []
        var children: [ChildTable] = []
        for field in fields where field.inDetail {
            if let child = field.children {
                children.append(child(model))
                continue
            }
            let value = field.peopleValue(model)
            // An optional field with nothing in it (no picture) is left out, as its column is.
            if field.isOptionalColumn, case .null = value { continue }
            lines.append(RecordDetail.Line(field.label, korean: field.koreanLabel, value))
        }
        record.detail = RecordDetail(lines: lines, children: children)
        return record
    }

    /// The arguments `.dump` writes for the entity, in the declared order: each field's key
    /// (its input's, the one `add` reads; else its label), as the bytes ` key=` that begin its
    /// argument, and value (with whether its text is a bare word), or a supplied key and its
    /// text. A field's key in `supplied` writes that
    /// text under the key instead (a picture's path). Handed over one at a time and inlinable,
    /// so a dump of a million rows makes no array per row and reads the model's fields
    /// specialized.
    @inlinable package func forEachRestored(
        _ model: Model, supplied: [String: String],
        _ body: (_ opening: UnsafeBufferPointer<UInt8>, _ value: RestoredValue) -> Void
    ) {
        openings.withUnsafeBufferPointer { openings in
            for argument in restore {
                switch argument {
                case .field(let index, let opening, let suppliedOpening):
                    // The key looked for among the pack's own texts only when it has any (a
                    // dump's row of a million seldom does).
                    if !supplied.isEmpty, let text = supplied[fields[index].input?.key ?? fields[index].name] {
                        body(UnsafeBufferPointer(rebasing: openings[suppliedOpening]), .written(text))
                        continue
                    }
                    guard let value = fields[index].json?(model) else { continue }
                    body(
                        UnsafeBufferPointer(rebasing: openings[opening]),
                        .value(value, word: fields[index].restoresAsWord))
                case .supplied(let key, let opening):
                    if let text = supplied[key] {
                        body(UnsafeBufferPointer(rebasing: openings[opening]), .written(text))
                    }
                }
            }
        }
    }

    /// `forEachRestored`'s arguments as one list.
    package func restoring(_ model: Model, supplied: [String: String]) -> [(key: String, value: RestoredValue)] {
        var arguments: [(key: String, value: RestoredValue)] = []
        forEachRestored(model, supplied: supplied) { opening, value in
            arguments.append((String(decoding: opening.dropFirst().dropLast(), as: UTF8.self), value))
        }
        return arguments
    }

    /// ` key=` added to `openings`; where it lies there.
    @usableFromInline static func opening(_ key: String, in openings: inout [UInt8]) -> Range<Int> {
        let start = openings.count
        openings.append(UInt8(ascii: " "))
        openings.append(contentsOf: key.utf8)
        openings.append(UInt8(ascii: "="))
        return start..<openings.count
    }

    /// Rows of this entity under another one's detail, with this entity's listing columns.
    package func childTable(title: String, koreanTitle: String, _ models: [Model]) -> ChildTable {
        ChildTable(
            title: title, koreanTitle: koreanTitle, columns: listing.map { fields[$0].label },
            koreanColumns: listing.map { fields[$0].koreanLabel },
            rows: models.map { model in listing.map { fields[$0].peopleValue(model) } })
    }
}

/// One argument of the statement `.dump` writes: a field, under its label (`created=`), or a
/// key only the pack can fill (a picture's copied path, a password hash). Outside the generic
/// schema on purpose: a type nested in it would be instantiated for every model at start-up.
@usableFromInline package enum RestoreArgument: Sendable {
    /// The field, where its ` key=` lies in the schema's `openings`, and where the one lies
    /// that a text the pack supplies for it is written under.
    case field(Int, opening: Range<Int>, supplied: Range<Int>)
    case supplied(String, opening: Range<Int>)
}

/// An argument's value as the schema knows it, or as the pack wrote it.
@usableFromInline package enum RestoredValue {
    case value(FieldValue, word: Bool)
    case written(String)
}
