import ClosetCore

/// Turns an outcome into rows for table, csv and line output. Tables are for reading, so
/// they show a record's table values (short keys, labels) and leave out a column that is
/// null in every row; csv and line are for tools, so they carry the record's data values,
/// full keys included.
enum RecordGrid {
    static func grid(for outcome: Outcome, format: OutputFormat, language: OutputLanguage = .en) -> Grid? {
        switch outcome {
        case .entities(let entities):
            return grid(entities, forPeople: format.isForPeople, korean: language.isKorean)
        case .count(let count):
            return Grid(columns: ["count"], rows: [[String(count)]], numericColumns: [0])
        case .removed(_, let key):
            return Grid(columns: ["removed"], rows: [[key.text]])
        case .fields(let fields, _):
            let numeric = fields.indices.filter { fields[$0].value.isNumeric }
            return Grid(
                columns: fields.map(\.name), rows: [fields.map { cell($0.value, forPeople: false) }],
                numericColumns: Set(numeric))
        case .table(let grid):
            return grid
        case .properties(let fields, _):
            return Grid(columns: ["property", "value"], rows: fields.map { [$0.name, text(of: $0.value)] })
        case .text, .settings, .nothing:
            return nil
        }
    }

    static func grid(_ entities: Entities, forPeople: Bool, korean: Bool = false) -> Grid {
        let records = entities.records()
        let listing = entities.isListing
        guard forPeople else {
            return Grid(
                columns: entities.kind.dataColumns,
                rows: records.map { $0.data.map { cell($0, forPeople: false) } }, isListing: listing)
        }
        let all = records.map(\.table)
        var nonNull = [Bool](repeating: false, count: entities.kind.tableColumns.count)
        for row in all {
            for (column, value) in row.enumerated() where column < nonNull.count && !isNull(value) {
                nonNull[column] = true
            }
        }
        let shape = TableShape(entities, korean: korean, nonNull: nonNull, first: all.first)
        let values = all.map { row in shape.kept.map { row[$0] } }
        var rows = values.map { $0.map { cell($0, forPeople: true, korean: korean) } }
        // Keys whose short forms collide are shown as long as it takes to tell them apart
        // (one row cannot collide: a statement's own result is never looked at twice).
        for column in shape.kept.indices where values.count > 1 {
            let keys = values.map { row -> EntityKey? in
                if case .key(let key) = row[column] { return key }
                return nil
            }
            guard keys.contains(where: { $0 != nil }) else { continue }
            let shown = distinguishingShortKeys(keys.compactMap { $0 })
            var next = 0
            for row in values.indices where keys[row] != nil {
                rows[row][column] = shown[next]
                next += 1
            }
        }
        let offset = listing ? 1 : 0
        var marks: [GridCell: TextMark] = [:]
        for (row, record) in values.enumerated() {
            for (column, value) in record.enumerated() {
                if case .marked(_, let mark) = value { marks[GridCell(row: row, column: column + offset)] = mark }
            }
        }
        if listing { rows = rows.enumerated().map { [shape.number($0.offset)] + $0.element } }
        var grid = Grid(
            columns: shape.columns, rows: rows, numericColumns: shape.numeric, isListing: listing, marks: marks,
            footer: shape.footer, title: shape.title)
        grid.wholeColumns = shape.wholeColumns
        return grid
    }

    /// Each key's short form, lengthened where another key shares it (as git abbreviates
    /// commits): the shortest prefix of the full key that no other key in the list has.
    static func distinguishingShortKeys(_ keys: [EntityKey]) -> [String] {
        let shorts = keys.map(\.short)
        // One pass finds the short forms that repeat; only their keys are grouped (a million
        // UUIDs share a few dozen eight-character prefixes).
        var seen = Set<String>(minimumCapacity: shorts.count)
        var repeated = Set<String>()
        for short in shorts where !seen.insert(short).inserted { repeated.insert(short) }
        if repeated.isEmpty { return shorts }
        var groups: [String: Set<String>] = [:]
        for (key, short) in zip(keys, shorts) where repeated.contains(short) {
            groups[short, default: []].insert(key.text)
        }
        return zip(keys, shorts).map { key, short in shown(key.text, short: short, among: groups[short]) }
    }

    /// A key's short form, or as much of `text` as tells it from the other keys of `group`
    /// (the full keys whose short form is `short` too): one past the longest prefix it shares.
    static func shown(_ text: String, short: String, among group: Set<String>?) -> String {
        guard let group, group.count > 1 else { return short }
        let characters = Array(text)
        var length = short.count
        for other in group where other != text {
            let common = zip(characters, other).prefix { $0 == $1 }.count
            length = max(length, common + 1)
        }
        return String(characters.prefix(length))
    }

    static func isNull(_ value: FieldValue) -> Bool {
        if case .null = value { return true }
        return false
    }

    /// One value as a cell: keys short and dates in ISO 8601 for people; nested values as
    /// JSON text.
    /// A property's value in words: an object's members as `3 files, 1 transaction`.
    static func text(of value: FieldValue) -> String {
        guard case .object(let members) = value else { return cell(value, forPeople: true) }
        return members.map { member in
            let name =
                member.value == .integer(1) && member.name.hasSuffix("s") ? String(member.name.dropLast()) : member.name
            return cell(member.value, forPeople: true) + " " + name
        }.joined(separator: ", ")
    }

    static func cell(_ value: FieldValue, forPeople: Bool, korean: Bool = false) -> String {
        switch value {
        case .text(let text), .marked(let text, _): text
        case .localized(let english, let inKorean): forPeople && korean ? inKorean : english
        case .integer(let number): String(number)
        case .decimal(let number): JSONRenderer.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date): Timestamp.format(date)
        case .key(let key): forPeople ? key.short : key.text
        case .null: ""
        case .object, .list: JSONRenderer.value(value)
        }
    }
}
