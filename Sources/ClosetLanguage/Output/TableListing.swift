import ClosetCore

/// A listing drawn as a table without a grid of its cells: one pass over its records finds
/// what the table needs from every row (the columns kept, each column's width, the keys whose
/// short forms collide), a second draws the rows into bounded pieces, each record made as it is
/// reached (`Entities.forEachRecord`). A million-row listing never holds its records or cells;
/// the bytes are the whole grid's (`TableRenderer.render`).
struct TableListing {
    let entities: Entities
    let korean: Bool
    let renderer: TableRenderer

    /// Draws the table, handing `write` a megabyte or so at a time; false, having written
    /// nothing, when the table does not fit the terminal even cut (a field per line instead,
    /// which the whole grid draws).
    func write(_ write: (String) -> Void) -> Bool {
        let kind = entities.kind
        let columnCount = kind.tableColumns.count
        var nonNull = [Bool](repeating: false, count: columnCount)
        var first: [FieldValue]?
        var count = 0
        // Each column's widest cell (keys in their short form), and per key column the short
        // forms seen and those seen twice.
        var natural = [Int](repeating: 0, count: columnCount)
        var seen = [ShortKeys](repeating: ShortKeys(), count: columnCount)
        entities.forEachRecord(parts: .table) { record in
            let values = record.table
            if first == nil { first = values }
            count += 1
            for (column, value) in values.enumerated() where column < columnCount {
                if !RecordGrid.isNull(value) { nonNull[column] = true }
                if case .key(let key) = value { seen[column].note(key) }
                let cell = TerminalText.visible(RecordGrid.cell(value, forPeople: true, korean: korean))
                natural[column] = max(natural[column], TextWidth.of(cell))
            }
        }
        let repeated = seen.map(\.repeated)
        seen = []
        let shape = TableShape(entities, korean: korean, nonNull: nonNull, first: first)
        // The keys behind each repeated short form, as long as it takes to tell them apart (rare:
        // the rows are read again only when there are any).
        var lengthened = [[String: String]](repeating: [:], count: columnCount)
        if count > 1, repeated.contains(where: { !$0.isEmpty }) {
            var groups = [[String: Set<String>]](repeating: [:], count: columnCount)
            entities.forEachRecord(parts: .table) { record in
                for (column, value) in record.table.enumerated() where column < columnCount {
                    if case .key(let key) = value, repeated[column].contains(key.short) {
                        groups[column][key.short, default: []].insert(key.text)
                    }
                }
            }
            for column in groups.indices {
                for (short, group) in groups[column] where group.count > 1 {
                    for text in group {
                        let shown = RecordGrid.shown(text, short: short, among: group)
                        lengthened[column][text] = shown
                        natural[column] = max(natural[column], TextWidth.of(TerminalText.visible(shown)))
                    }
                }
            }
        }
        func cell(_ value: FieldValue, _ column: Int) -> String {
            if case .key(let key) = value, let shown = lengthened[column][key.text] {
                return TerminalText.visible(shown)
            }
            return TerminalText.visible(RecordGrid.cell(value, forPeople: true, korean: korean))
        }
        var shownNatural = shape.kept.map { natural[$0] }
        if shape.listing { shownNatural.insert(count == 0 ? 0 : TextWidth.of(shape.number(count - 1)), at: 0) }
        var widths = zip(shape.columns.map(TextWidth.of), shownNatural).map { max($0, $1) }
        let uncut = widths
        switch renderer.narrow(&widths, columns: shape.columns, wholeColumns: shape.wholeColumns) {
        case .fits, .cut: break
        case .tooNarrow: return false
        }

        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        renderer.top(columns: shape.columns, title: shape.title, widths, into: &out)
        var row = 0
        entities.forEachRecord(parts: .table) { record in
            let values = record.table
            var cells: [String] = []
            cells.reserveCapacity(shape.columns.count)
            var marks: [Int: TextMark] = [:]
            if shape.listing { cells.append(shape.number(row)) }
            for column in shape.kept where column < values.count {
                if renderer.color, case .marked(_, let mark) = values[column] { marks[cells.count] = mark }
                cells.append(cell(values[column], column))
            }
            for place in cells.indices where place < widths.count && widths[place] < uncut[place] {
                cells[place] = TextWidth.truncate(cells[place], toCells: widths[place])
            }
            renderer.line(cells, cells.map(TextWidth.of), widths, numeric: shape.numeric, marks: marks, into: &out)
            row += 1
            if out.count >= 1 << 20 {
                write(String(decoding: out, as: UTF8.self))
                out.removeAll(keepingCapacity: true)
            }
        }
        renderer.bottom(rows: shape.listing ? count : nil, footer: shape.footer, widths, into: &out)
        write(String(decoding: out, as: UTF8.self))
        return true
    }
}

/// A key column's short forms seen by a table's survey, and those seen twice: a UUID's by the
/// bytes its short form shows (two hex characters a byte: no string made and hashed for each of
/// a million rows, whose set held 50 MB), an opaque key by its text.
private struct ShortKeys {
    var uuidPrefixes = Set<UInt64>()
    var texts = Set<String>()
    var repeated = Set<String>()

    mutating func note(_ key: EntityKey) {
        switch key {
        case .uuid(let id):
            let prefix = withUnsafeBytes(of: id.uuid) { bytes in
                bytes.prefix(min(8, EntityKey.shortLength / 2)).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            }
            if !uuidPrefixes.insert(prefix).inserted { repeated.insert(key.short) }
        case .opaque(let text):
            if !texts.insert(text).inserted { repeated.insert(text) }
        }
    }
}
