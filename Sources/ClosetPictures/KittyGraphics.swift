import ClosetCore
import Foundation

/// The kitty graphics protocol (kitty, Ghostty, Konsole, WezTerm): the picture as a PNG file
/// (`f=100`; its rows filtered then deflated, a third of the same pixels zlib-compressed
/// as `f=32,o=z` for a photo), or its raw RGBA pixels (`f=32`) when the file would be larger,
/// base64 in chunks of at most 4096 characters, each an APC sequence
/// `ESC _ G … ESC \`; shown where the cursor is, over `columns` × `rows` cells, with every
/// reply from the terminal suppressed (`q=2`), so nothing is ever typed into the prompt.
public enum KittyGraphics {
    public static let chunkSize = 4096

    public static func escape(_ bitmap: Bitmap, columns: Int, rows: Int) -> String {
        let file = PNGEncoder.encode(bitmap)
        let isFile = file.count < bitmap.pixels.count
        let payload = Data(isFile ? file : bitmap.pixels).base64EncodedString()
        let format = isFile ? "f=100" : "f=32"
        var out = ""
        var start = payload.startIndex
        var first = true
        repeat {
            let end = payload.index(start, offsetBy: chunkSize, limitedBy: payload.endIndex) ?? payload.endIndex
            let more = end < payload.endIndex ? 1 : 0
            let control =
                first
                ? "a=T,\(format),s=\(bitmap.width),v=\(bitmap.height),c=\(columns),r=\(rows),q=2,m=\(more)"
                : "m=\(more)"
            out += "\u{1B}_G\(control);\(payload[start..<end])\u{1B}\\"
            start = end
            first = false
        } while start < payload.endIndex
        return out
    }
}
