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

    init(imageFolder: String?, namedAs: String? = nil, writeFile: @escaping (String, [UInt8]) throws -> Void) {
        self.imageFolder = imageFolder
        self.namedAs = namedAs
        self.writeFile = writeFile
    }

    public mutating func line(_ line: String) {
        text += line
        text += "\n"
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

    /// A double-quoted string the lexer reads back to exactly the same text, written in
    /// printable characters only: control characters, CR and bidirectional overrides become
    /// the lexer's escapes, so a dump is one statement per line and safe to show.
    public static func quote(_ text: String) -> String {
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
