import ClosetCore
import Foundation

/// Exactly one JSON value per outcome, on one line, keys in the record's field order (the
/// order SPEC §6 gives). Written by hand: the key order is part of the contract and
/// `JSONEncoder` does not promise one.
public enum JSONRenderer {
    /// nil for outcomes that are not data (help text, nothing).
    package static func render(_ outcome: Outcome) -> String? {
        switch outcome {
        case .entities(let entities):
            var out: [UInt8] = []
            write(entities) { out += $0 }
            return String(decoding: out, as: UTF8.self)
        case .count(let count): return "{\"count\":\(count)}\n"
        case .removed(_, let key):
            // A number where the entity's id is one (a product's `2`), as its own JSON gives it.
            let number = Int(key.text).map { String($0) == key.text && $0 >= 0 } ?? false
            return "{\"removed\":\(number ? key.text : string(key.text))}\n"
        case .fields(let fields, _): return object(fields) + "\n"
        case .table(let grid):
            return "["
                + grid.rows.map { row in
                    "{" + zip(grid.columns, row).map { string($0) + ":" + string($1) }.joined(separator: ",") + "}"
                }.joined(separator: ",") + "]\n"
        case .properties(let fields, _): return object(fields) + "\n"
        case .settings(let pairs):
            return "{" + pairs.map { string($0.name) + ":" + string($0.value) }.joined(separator: ",") + "}\n"
        case .text, .nothing: return nil
        }
    }

    /// Entities as `render` gives them, handed to `flush` a megabyte or so at a time, each
    /// record made as it is written: a listing of a million rows is never whole in memory.
    package static func write(_ entities: Entities, flush: ([UInt8]) -> Void) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 20)
        // Every listing is an array of the objects `show` gives; a cursor is a field of each row
        // (docs/language.md), never another shape.
        if entities.isListing { out.append(0x5B) }
        var first = true
        entities.forEachRecord(parts: .fields) { record in
            if entities.isListing, !first { out.append(0x2C) }
            first = false
            write(record.fields, into: &out)
            if !entities.isListing { out.append(0x0A) }
            if out.count >= 1 << 20 {
                flush(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if entities.isListing { out += [0x5D, 0x0A] }
        flush(out)
    }

    /// A record's fields as one JSON object.
    public static func object(_ fields: [Field]) -> String {
        var out: [UInt8] = []
        write(fields, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func value(_ value: FieldValue) -> String {
        var out: [UInt8] = []
        write(value, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    // Written as bytes into one buffer: joining a string per field and per row was most of
    // rendering a page.
    static func write(_ fields: [Field], into out: inout [UInt8]) {
        out.append(0x7B)
        for (number, field) in fields.enumerated() {
            if number > 0 { out.append(0x2C) }
            JSONText.write(field.name, into: &out)
            out.append(0x3A)
            write(field.value, into: &out)
        }
        out.append(0x7D)
    }

    static func write(_ value: FieldValue, into out: inout [UInt8]) {
        switch value {
        case .text(let text), .marked(let text, _), .localized(let text, _): JSONText.write(text, into: &out)
        case .integer(let number): out += String(number).utf8
        case .decimal(let number): out += self.number(number).utf8
        case .bool(let flag): out += (flag ? "true" : "false").utf8
        case .date(let date): JSONText.write(Timestamp.format(date), into: &out)
        case .key(let key): JSONText.write(key.text, into: &out)
        case .null: out += "null".utf8
        case .object(let fields): write(fields, into: &out)
        case .list(let values):
            out.append(0x5B)
            for (number, element) in values.enumerated() {
                if number > 0 { out.append(0x2C) }
                write(element, into: &out)
            }
            out.append(0x5D)
        }
    }

    /// The literals, as `JSONText` writes them for every JSON closet makes.
    static func number(_ number: Double) -> String { JSONText.number(number) }
    static func string(_ text: String) -> String { JSONText.string(text) }
}
