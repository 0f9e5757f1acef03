import ClosetCore

/// Entities a statement returned. Records are made only when something is shown: a seed
/// script replayed into /dev/null builds none.
public struct Entities: Sendable {
    public var kind: EntityKind
    public var keys: [EntityKey]
    /// A listing is numbered, counted (`(N rows)`) and becomes the target of `@N`.
    public var isListing: Bool
    public var records: @Sendable () -> [Record]
}
