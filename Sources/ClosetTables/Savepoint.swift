import ClosetCore

/// An opaque position in a store's undo log.
public struct Savepoint: Hashable, Sendable {
    public let position: Int
    public init(position: Int) { self.position = position }
}
