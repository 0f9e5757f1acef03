import ClosetCore
import ClosetTables

/// The store's blobs as packs see them: writing one takes the write lock first, so another
/// writer's clean-up of unreferenced files can never delete a picture before its row commits.
/// A picture below one file-system block is kept inline, in the store's own table
/// (`InlineBlobTable`); a bigger one is a file.
final class LockingBlobs: BlobStore {
    let files: BlobFiles
    private unowned let store: DurableStore

    init(files: BlobFiles, store: DurableStore) {
        self.files = files
        self.store = store
    }

    func write(_ bytes: [UInt8], named name: String) throws(StoreError) {
        // The lock first. A conflict is left for the session (the statement runs again, and
        // rewriting the blob is harmless); a failure refuses the blob.
        store.beginWriting()
        if case .failed(let message) = store.problem { throw StoreError(message) }
        if bytes.count < InlineBlobTable.limit {
            try InlineBlobTable.write(bytes, named: name, in: store.tables)
        } else {
            try files.write(bytes, named: name)
        }
    }

    func read(named name: String) -> [UInt8]? { store.inlineBlobs?[name]?.bytes ?? files.read(named: name) }

    /// Removes a file; an inline blob goes with the commit that stops naming it
    /// (`InlineBlobTable.dropUnreferenced`).
    func remove(named name: String) { files.remove(named: name) }

    var names: [String] { (store.inlineBlobs?.rows.map(\.name) ?? []) + files.names }

    var totalBytes: Int { (store.inlineBlobs?.rows.reduce(0) { $0 + $1.bytes.count } ?? 0) + files.totalBytes }
}
