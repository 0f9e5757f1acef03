/// Text as it may reach a terminal or a plain-text output: control characters (C0, DEL, C1),
/// bidirectional overrides and isolates, and line separators are written as visible escapes
/// (`\e`, `\r`, `\n`, `\t`, `\u{202E}`), the same escapes the lexer reads, so stored text can
/// never set a window title, write the clipboard, clear the screen or reorder a line, and what
/// is shown can be typed back. JSON and CSV output keep text exact instead.
package enum TerminalText {
    /// Whether a scalar is written as an escape.
    @inlinable package static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// The escape for one scalar that needs one.
    package static func escape(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\t": "\\t"
        case "\n": "\\n"
        case "\r": "\\r"
        case "\u{1B}": "\\e"
        default: "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        }
    }

    /// `text` with every scalar that needs it escaped; `keepingTabs` leaves tabs raw (a
    /// statement echoed above a caret line, where the caret must line up under tab stops).
    package static func visible(_ text: String, keepingTabs: Bool = false) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar), !(keepingTabs && scalar == "\t") {
                out += escape(scalar)
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
