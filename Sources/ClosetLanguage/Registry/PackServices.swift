import ClosetCore
import ClosetNetwork

/// What a pack's state may use: never the session itself.
public struct PackServices {
    /// The session's store. A pack reaches its own tables and blobs through it.
    public let store: Store
    public let clock: Clock
    public let ids: IDGenerator
    /// Remote APIs: the transport the shell chose (live, replay, record, off) and the
    /// environment's base URLs and keys.
    public let network: Network

    public init(store: Store, clock: Clock, ids: IDGenerator, network: Network) {
        self.store = store
        self.clock = clock
        self.ids = ids
        self.network = network
    }
}
