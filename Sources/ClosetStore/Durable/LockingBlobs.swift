import ClosetCore

/// The store's blobs as packs see them: writing one takes the write lock first, so another
/// writer's clean-up of unreferenced files can never delete a picture before its row commits.
final class LockingBlobs: BlobStore {
    private let files: BlobFiles
    private unowned let store: DurableStore

    init(files: BlobFiles, store: DurableStore) {
        self.files = files
        self.store = store
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        if let message = store.beginWritingBlob() { throw StoreError(message) }
        try files.write(bytes, named: name)
    }

    func read(named name: String) -> [UInt8]? { files.read(named: name) }
    func remove(named name: String) { files.remove(named: name) }
    var names: [String] { files.names }
    var totalBytes: Int { files.totalBytes }
}
