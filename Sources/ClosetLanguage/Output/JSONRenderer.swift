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
            if entities.isListing {
                // Every listing is an array of the objects `show` gives; a cursor is a field of
                // each row (docs/language.md), never another shape.
                return "[" + records.map { object($0.fields) }.joined(separator: ",") + "]\n"
            }
            return records.map { object($0.fields) + "\n" }.joined()
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
        "{" + fields.map { string($0.name) + ":" + value($0.value) }.joined(separator: ",") + "}"
    }

    public static func value(_ value: FieldValue) -> String {
        switch value {
        case .text(let text), .marked(let text, _), .localized(let text, _): string(text)
        case .integer(let number): String(number)
        case .decimal(let number): self.number(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date): string(Timestamp.format(date))
        case .key(let key): string(key.text)
        case .null: "null"
        case .object(let fields): object(fields)
        case .list(let values): "[" + values.map(self.value).joined(separator: ",") + "]"
        }
    }

    /// The literals, as `JSONText` writes them for every JSON closet makes.
    static func number(_ number: Double) -> String { JSONText.number(number) }
    static func string(_ text: String) -> String { JSONText.string(text) }
}
