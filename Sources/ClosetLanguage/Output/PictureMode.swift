/// How pictures reach the terminal (`.pictures`, `--pictures`).
public enum PictureMode: String, CaseIterable, Sendable {
    /// What the terminal can show (`PictureDetection`); off in pipes and files.
    case auto
    /// The kitty graphics protocol.
    case kitty
    /// iTerm2's inline images (OSC 1337).
    case iterm
    /// DEC sixel graphics.
    case sixel
    /// Unicode half blocks in 24-bit colour: any truecolor terminal, tmux included, and the one
    /// deterministic output, so goldens can pin it.
    case blocks
    case off

    public var summary: String {
        switch self {
        case .auto: "what this terminal shows (off in pipes and files)"
        case .kitty: "the kitty graphics protocol (kitty, Ghostty, Konsole)"
        case .iterm: "iTerm2 inline images (iTerm2, WezTerm, VS Code)"
        case .sixel: "sixel graphics (xterm -ti vt340, foot, mlterm)"
        case .blocks: "Unicode half blocks in 24-bit colour (any truecolor terminal, tmux)"
        case .off: "no pictures"
        }
    }
}

/// How large pictures are drawn, in terminal cells across; always within the terminal's width
/// and height, the aspect kept.
public enum PictureSize: Sendable, Equatable {
    case small
    case medium
    /// The terminal's whole width.
    case full
    case columns(Int)

    public static let words = ["small", "medium", "full"]

    init?(_ word: String) {
        switch word.lowercased() {
        case "small": self = .small
        case "medium": self = .medium
        case "full": self = .full
        default:
            guard word.allSatisfy(\.isASCII), let columns = Int(word), (4...1000).contains(columns) else { return nil }
            self = .columns(columns)
        }
    }

    var name: String {
        switch self {
        case .small: "small"
        case .medium: "medium"
        case .full: "full"
        case .columns(let columns): String(columns)
        }
    }

    /// Cells across, for a terminal `width` cells wide.
    func columns(within width: Int) -> Int {
        switch self {
        case .small: min(width, 24)
        case .medium: min(width, 48)
        case .full: width
        case .columns(let columns): min(width, columns)
        }
    }
}
