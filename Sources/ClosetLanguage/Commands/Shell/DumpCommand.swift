import ClosetDomain
import Foundation

/// `.dump [--images <dir>]`: the store as a `.closet` script that recreates it exactly, as
/// sqlite3's `.dump` does. Every clothes is bound to `$cN` so styles can name their slots;
/// ids and times are pinned (`id=`, `created=`), so dump → replay → dump is byte-identical.
/// Pictures are copied into `<dir>` and referenced by path; without `--images` they are
/// named in a comment instead (a script cannot carry pixels).
enum DumpCommand {
    static let spec = DotCommandSpec(
        name: ".dump", summary: "print a script that recreates the store (pictures copied with --images)",
        arguments: ["[--images <dir>]"], choices: ["--images"],
        examples: [".dump", ".dump --images backup/images"],
        run: { invocation in
            let words = invocation.call.arguments
            var folder: String?
            if let first = words.first {
                guard first.text == "--images", words.count == 2 else {
                    throw Diagnostic("usage: .dump [--images <dir>]", at: first.range.union(words.last?.range ?? first.range))
                }
                folder = words[1].text
            }
            let session = invocation.session
            return .text(try Dump.script(of: session.store, imageFolder: folder) { name, bytes in
                do {
                    try session.host.writeFile(at: name, bytes: bytes)
                } catch let error as Diagnostic {
                    throw Diagnostic(error.message, at: words.last?.range)
                }
            })
        })
}

/// Writing a store as statements.
public enum Dump {
    public static func script(
        of store: WardrobeStore, imageFolder: String?, copyImage: (String, [UInt8]) throws -> Void
    ) throws -> String {
        let clothes = store.fetchAllClothes()
        let styles = try store.fetchStyles()
        var out = "# closet dump: \(clothes.count) clothes, \(styles.count) style\(styles.count == 1 ? "" : "s")\n"
        out += "# replay into an empty store: closet --store <dir> run <this file>\n"
        var variable: [UUID: String] = [:]
        for (index, item) in clothes.enumerated() {
            let name = "$c\(index + 1)"
            variable[item.id] = name
            var line = "let \(name) = add clothes id=\(item.id.uuidString) category=\(item.category.englishName)"
            line += " season=\(item.weatherType.englishName)"
            if !item.descriptions.isEmpty { line += " description=\(quote(item.descriptions))" }
            if let image = item.image {
                let file = "\(item.id.uuidString).\(image.format == .png ? "png" : "jpg")"
                if let imageFolder, let bytes = store.loadImage(image, for: item.id) {
                    let path = (imageFolder as NSString).appendingPathComponent(file)
                    try copyImage(path, bytes)
                    line += " image=\(quote(path))"
                } else {
                    out += "# \(name) has a \(image.format.rawValue) picture \(file), not copied (use .dump --images <dir>)\n"
                }
            }
            line += " created=\(Timestamp.format(item.createdAt))"
            out += line + "\n"
        }
        for style in styles {
            var line = "add style id=\(style.id.uuidString)"
            if let name = style.name { line += " name=\(quote(name))" }
            line += " season=\(style.weather.englishName)"
            for category in ClothesCategory.allCases {
                if let item = style.clothes[category], let name = variable[item.id] {
                    line += " \(category.englishName)=\(name)"
                }
            }
            line += " created=\(Timestamp.format(style.createdAt))"
            out += line + "\n"
        }
        return out
    }

    /// A double-quoted string the lexer reads back to the same text.
    public static func quote(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
