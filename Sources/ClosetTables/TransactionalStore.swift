import ClosetCore

/// What the engine needs of a store: statement-level savepoints and commits. Each statement
/// runs inside a savepoint and is rolled back to it when it fails; the host decides when
/// everything so far is committed.
public protocol TransactionalStore: AnyObject {
    /// A mark to roll back to. Marks nest: rolling back to an outer mark undoes inner ones.
    func savepoint() -> Savepoint
    func rollback(to savepoint: Savepoint)
    /// Makes everything since the last commit durable (a no-op in memory).
    func commit() throws(StoreError)
    /// Brings in what other processes committed since this one last looked (between
    /// transactions only); throws if the store can no longer be read.
    func refresh() throws(StoreError)
    /// Why the statement that just ran cannot keep its writes, once: the session rolls it
    /// back, and runs it again after a conflict.
    func takeWriteProblem() -> WriteProblem?
    /// What the store is: a path or ":memory:".
    var location: String { get }
    /// Facts for `.store` after the packs' counts, in order: files and sizes.
    var details: [Field] { get }
    /// Reads everything the store holds and says what is damaged (`.check`): what opening
    /// and statements check only as far as they read.
    func check() -> StoreCheck
    /// Lets go of the write lock without committing, for a store that met damage mid-way and
    /// will never be used again (what it held back was never committed).
    func abandon()
    /// From now on a commit that makes the store due to compact starts the compaction in the
    /// background and returns (a long-lived session: the prompt, `closet serve`).
    func compactInBackground()
    /// Waits for a compaction running in the background and finishes it (the session ends or
    /// moves to another store).
    func finishBackgroundWork()
}

extension TransactionalStore {
    /// A store in memory holds nothing that can be damaged.
    public func check() -> StoreCheck { StoreCheck(checked: [("files", "none (in memory)")]) }

    public func refresh() throws(StoreError) {}
    public func abandon() {}
    public func takeWriteProblem() -> WriteProblem? { nil }
    /// A store in memory never compacts.
    public func compactInBackground() {}
    public func finishBackgroundWork() {}
}

/// Why a statement's writes cannot be kept by a store shared with other processes.
public enum WriteProblem: Sendable, Equatable {
    /// Another process committed after this statement read the store: run it again.
    case conflict
    /// The write lock could not be had (another writer held it past the busy timeout), or
    /// the store cannot be written from this process any more.
    case failed(String)
}
