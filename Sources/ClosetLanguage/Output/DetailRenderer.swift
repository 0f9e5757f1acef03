import ClosetCore

/// The detail view for people (`show`, and results with nested values such as `show profile`
/// or `cache stats posters`): a field per line, in full (wrapped at a terminal, never cut), as
/// psql's expanded display, then each child as a table of its own:
///
///     id       3
///     title    우리 콩이
///     content  입양한 지 1년, 이제 산책을 제일 좋아해요
///
///     comments (2)
///     id  story  author  text                 created
///     --  -----  ------  -------------------  --------------------
///      1      3  준호    콩이 너무 귀여워요!  2024-01-01T00:00:04Z
///
/// Nothing nested is ever written as JSON text: an object's parts become lines of their own
/// (`picture.width`), a list of words one line, a list of objects a table.
struct DetailRenderer {
    var table: TableRenderer
    var markdown: Bool
    var korean = false

    func render(_ detail: RecordDetail) -> String {
        var out = ""
        var lines: [(label: String, text: String)] = []
        var marks: [GridCell: TextMark] = [:]
        for line in detail.lines {
            if case .marked(_, let mark) = line.value { marks[GridCell(row: 0, column: lines.count)] = mark }
            lines += flattened(korean ? line.korean : line.label, line.value)
        }
        if !lines.isEmpty {
            let grid = Grid(columns: lines.map(\.label), rows: [lines.map(\.text)], marks: marks)
            if markdown {
                out += MarkdownRenderer.render(
                    Grid(columns: ["field", "value"], rows: lines.map { [$0.label, $0.text] }), headers: table.headers)
            } else {
                // Without a terminal's width nothing is wrapped; a line is never cut.
                out += VerticalRenderer(
                    width: table.maxWidth ?? Int.max / 4, color: table.color, boxDrawing: table.boxDrawing
                ).render(grid)
            }
        }
        for child in detail.children {
            if !out.isEmpty { out += "\n" }
            let name = korean ? child.koreanTitle : child.title
            let title = name.isEmpty ? "" : name + (child.rows.isEmpty ? ": none" : " (\(child.rows.count))")
            if !title.isEmpty { out += (markdown ? "**\(title)**\n" : title + "\n") }
            guard !child.rows.isEmpty else { continue }
            if markdown, !title.isEmpty { out += "\n" }
            let grid = grid(child)
            var whole = table
            whole.isDetailChild = true
            out += markdown ? MarkdownRenderer.render(grid, headers: table.headers) : whole.render(grid)
        }
        return out
    }

    /// One field as lines: an object's parts under `label.part`, a list of words joined.
    func flattened(_ label: String, _ value: FieldValue) -> [(label: String, text: String)] {
        switch value {
        case .object(let fields):
            return fields.flatMap { flattened(label + "." + $0.name, $0.value) }
        case .list(let items):
            return [(label, items.map { cell($0) }.joined(separator: ", "))]
        case .text, .localized, .marked, .integer, .decimal, .bool, .date, .key, .null:
            return [(label, cell(value))]
        }
    }

    /// A value in full: keys whole, as they are typed.
    func cell(_ value: FieldValue) -> String {
        switch value {
        case .key(let key): key.text
        case .object, .list: flattened("", value).map(\.text).joined(separator: ", ")
        case .text, .localized, .marked, .integer, .decimal, .bool, .date, .null:
            RecordGrid.cell(value, forPeople: true, korean: korean)
        }
    }

    func grid(_ child: ChildTable) -> Grid {
        var child = child
        // A column with nothing in any row (no pictures) is left out, as in listings.
        for column in child.columns.indices.reversed()
        where child.rows.allSatisfy({ column < $0.count && $0[column] == .null }) {
            child.columns.remove(at: column)
            for row in child.rows.indices { child.rows[row].remove(at: column) }
        }
        let rows = child.rows.map { row in row.map { RecordGrid.cell($0, forPeople: true, korean: korean) } }
        let numeric = child.rows.first.map { first in Set(first.indices.filter { first[$0].isNumeric }) } ?? []
        var marks: [GridCell: TextMark] = [:]
        for (row, values) in child.rows.enumerated() {
            for (column, value) in values.enumerated() {
                if case .marked(_, let mark) = value { marks[GridCell(row: row, column: column)] = mark }
            }
        }
        return Grid(
            columns: korean ? child.koreanColumns : child.columns, rows: rows, numericColumns: numeric, marks: marks)
    }

    /// The detail view of an outcome, where it has one: an entity shown in full, or named
    /// values with something nested in them (lists of entities, tiers of a cache).
    static func detail(of outcome: Outcome) -> RecordDetail? {
        switch outcome {
        case .entities(let entities) where entities.isDetail:
            guard let record = entities.records().first else { return nil }
            return record.detail
                ?? RecordDetail(
                    lines: zip(zip(entities.kind.tableColumns, entities.kind.koreanTableColumns), record.table).map {
                        RecordDetail.Line($0.0, korean: $0.1, $1)
                    })
        case .fields(let fields, _):
            guard fields.contains(where: { $0.value.isNested }) else { return nil }
            return detail(of: fields)
        case .entities, .count, .removed, .text, .settings, .table, .properties, .nothing:
            return nil
        }
    }

    /// Named values as a detail: plain values as lines; a list of objects as a table titled
    /// by its name; objects side by side with the same parts (a cache's tiers) as one table,
    /// a row each.
    static func detail(of fields: [Field]) -> RecordDetail {
        var lines: [RecordDetail.Line] = []
        var children: [ChildTable] = []
        var index = 0
        while index < fields.count {
            let field = fields[index]
            switch field.value {
            case .object(let parts):
                let names = parts.map(\.name)
                var rows: [[FieldValue]] = []
                while index < fields.count, case .object(let next) = fields[index].value, next.map(\.name) == names {
                    rows.append([.text(fields[index].name)] + next.map(\.value))
                    index += 1
                }
                if rows.count > 1 {
                    children.append(ChildTable(title: "", columns: [""] + names, rows: rows))
                } else {
                    lines.append(RecordDetail.Line(field.name, field.value))
                }
                continue
            // A list of entities (or an empty one, which says `none`) is a table of its own.
            case .list(let items) where items.allSatisfy(\.isObject):
                var columns: [String] = []
                for case .object(let parts) in items {
                    for part in parts where !columns.contains(part.name) { columns.append(part.name) }
                }
                let rows = items.map { item -> [FieldValue] in
                    guard case .object(let parts) = item else { return [] }
                    return columns.map { name in parts.first { $0.name == name }?.value ?? .null }
                }
                children.append(ChildTable(title: field.name, columns: columns, rows: rows))
            case .list, .text, .localized, .marked, .integer, .decimal, .bool, .date, .key, .null:
                lines.append(RecordDetail.Line(field.name, field.value))
            }
            index += 1
        }
        return RecordDetail(lines: lines, children: children)
    }
}

extension FieldValue {
    /// An object or a list: what a table cell cannot hold.
    var isNested: Bool {
        switch self {
        case .object, .list: true
        case .text, .localized, .marked, .integer, .decimal, .bool, .date, .key, .null: false
        }
    }

    var isObject: Bool {
        if case .object = self { return true }
        return false
    }
}
