import ClosetLanguage
import ClosetLineEditor
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// What `.pictures auto` shows where results go to a terminal: the protocol the environment
/// names, or (at the prompt only, when the environment does not say) what the terminal answers
/// to a device-attributes query; and the terminal's height and cell size for fitting.
enum TerminalPictures {
    /// Sets the session's terminal facts; `mayAsk` allows the query (the prompt only: a
    /// script's input must never be read by it).
    static func configure(_ session: Session, environment: [String: String], mayAsk: Bool) {
        guard isatty(STDOUT_FILENO) == 1 else { return }
        var chosen = PictureDetection.choose(environment)
        if mayAsk, chosen == .off || chosen == .blocks, environment["TMUX"] == nil, environment["TERM"] != "dumb",
            environment["NO_COLOR"] == nil, isatty(STDIN_FILENO) == 1,
            PictureDetection.choose(environment, deviceAttributes: deviceAttributes()) == .sixel
        {
            chosen = .sixel
        }
        session.settings.terminalPictures = chosen
        measure(session)
    }

    /// The terminal's rows and a cell's pixels, again before each statement (it may be resized).
    static func measure(_ session: Session) {
        session.settings.terminalRows = LibEditLineEditor.terminalRows
        var size = winsize()
        if ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0, size.ws_xpixel > 0,
            size.ws_ypixel > 0
        {
            session.settings.cellPixels = (
                max(1, Int(size.ws_xpixel) / Int(size.ws_col)), max(1, Int(size.ws_ypixel) / Int(size.ws_row))
            )
        }
    }

    /// The terminal's answer to `ESC [ c` (primary device attributes), read with echo off for
    /// at most 200 ms; nil when it does not answer.
    static func deviceAttributes() -> String? {
        var saved = termios()
        guard tcgetattr(STDIN_FILENO, &saved) == 0 else { return nil }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO)
        withUnsafeMutableBytes(of: &raw.c_cc) { bytes in
            bytes[Int(VMIN)] = 0
            bytes[Int(VTIME)] = 0
        }
        guard tcsetattr(STDIN_FILENO, TCSANOW, &raw) == 0 else { return nil }
        defer { tcsetattr(STDIN_FILENO, TCSANOW, &saved) }
        let query = Array("\u{1B}[c".utf8)
        guard write(STDOUT_FILENO, query, query.count) == query.count else { return nil }
        var answer: [UInt8] = []
        let deadline = Date().addingTimeInterval(0.2)
        while answer.last != UInt8(ascii: "c"), answer.count < 128 {
            let left = Int32(deadline.timeIntervalSinceNow * 1000)
            guard left > 0 else { break }
            var ready = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, left) > 0 else { break }
            var byte: UInt8 = 0
            guard read(STDIN_FILENO, &byte, 1) == 1 else { break }
            answer.append(byte)
        }
        return answer.isEmpty ? nil : String(decoding: answer, as: UTF8.self)
    }
}
