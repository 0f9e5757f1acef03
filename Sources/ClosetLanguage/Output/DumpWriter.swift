import ClosetCore
import Foundation

/// Where packs write `.dump`'s statements: the text, and the folder pictures are copied to
/// (`.dump --images <dir>`). A script cannot carry pixels, so without a folder a pack notes
/// each picture in a comment instead.
public struct DumpWriter {
    public private(set) var text = ""
    let imageFolder: String?
    /// The folder as statements name it, when not `imageFolder` itself.
    let namedAs: String?
    let writeFile: (String, [UInt8]) throws -> Void

    /// `--skip-damaged`: a damaged or missing picture is left out (and said) instead of failing.
    let skipsDamaged: Bool
    /// What `--skip-damaged` left out, one line each (`the picture … of product 12 is damaged`).
    public private(set) var leftOut: [String] = []
    /// Where the text goes a piece at a time (about a megabyte each), when it is not kept
    /// whole: a dump of a big store is never one string.
    let sink: ((String) -> Void)?

    init(
        imageFolder: String?, namedAs: String? = nil, skipsDamaged: Bool = false,
        sink: ((String) -> Void)? = nil, writeFile: @escaping (String, [UInt8]) throws -> Void
    ) {
        self.imageFolder = imageFolder
        self.namedAs = namedAs
        self.skipsDamaged = skipsDamaged
        self.sink = sink
        self.writeFile = writeFile
    }

    public mutating func line(_ line: String) {
        text += line
        text += "\n"
        if let sink, text.utf8.count >= 1 << 20 {
            sink(text)
            text = ""
        }
    }

    /// Hands what is left to the sink.
    mutating func flush() {
        guard let sink, !text.isEmpty else { return }
        sink(text)
        text = ""
    }

    /// Whether pictures are being copied.
    public var copiesPictures: Bool { imageFolder != nil }

    /// Copies a picture into the image folder under `file` and returns the path a statement
    /// should name; nil when no folder was given.
    public func copyPicture(named file: String, bytes: [UInt8]) throws -> String? {
        guard let imageFolder else { return nil }
        let path = FilePath.join(imageFolder, file)
        try writeFile(path, bytes)
        return namedAs.map { FilePath.join($0, file) } ?? path
    }

    /// Copies a stored picture as `copyPicture` does, after checking it: it must be there, and
    /// its bytes must match the checksum its blob name holds (`ImageInfo.isIntact`, as `closet
    /// check`). See `copyChecked`. Nil when no folder was given (nothing is read).
    public mutating func copyCheckedPicture(
        named file: String, blobName: String, of what: String, bytes: () -> [UInt8]?
    )
        throws -> String?
    {
        try copyChecked(named: file) { () throws(Diagnostic) -> [UInt8] in
            guard let read = bytes() else { throw Diagnostic.dumpPictureMissing(blobName, of: what) }
            guard ImageInfo.isIntact(read, blobName: blobName) else {
                throw Diagnostic.dumpPictureDamaged(blobName, of: what)
            }
            return read
        }
    }

    /// Copies the picture `checked` reads, which throws the pack's own error for one that is
    /// missing or damaged. A backup never copies damage as good, nor leaves a row's picture out
    /// in silence: the error fails the dump, or with `--skip-damaged` the picture is left out,
    /// said in a comment where its row is and kept in `leftOut`; the pack then writes the row
    /// without it (or as a comment when the row cannot be made without). Nil when no folder
    /// was given (nothing is read) or the picture was left out.
    public mutating func copyChecked(named file: String, checked: () throws(Diagnostic) -> [UInt8]) throws
        -> String?
    {
        guard copiesPictures else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try checked()
        } catch {
            guard skipsDamaged else { throw error }
            let why = String(error.message.prefix { $0 != ";" })
            leftOut.append(why)
            line("# left out (--skip-damaged): " + why)
            return nil
        }
        return try copyPicture(named: file, bytes: bytes)
    }

    /// The statement that makes an entity again, from its schema's `restore` list:
    /// `add jar id=... size=small label="jam" created=...`. `supplied` fills the keys only the
    /// pack knows (a copied picture's path, a `$variable`), already written as they are.
    public static func statement<Model>(
        _ command: String, _ schema: EntitySchema<Model>, _ model: Model, supplied: [String: String] = [:]
    ) -> String {
        var line = command
        for (key, value) in schema.restoring(model, supplied: supplied) {
            let text: String?
            switch value {
            case .written(let written): text = written
            case .value(let value, let word): text = argument(value, word: word)
            }
            if let text { line += " \(key)=\(text)" }
        }
        return line
    }

    /// A value as an argument reads it back; nil for one with nothing to say (null, empty
    /// text) or none that a statement can carry (a list, an object: the pack supplies those).
    static func argument(_ value: FieldValue, word: Bool) -> String? {
        switch value {
        case .null, .object, .list: nil
        case .text(let text): text.isEmpty ? nil : word ? text : quote(text)
        case .marked(let text, _): text.isEmpty ? nil : quote(text)
        case .localized(let english, _): english
        case .integer(let number): String(number)
        case .decimal(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        case .date(let date): Timestamp.format(date)
        case .key(.uuid(let id)): id.text
        case .key(.opaque(let text)): quote(text)
        }
    }

    /// A double-quoted string the lexer reads back to exactly the same text, written in
    /// printable characters only: control characters, CR and bidirectional overrides become
    /// the lexer's escapes, so a dump is one statement per line and safe to show.
    public static func quote(_ text: String) -> String {
        // Most text needs no escape: no control, quote or backslash, and none of the lead bytes
        // of the escaped scalars past ASCII (C1 controls, U+061C, the bidi and line marks).
        let plain = text.utf8.allSatisfy { byte in
            byte >= 0x20 && byte != 0x7F && byte != UInt8(ascii: "\"") && byte != UInt8(ascii: "\\")
                && byte != 0xC2 && byte != 0xD8 && byte != 0xE2
        }
        if plain { return "\"" + text + "\"" }
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where TerminalText.needsEscape(scalar): out += TerminalText.escape(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
