import CEditLine
import ClosetCore
import Foundation

/// libedit on a terminal: emacs bindings and `~/.editrc`, a UTF-8 locale so Hangul edits as
/// characters, history in a file, Tab completion, and Ctrl-C that abandons the line (psql's
/// behaviour): SIGINT is installed without SA_RESTART so `el_gets` returns instead of
/// restarting its read and keeping the typed text.
package final class LibEditLineEditor: LineEditor {
    /// History entries kept (older ones drop off).
    package static let historySize = 1000

    private let editor: OpaquePointer
    private let historyPath: String?
    private let complete: (String, Int) -> CompletionOffer
    private let cellWidth: (String) -> Int

    /// libedit calls completion through a C function pointer that cannot capture, so the one
    /// editor in use is reached through this.
    nonisolated(unsafe) private static var active: LibEditLineEditor?

    public init?(
        historyPath: String?, complete: @escaping (String, Int) -> CompletionOffer,
        cellWidth: @escaping (String) -> Int
    ) {
        _ = cel_setup_locale()
        guard let editor = cel_init("closet", Int32(Self.historySize)) else { return nil }
        self.editor = editor
        self.historyPath = historyPath
        self.complete = complete
        self.cellWidth = cellWidth
        Self.active = self
        _ = cel_bind_completion(editor) { editor, _ in LibEditLineEditor.active?.onTab() ?? UInt8(CEL_CC_ERROR) }
        _ = cel_source_editrc(editor)
        cel_bind_keys(editor)  // ~/.editrc's `bind -v` starts the key maps over
        _ = cel_install_sigint()
        if let historyPath { _ = cel_history_load(editor, historyPath) }
    }

    /// Whether Ctrl-C was pressed since the last look (polled between statements of a long
    /// `.read`); clears the flag.
    package static func takeInterrupt() -> Bool { cel_take_sigint() != 0 }

    /// Whether Ctrl-C was pressed and not yet taken (a live request waiting asks this).
    package static func peekInterrupt() -> Bool { cel_peek_sigint() != 0 }

    /// The terminal's width in columns, or nil when unknown.
    package static var terminalColumns: Int? {
        let columns = Int(cel_terminal_columns())
        return columns > 0 ? columns : nil
    }

    /// The terminal's height in rows, or nil when unknown.
    package static var terminalRows: Int? {
        let rows = Int(cel_terminal_rows())
        return rows > 0 ? rows : nil
    }

    package func readLine(prompt: String) -> LineInput {
        cel_set_prompt(prompt)
        var pointer: UnsafePointer<CChar>?
        var length: Int32 = 0
        switch cel_gets(editor, &pointer, &length) {
        case -1:
            return .interrupted
        case 1:
            guard let pointer else { return .endOfInput }
            var bytes = Array(
                UnsafeBufferPointer(
                    start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer)))
            if bytes.last == 10 { bytes.removeLast() }
            if let offset = UTF8Text.firstInvalidOffset(bytes) { return .invalidText(offset: offset) }
            return .line(String(decoding: bytes, as: UTF8.self))
        default:
            return .endOfInput
        }
    }

    /// Blank lines and lines starting with a space stay out of the history (as in bash's
    /// ignorespace); adjacent duplicates are folded by libedit.
    public func remember(_ line: String) {
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty, !line.hasPrefix(" ") else { return }
        _ = cel_history_enter(editor, line)
        appendToHistoryFile(line)
    }

    /// The file already holds every line (each was added as it was entered), so closing
    /// writes nothing: a session never overwrites lines another terminal added since.
    public func close() {
        cel_end(editor)
        if Self.active === self { Self.active = nil }
    }

    /// Adds the line to the history file, merged with what other terminals added, and
    /// replaced atomically (`cel_history_append`): never emptied by a closed terminal.
    private func appendToHistoryFile(_ line: String) {
        guard let historyPath else { return }
        let directory = FilePath.parent(of: historyPath)
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        _ = cel_history_append(historyPath, line, Int32(Self.historySize))
    }

    private func onTab() -> UInt8 {
        var cursor: Int32 = 0
        var length: Int32 = 0
        guard let buffer = cel_line(editor, &cursor, &length) else { return UInt8(CEL_CC_ERROR) }
        let bytes = UnsafeRawBufferPointer(start: buffer, count: Int(length))
        let line = String(decoding: bytes, as: UTF8.self)
        let offer = complete(line, Int(cursor))
        let typed = String(decoding: bytes[offer.wordStart..<Int(cursor)], as: UTF8.self)
        switch offer.action(typed: typed) {
        case .beep:
            return UInt8(CEL_CC_ERROR)
        case .replace(let text):
            // el_deletestr counts characters, not bytes: Hangul is three bytes each.
            cel_delete_before(editor, Int32(typed.unicodeScalars.count))
            _ = cel_insert(editor, text)
            return UInt8(CEL_CC_REFRESH)
        case .list(let items):
            let width = Self.terminalColumns ?? 80
            FileHandle.standardOutput.write(
                Data(("\n" + CompletionOffer.columns(items, width: width, cellWidth: cellWidth)).utf8))
            return UInt8(CEL_CC_REDISPLAY)
        }
    }
}
