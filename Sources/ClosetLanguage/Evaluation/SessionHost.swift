import ClosetCore
import ClosetTables

/// What a session needs from the world, injected by whoever hosts it (the command-line
/// program, the golden-test runner, unit tests), so the language itself does no I/O.
public protocol SessionHost: AnyObject {
    /// Ordinary output (results, echo) or diagnostics, in the order they happen.
    func write(_ text: String, to stream: OutputChannel)
    /// `write` for text already made as UTF-8 (a listing's or an export's writer): by default
    /// made a string and written so; a host that writes bytes takes them as they are.
    func write(utf8 bytes: [UInt8], to stream: OutputChannel)
    /// The text of a script for `.read`; throws a `Diagnostic` (no range) when it cannot.
    func readScript(at path: String) throws -> (text: String, displayName: String)
    /// A file's bytes for `image=<path>`; throws a `Diagnostic` (no range) when it cannot, or
    /// when the file is larger than `limit` (without reading it all).
    func readFile(at path: String, limit: Int) throws -> [UInt8]
    /// A file to read in pieces (`import`, whose file may be larger than memory);
    /// throws a `Diagnostic` (no range) when it cannot be opened. By default, read whole with
    /// `readFile`.
    func openFile(at path: String) throws -> any FileReading
    /// Writes a whole file, for `.dump --images` (which creates its folder) and `export`
    /// (which, as a shell redirect, does not); throws a `Diagnostic` (no range) when it cannot.
    func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws
    /// Writes a file piece by piece as `produce` hands them over (`export` of a whole table:
    /// never whole in memory), replacing the file only once every piece is written; throws a
    /// `Diagnostic` (no range) when it cannot. By default, the pieces are gathered and written
    /// whole.
    func writeFile(
        at path: String, creatingFolder: Bool, streaming produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws
    /// The path as a dump should name it so the dump replays from any directory (absolute,
    /// for a process; as given, for golden transcripts that must not name the machine).
    func pathForDump(_ path: String) -> String
    /// A monotonic clock in seconds, for `.timer`.
    func monotonicSeconds() -> Double
    /// Whether the user pressed Ctrl-C since the last call (polled between the statements of
    /// a script); clears it.
    func interruptRequested() -> Bool
    /// `.output <file>` and `.once <file>`: adds results to the file (`truncating` first
    /// empties or creates it); throws a `Diagnostic` (no range) when it cannot.
    func appendOutput(_ text: String, toFile path: String, truncating: Bool) throws
    /// `.shell <command>`: runs it with `/bin/sh -c`; returns what it wrote on standard output
    /// and its exit status (its standard error goes where the host's does).
    func runShell(_ command: String) throws -> (output: String, status: Int32)
    /// `.cd <folder>`: relative paths after it are taken from there.
    func changeDirectory(to path: String) throws
    /// The folder relative paths are taken from now (`.cd` alone, `.show`).
    var currentDirectory: String { get }
    /// `.open <store>`: the store at a location (`:memory:` or a folder, made if new), and
    /// the folder its packs cache pictures in (nil: a private temporary one).
    func openStore(at location: String) throws -> (store: Store, cacheRoot: String?)
    /// A secret typed at the terminal with echo off (`password=?`, or a required password
    /// left out at the prompt); nil when there is no person at a terminal to ask, or they
    /// cancelled.
    func readSecret(prompt: String) -> String?
    /// A yes-or-no question to the person at the prompt (`remove story 3 '우리 콩이'? [y/N] `):
    /// true for yes, false for anything else; nil when there is no person at a terminal to
    /// ask (pipes, `-c`, scripts), and the statement goes ahead as written.
    func confirm(_ question: String) -> Bool?
    /// Runs a script `.read` named with relative paths inside it taken from the script's own
    /// folder (as psql's `\ir`), nested too; the folder relative paths came from before is
    /// restored after.
    func readingScript<T>(at path: String, _ body: () throws -> T) rethrows -> T
}

extension SessionHost {
    public func write(utf8 bytes: [UInt8], to stream: OutputChannel) {
        write(String(decoding: bytes, as: UTF8.self), to: stream)
    }
    public func writeFile(
        at path: String, creatingFolder: Bool, streaming produce: (_ write: ([UInt8]) throws -> Void) throws -> Void
    ) throws {
        var whole: [UInt8] = []
        try produce { whole += $0 }
        try writeFile(at: path, bytes: whole, creatingFolder: creatingFolder)
    }
    public func openFile(at path: String) throws -> any FileReading {
        BytesReading(try readFile(at: path, limit: TransferFiles.maximumHeldImportBytes))
    }
    public func interruptRequested() -> Bool { false }
    public func pathForDump(_ path: String) -> String { path }
    public func appendOutput(_ text: String, toFile path: String, truncating: Bool) throws {
        throw Diagnostic.cannotWrite(path, because: "this host writes no files")
    }
    public func runShell(_ command: String) throws -> (output: String, status: Int32) {
        throw Diagnostic.shellUnavailable
    }
    public func changeDirectory(to path: String) throws {
        throw Diagnostic.cannotChangeDirectory(path, because: "this host has no working folder")
    }
    public var currentDirectory: String { "." }
    public func openStore(at location: String) throws -> (store: Store, cacheRoot: String?) {
        throw Diagnostic.cannotOpenStore(location, because: "this host opens no stores")
    }
    public func readSecret(prompt: String) -> String? { nil }
    package func confirm(_ question: String) -> Bool? { nil }
    public func readingScript<T>(at path: String, _ body: () throws -> T) rethrows -> T { try body() }
}

public enum OutputChannel: Sendable {
    case standardOutput
    case standardError
}
