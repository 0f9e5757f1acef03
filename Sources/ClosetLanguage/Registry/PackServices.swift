import ClosetCore

/// What a pack's state may use: never the session itself.
public struct PackServices {
    /// The session's store. A pack reaches its own tables and blobs through it.
    public let store: Store
    public let clock: Clock
    public let ids: IDGenerator

    public init(store: Store, clock: Clock, ids: IDGenerator) {
        self.store = store
        self.clock = clock
        self.ids = ids
    }
}
