/// Terminal cell width of text: East Asian wide and fullwidth characters (Hangul, CJK, most
/// emoji) take two cells, combining marks and zero-width joiners none, the rest one. A
/// grapheme counts once, by its first scalar (so a family emoji is two cells, as terminals draw it).
package enum TextWidth {
    public static func of(_ text: String) -> Int {
        // Most cells are printable ASCII: one cell per byte, no grapheme breaking needed.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var width = 0
        for character in text { width += of(character) }
        return width
    }

    public static func of(_ character: Character) -> Int {
        guard let first = character.unicodeScalars.first else { return 0 }
        if first.value < 0x20 || (0x7F..<0xA0).contains(first.value) { return 0 }
        if character.unicodeScalars.contains(where: { $0.value == 0xFE0F }) { return 2 }  // emoji presentation
        return isWide(first.value) ? 2 : (isZeroWidth(first.value) ? 0 : 1)
    }

    static func isZeroWidth(_ value: UInt32) -> Bool {
        (0x0300...0x036F).contains(value) || value == 0x200B || value == 0x200D
            || (0xFE00...0xFE0F).contains(value)
    }

    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
            0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
            0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
            0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
            0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
            0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
            0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
            0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A,
            0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
            0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// Cuts text to at most `cells` cells, ending in "…" when something was cut.
    package static func truncate(_ text: String, toCells cells: Int) -> String {
        guard of(text) > cells else { return text }
        guard cells > 0 else { return "" }
        var result = ""
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > cells - 1 { break }
            result.append(character)
            used += width
        }
        return result + "…"
    }

    /// Splits text into lines of at most `cells` cells, breaking after a blank where one is
    /// in the second half of a line, else between characters. Nothing is dropped but the
    /// blanks a line breaks at; empty text is no lines.
    package static func wrap(_ text: String, toCells cells: Int) -> [String] {
        let cells = max(1, cells)
        var lines: [String] = []
        var line: [Character] = []
        var used = 0
        for character in text {
            let width = of(character)
            if used + width > cells, !line.isEmpty {
                if character == " " {
                    // The line ends at this blank.
                    lines.append(String(line))
                    line = []
                    used = 0
                    continue
                }
                if let blank = line.lastIndex(of: " "), blank >= line.count / 2 {
                    lines.append(String(line[..<blank]))
                    line = Array(line[(blank + 1)...])
                } else {
                    lines.append(String(line))
                    line = []
                }
                used = line.reduce(0) { $0 + of($1) }
            }
            line.append(character)
            used += width
        }
        if !line.isEmpty { lines.append(String(line)) }
        return lines
    }
}
