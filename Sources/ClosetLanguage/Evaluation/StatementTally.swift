/// What a session's statements came to: how many failed (the host's exit status depends on
/// it), how many of those for a busy store, and which were marked or unmarked wrongly.
public struct StatementTally: Sendable {
    /// Statements that failed so far.
    public internal(set) var failures = 0
    /// Statements that failed because the store's write lock could not be had (or the store
    /// became unwritable): a script then exits with status 3, as for a store that cannot open.
    public internal(set) var storeBusy = 0
    /// Statements that failed without a `!` (the golden runner's `--update` names each: an
    /// error recorded by accident is then seen).
    public internal(set) var unmarkedFailures: [StatementLocation] = []
    /// Statements marked `!` that succeeded: a golden test with one fails, whatever its text.
    public internal(set) var markedSuccesses: [StatementLocation] = []
}
