import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Standard output at an interactive terminal, as psql writes it: a statement's results are
/// held until it ends; taller than the terminal, they go through a pager (`$PAGER`, else
/// `less`, else `more`) while `.pager` is on; written straight, Ctrl-C stops them (the rest
/// is dropped, with a note), so a long listing never keeps scrolling after Ctrl-C.
final class TerminalOutput {
    /// Whether `.pager` is on, read when output is shown.
    var pagerEnabled: () -> Bool = { true }
    /// Whether Ctrl-C was pressed (clears the flag).
    var interrupted: () -> Bool = { false }
    let rows: () -> Int?
    let pagerCommand: String

    /// Written to the terminal this many bytes at a time, Ctrl-C looked at in between.
    static let chunk = 16 * 1024

    init(environment: [String: String], rows: @escaping () -> Int?) {
        self.rows = rows
        let pager = environment["PAGER"]?.trimmingCharacters(in: .whitespaces) ?? ""
        // less: colours and box drawing as they are (UTF-8 even in the C locale, as closet's own
        // editing is), no screen clearing; more where there is no less.
        pagerCommand = pager.isEmpty ? "LESSCHARSET=${LESSCHARSET:-utf-8} less -R -X 2>/dev/null || more" : pager
    }

    /// Shows the output; the error number if the terminal could not be written.
    func show(_ bytes: [UInt8]) -> Int32? {
        guard !bytes.isEmpty else { return nil }
        // Ctrl-C while the output was being prepared (a big listing): nothing is shown, and
        // no pager opens after the person asked to stop.
        if interrupted() {
            ProcessHost.writeAll(Array("interrupted: the output was dropped\n".utf8), to: STDERR_FILENO)
            return nil
        }
        if pagerEnabled(), let rows = rows(), Self.lineCount(bytes) >= rows - 1, page(bytes) { return nil }
        var offset = 0
        while offset < bytes.count {
            if interrupted() {
                ProcessHost.writeAll(
                    Array("\ninterrupted: the rest of the output was dropped\n".utf8), to: STDERR_FILENO)
                return nil
            }
            let end = min(bytes.count, offset + Self.chunk)
            if let failed = ProcessHost.writeAll(Array(bytes[offset..<end]), to: STDOUT_FILENO) { return failed }
            offset = end
        }
        return nil
    }

    static func lineCount(_ bytes: [UInt8]) -> Int {
        bytes.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
    }

    /// Runs the pager on the output; false if it could not be started or its command was not
    /// found (the output is then written as usual). Quitting the pager early drops the rest
    /// (its pipe closes), never ends closet.
    private func page(_ bytes: [UInt8]) -> Bool {
        guard let pipe = popen(pagerCommand, "w") else { return false }
        let previous = signal(SIGPIPE, SIG_IGN)
        bytes.withUnsafeBytes { raw in
            _ = fwrite(raw.baseAddress, 1, raw.count, pipe)
        }
        let status = pclose(pipe)
        signal(SIGPIPE, previous)
        // Ctrl-C inside the pager was the pager's.
        _ = interrupted()
        // 126 and 127: the shell could not run the command, so nothing was shown.
        let code = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 0
        return status != -1 && code != 126 && code != 127
    }
}
