import ClosetCore
import ClosetTables

/// The store's blobs as packs see them: writing one takes the write lock first, so another
/// writer's clean-up of unreferenced files can never delete a picture before its row commits.
/// A picture below one file-system block is kept inline, in the store's own table
/// (`InlineBlobTable`); a bigger one is a file.
final class LockingBlobs: BlobStore {
    private let files: BlobFiles
    private unowned let store: DurableStore

    init(files: BlobFiles, store: DurableStore) {
        self.files = files
        self.store = store
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        if let message = store.beginWritingBlob() { throw StoreError(message) }
        if bytes.count < InlineBlobTable.limit {
            try store.writeInline(bytes, named: name)
        } else {
            try files.write(bytes, named: name)
        }
    }

    func read(named name: String) -> [UInt8]? { store.readInline(named: name) ?? files.read(named: name) }

    /// Removes a file; an inline blob goes with the commit that stops naming it
    /// (`DurableStore.dropUnreferencedInlineBlobs`).
    func remove(named name: String) { files.remove(named: name) }

    var names: [String] { (store.inlineBlobs?.rows.map(\.name) ?? []) + files.names }

    var totalBytes: Int { (store.inlineBlobs?.rows.reduce(0) { $0 + $1.bytes.count } ?? 0) + files.totalBytes }
}
