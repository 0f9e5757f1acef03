import ClosetCore
import Foundation

/// iTerm2's inline images (also WezTerm and VS Code's terminal): OSC 1337 with the picture as a
/// PNG file in base64, sized in cells, ended by BEL.
public enum InlineImages {
    public static func escape(_ bitmap: Bitmap, columns: Int, rows: Int) -> String {
        let file = PNGEncoder.encode(bitmap)
        return "\u{1B}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1:"
            + Data(file).base64EncodedString() + "\u{07}"
    }
}
