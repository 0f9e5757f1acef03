/// What the engine needs of a store: statement-level savepoints and commits. Each statement
/// runs inside a savepoint and is rolled back to it when it fails; the host decides when
/// everything so far is committed.
public protocol TransactionalStore: AnyObject {
    /// A mark to roll back to. Marks nest: rolling back to an outer mark undoes inner ones.
    func savepoint() -> Savepoint
    func rollback(to savepoint: Savepoint)
    /// Makes everything since the last commit durable (a no-op in memory).
    func commit() throws(StoreError)
    /// What the store is: a path or ":memory:".
    var location: String { get }
    /// Facts for `.store` after the packs' counts, in order: files and sizes.
    var details: [(String, String)] { get }
}
