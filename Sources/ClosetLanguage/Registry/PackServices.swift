import ClosetCore
import ClosetNetwork
import ClosetTables

/// What a pack's state may use: never the session itself.
public struct PackServices {
    /// The session's store. A pack reaches its own tables and blobs through it.
    public let store: Store
    public let clock: Clock
    public let ids: IDGenerator
    /// Remote APIs: the transport the shell chose (live, replay, record, off) and the
    /// environment's base URLs and keys.
    public let network: Network
    /// Where a pack may keep caches that outlive the session (`$XDG_CACHE_HOME/closet`);
    /// nil when they must not (a `:memory:` store, tests): use a private temporary folder.
    public let cacheRoot: String?
    /// Who is at the prompt now (`.user` changes it during a session).
    public let user: () -> String

    public init(
        store: Store, clock: Clock, ids: IDGenerator, network: Network, cacheRoot: String? = nil,
        user: @escaping () -> String = { "me" }
    ) {
        self.user = user
        self.store = store
        self.clock = clock
        self.ids = ids
        self.network = network
        self.cacheRoot = cacheRoot
    }
}
