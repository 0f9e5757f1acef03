import ClosetCore

/// A store a session runs on: typed tables with one set of transactions, and blobs.
/// `MemoryStore` here, the durable store in ClosetStore. Packs reach their tables through
/// it and never see files.
public protocol Store: TransactionalStore {
    var tables: Tables { get }
    var blobs: BlobStore { get }
}
