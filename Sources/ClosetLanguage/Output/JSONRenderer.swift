import ClosetDomain
import Foundation

/// Exactly one JSON value per outcome, on one line, keys in the order SPEC §6 gives. Written
/// by hand: the key order is part of the contract and `JSONEncoder` does not promise one.
public enum JSONRenderer {
    /// nil for outcomes that are not data (help text, nothing).
    public static func render(_ outcome: Outcome) -> String? {
        switch outcome {
        case .clothes(let clothes): return object(clothes) + "\n"
        case .clothesList(let list): return "[" + list.map(object).joined(separator: ",") + "]\n"
        case .style(let style): return object(style) + "\n"
        case .styles(let styles): return "[" + styles.map(object).joined(separator: ",") + "]\n"
        case .count(let count): return "{\"count\":\(count)}\n"
        case .removed(let id): return "{\"removed\":\(string(id.uuidString))}\n"
        case .transferred(let transfer):
            let (countKey, count) = transfer.fields[0]
            let (pathKey, path) = transfer.fields[1]
            return "{\"\(countKey)\":\(count),\"\(pathKey)\":\(string(path))}\n"
        case .cacheStats(let stats):
            return "{" + stats.fields.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}\n"
        case .table(let grid):
            return "[" + grid.rows.map { row in
                "{" + zip(grid.columns, row).map { string($0) + ":" + string($1) }.joined(separator: ",") + "}"
            }.joined(separator: ",") + "]\n"
        case .text, .nothing: return nil
        }
    }

    static func object(_ clothes: Clothes) -> String {
        var out = "{\"id\":" + string(clothes.id.uuidString)
        out += ",\"createdAt\":" + string(Timestamp.format(clothes.createdAt))
        out += ",\"category\":" + string(clothes.category.englishName)
        out += ",\"season\":" + string(clothes.weatherType.englishName)
        out += ",\"description\":" + string(clothes.descriptions)
        out += ",\"image\":" + image(clothes.image) + "}"
        return out
    }

    static func object(_ style: Style) -> String {
        var out = "{\"id\":" + string(style.id.uuidString)
        out += ",\"createdAt\":" + string(Timestamp.format(style.createdAt))
        out += ",\"name\":" + (style.name.map(string) ?? "null")
        out += ",\"season\":" + string(style.weather.englishName)
        out += ",\"clothes\":[" + style.orderedClothes.map(object).joined(separator: ",") + "]}"
        return out
    }

    static func image(_ image: ImageInfo?) -> String {
        guard let image else { return "null" }
        return "{\"format\":\(string(image.format.rawValue)),\"width\":\(image.width),\"height\":\(image.height),\"bytes\":\(image.bytes)}"
    }

    /// A JSON string literal: quotes, backslashes and control characters escaped; other
    /// text (Hangul included) kept as UTF-8.
    public static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
