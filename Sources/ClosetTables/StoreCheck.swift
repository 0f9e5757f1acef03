import ClosetCore

/// What checking a whole store found (`.check`, `closet check`; sqlite3's
/// `PRAGMA integrity_check`): what was checked, for the listing, and each problem in one line.
public struct StoreCheck: Sendable {
    /// What was checked and how much of it, in order.
    public var checked: [(String, String)]
    /// What is damaged; empty when the store is whole.
    public var problems: [String]

    public init(checked: [(String, String)] = [], problems: [String] = []) {
        self.checked = checked
        self.problems = problems
    }
}
