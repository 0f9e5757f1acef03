import ClosetCore
import Foundation

/// Where packs write `.dump`'s statements: the text, and the folder pictures are copied to
/// (`.dump --images <dir>`). A script cannot carry pixels, so without a folder a pack notes
/// each picture in a comment instead.
public struct DumpWriter {
    /// The script's UTF-8 not yet handed to the sink (all of it without one).
    @usableFromInline var bytes: [UInt8] = []
    /// The script as text (without a sink: all of it).
    public var text: String { String(decoding: bytes, as: UTF8.self) }
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
    @usableFromInline let sink: (([UInt8]) -> Void)?

    init(
        imageFolder: String?, namedAs: String? = nil, skipsDamaged: Bool = false,
        sink: (([UInt8]) -> Void)? = nil, writeFile: @escaping (String, [UInt8]) throws -> Void
    ) {
        self.imageFolder = imageFolder
        self.namedAs = namedAs
        self.skipsDamaged = skipsDamaged
        self.sink = sink
        self.writeFile = writeFile
    }

    public mutating func line(_ line: String) {
        Self.append(utf8: line, to: &bytes)
        endLine()
    }

    /// Ends the line written, and hands the text to the sink once it is about a megabyte.
    @inlinable mutating func endLine() {
        bytes.append(UInt8(ascii: "\n"))
        if let sink, bytes.count >= 1 << 20 {
            sink(bytes)
            bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Hands what is left to the sink.
    mutating func flush() {
        guard let sink, !bytes.isEmpty else { return }
        sink(bytes)
        bytes.removeAll()
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
    @inlinable public static func statement<Model>(
        _ command: String, _ schema: EntitySchema<Model>, _ model: Model, supplied: [String: String] = [:]
    ) -> String {
        var bytes: [UInt8] = []
        append(command, schema, model, supplied: supplied, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `statement`'s line written straight into the script, `let <binding> = ` before it when a
    /// variable names the entity: a dump of a million rows makes no string per row.
    @inlinable public mutating func statement<Model>(
        _ command: String, _ schema: EntitySchema<Model>, _ model: Model, binding: DumpVariable? = nil,
        supplied: [String: String] = [:]
    ) {
        if let binding {
            Self.append(utf8: "let ", to: &bytes)
            binding.append(to: &bytes)
            Self.append(utf8: " = ", to: &bytes)
        }
        Self.append(command, schema, model, supplied: supplied, to: &bytes)
        endLine()
    }

    @inlinable static func append<Model>(
        _ command: String, _ schema: EntitySchema<Model>, _ model: Model, supplied: [String: String],
        to bytes: inout [UInt8]
    ) {
        Self.append(utf8: command, to: &bytes)
        schema.forEachRestored(model, supplied: supplied) { opening, value in
            let start = bytes.count
            // ` key=`, made once with the schema: a dump of a million rows appended the space,
            // the key and the sign apart for every field.
            bytes.append(contentsOf: opening)
            switch value {
            case .written(let written): Self.append(utf8: written, to: &bytes)
            case .value(let value, let word):
                // Nothing to say: the key is taken back.
                if !appendArgument(value, word: word, to: &bytes) { bytes.removeSubrange(start...) }
            }
        }
    }

    /// Text's UTF-8 appended in one copy (appending the UTF-8 view went through a generic
    /// sequence copy: a tenth of a dump).
    @inlinable static func append(utf8 text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// A value as an argument reads it back, appended; false (nothing appended) for one with
    /// nothing to say (null, empty text) or none that a statement can carry (a list, an
    /// object: the pack supplies those).
    @usableFromInline static func appendArgument(_ value: FieldValue, word: Bool, to bytes: inout [UInt8]) -> Bool {
        switch value {
        case .null, .object, .list: return false
        case .text(let text):
            guard !text.isEmpty else { return false }
            if word { Self.append(utf8: text, to: &bytes) } else { appendQuoted(text, to: &bytes) }
        case .marked(let text, _):
            guard !text.isEmpty else { return false }
            appendQuoted(text, to: &bytes)
        case .localized(let english, _): Self.append(utf8: english, to: &bytes)
        case .integer(let number): Self.append(utf8: String(number), to: &bytes)
        case .decimal(let number): Self.append(utf8: String(number), to: &bytes)
        case .bool(let flag): Self.append(utf8: (flag ? "true" : "false"), to: &bytes)
        case .date(let date): Timestamp.append(date, to: &bytes)
        case .key(.uuid(let id)): id.appendText(to: &bytes)
        case .key(.opaque(let text)): appendQuoted(text, to: &bytes)
        }
        return true
    }

    /// `quote(text)` appended: most text needs no escape and goes in as it is.
    static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        let plain = text.withUTF8 { utf8 in
            guard isPlain(utf8) else { return false }
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: utf8)
            bytes.append(UInt8(ascii: "\""))
            return true
        }
        if !plain { Self.append(utf8: quote(text), to: &bytes) }
    }

    /// No control, quote or backslash, and none of the lead bytes of the escaped scalars past
    /// ASCII (C1 controls, U+061C, the bidi and line marks): written as it is between quotes.
    static func isPlain(_ utf8: UnsafeBufferPointer<UInt8>) -> Bool {
        for byte in utf8 {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == 0xC2
                || byte == 0xD8 || byte == 0xE2
            {
                return false
            }
        }
        return true
    }

    /// A double-quoted string the lexer reads back to exactly the same text, written in
    /// printable characters only: control characters, CR and bidirectional overrides become
    /// the lexer's escapes, so a dump is one statement per line and safe to show.
    public static func quote(_ text: String) -> String {
        // Most text needs no escape (`isPlain`).
        var text = text
        if text.withUTF8(isPlain) { return "\"" + text + "\"" }
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
