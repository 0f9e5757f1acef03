/// What a session needs from the world, injected by whoever hosts it (the command-line
/// program, the golden-test runner, unit tests), so the language itself does no I/O.
public protocol SessionHost: AnyObject {
    /// Ordinary output (results, echo) or diagnostics, in the order they happen.
    func write(_ text: String, to stream: OutputChannel)
    /// The text of a script for `.read`; throws a `Diagnostic` (no range) when it cannot.
    func readScript(at path: String) throws -> (text: String, displayName: String)
    /// A file's bytes for `image=<path>`; throws a `Diagnostic` (no range) when it cannot, or
    /// when the file is larger than `limit` (without reading it all).
    func readFile(at path: String, limit: Int) throws -> [UInt8]
    /// Writes a whole file, for `.dump --images` (which creates its folder) and `export`
    /// (which, as a shell redirect, does not); throws a `Diagnostic` (no range) when it cannot.
    func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws
    /// The path as a dump should name it so the dump replays from any directory (absolute,
    /// for a process; as given, for golden transcripts that must not name the machine).
    func pathForDump(_ path: String) -> String
    /// A monotonic clock in seconds, for `.timer`.
    func monotonicSeconds() -> Double
    /// Whether the user pressed Ctrl-C since the last call (polled between the statements of
    /// a script); clears it.
    func interruptRequested() -> Bool
}

extension SessionHost {
    public func interruptRequested() -> Bool { false }
    public func pathForDump(_ path: String) -> String { path }
}

public enum OutputChannel: Sendable {
    case standardOutput
    case standardError
}
