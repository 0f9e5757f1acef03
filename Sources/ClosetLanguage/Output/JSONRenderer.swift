import ClosetCore
import Foundation

/// Exactly one JSON value per outcome, on one line, keys in the record's field order (the
/// order SPEC §6 gives). Written by hand: the key order is part of the contract and
/// `JSONEncoder` does not promise one.
package enum JSONRenderer {
    /// nil for outcomes that are not data (help text, nothing).
    package static func render(_ outcome: Outcome) -> String? {
        switch outcome {
        case .entities(let entities):
            let records = entities.records()
            var out = ""
            if entities.isListing {
                // Every listing is an array of the objects `show` gives; a cursor is a field of
                // each row (docs/language.md), never another shape.
                out += "["
                for (number, record) in records.enumerated() {
                    if number > 0 { out += "," }
                    write(record.fields, into: &out)
                }
                out += "]\n"
                return out
            }
            for record in records {
                write(record.fields, into: &out)
                out += "\n"
            }
            return out
        case .count(let count): return "{\"count\":\(count)}\n"
        case .removed(_, let key): return "{\"removed\":\(string(key.text))}\n"
        case .fields(let fields, _): return object(fields) + "\n"
        case .table(let grid):
            return "["
                + grid.rows.map { row in
                    "{" + zip(grid.columns, row).map { string($0) + ":" + string($1) }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "]\n"
        case .settings(let pairs):
            return "{" + pairs.map { string($0.name) + ":" + string($0.value) }.joined(separator: ",") + "}\n"
        case .text, .nothing: return nil
        }
    }

    /// A record's fields as one JSON object.
    public static func object(_ fields: [Field]) -> String {
        var out = ""
        write(fields, into: &out)
        return out
    }

    public static func value(_ value: FieldValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }

    // Written into one string: joining a string per field and per row was most of rendering
    // a page.
    static func write(_ fields: [Field], into out: inout String) {
        out += "{"
        for (number, field) in fields.enumerated() {
            if number > 0 { out += "," }
            out += string(field.name)
            out += ":"
            write(field.value, into: &out)
        }
        out += "}"
    }

    static func write(_ value: FieldValue, into out: inout String) {
        switch value {
        case .text(let text), .marked(let text, _), .localized(let text, _): out += string(text)
        case .integer(let number): out += String(number)
        case .decimal(let number): out += self.number(number)
        case .bool(let flag): out += flag ? "true" : "false"
        case .date(let date): out += string(Timestamp.format(date))
        case .key(let key): out += string(key.text)
        case .null: out += "null"
        case .object(let fields): write(fields, into: &out)
        case .list(let values):
            out += "["
            for (number, element) in values.enumerated() {
                if number > 0 { out += "," }
                write(element, into: &out)
            }
            out += "]"
        }
    }

    /// The literals, as `JSONText` writes them for every JSON closet makes.
    static func number(_ number: Double) -> String { JSONText.number(number) }
    static func string(_ text: String) -> String { JSONText.string(text) }
}
