/// Which picture output a terminal shows, from its environment and, at the prompt, its answer
/// to a device-attributes query (`ESC [ c`; a `4` among its attributes means sixel). Never
/// `auto`; `off` when nothing says the terminal can show a picture.
public enum PictureDetection {
    public static func choose(_ environment: [String: String], deviceAttributes: String? = nil) -> PictureMode {
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        if term == "dumb" || environment["NO_COLOR"] != nil { return .off }
        // tmux passes none of the graphics protocols through by default: half blocks.
        let inTmux = environment["TMUX"] != nil || term.hasPrefix("tmux") || term.hasPrefix("screen")
        if !inTmux {
            if environment["KITTY_WINDOW_ID"] != nil || term == "xterm-kitty" || term == "xterm-ghostty"
                || program == "ghostty" || environment["KONSOLE_VERSION"] != nil
            {
                return .kitty
            }
            if ["iTerm.app", "WezTerm", "vscode"].contains(program) || environment["LC_TERMINAL"] == "iTerm2" {
                return .iterm
            }
            if term.hasPrefix("foot") || term.hasPrefix("mlterm") || term == "yaft-256color"
                || Self.saysSixel(deviceAttributes)
            {
                return .sixel
            }
        }
        let colour = environment["COLORTERM"]?.lowercased() ?? ""
        if colour == "truecolor" || colour == "24bit" || term.hasSuffix("-direct") { return .blocks }
        return inTmux ? .blocks : .off
    }

    /// Whether a primary device-attributes answer (`ESC [ ? 62;4;22 c`) lists sixel (4).
    static func saysSixel(_ answer: String?) -> Bool {
        guard let answer, let start = answer.firstIndex(of: "?"), let end = answer.lastIndex(of: "c"), start < end
        else { return false }
        return answer[answer.index(after: start)..<end].split(separator: ";").contains("4")
    }
}
