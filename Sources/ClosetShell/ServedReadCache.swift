import ClosetNetwork
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// GET answers of APIs that read only the store, kept while the store's files stay as they were:
/// a commit (here or in another process) grows the journal, a compaction replaces both files, so
/// their identities (inode, size, modification time) say when an answer may be stale. A store in
/// memory has no files: nothing is kept. Any other request empties it. The I/O thread asks and
/// the workers keep, so it is locked. Kept by the base URL too: answers name it in their URLs.
package final class ServedReadCache: @unchecked Sendable {
    static let maximumEntries = 256
    static let maximumBodyBytes = 1 << 20

    let folder: String?
    private var signature: [Int] = []
    private var entries: [String: HTTPResponse] = [:]
    private let lock = NSLock()

    package init(storeFolder: String?) { folder = storeFolder }

    /// The files' identities now; nil when there are none to watch.
    func currentSignature() -> [Int]? {
        guard let folder else { return nil }
        var values: [Int] = []
        for name in ["journal", "snapshot"] {
            var status = stat()
            if stat(folder + "/" + name, &status) == 0 {
                values += [
                    Int(status.st_ino), Int(status.st_size), Int(status.st_mtim.tv_sec), Int(status.st_mtim.tv_nsec),
                ]
            } else {
                values += [-1]
            }
        }
        return values
    }

    func answer(for request: ServedRequest, baseURL: String) -> HTTPResponse? {
        lock.lock()
        defer { lock.unlock() }
        guard request.method == "GET" || request.method == "HEAD" else {
            entries.removeAll()
            return nil
        }
        guard let now = currentSignature() else { return nil }
        if now != signature {
            entries.removeAll()
            signature = now
            return nil
        }
        return entries[Self.key(request, baseURL)]
    }

    /// Keeps a fresh answer, if the store's files are still as they were (`madeAt`, taken
    /// before the answer's transaction began): an answer made from an older state is never kept
    /// under a newer one.
    func keep(_ response: HTTPResponse, for request: ServedRequest, baseURL: String, madeAt: [Int]?) {
        lock.lock()
        defer { lock.unlock() }
        guard request.method == "GET" || request.method == "HEAD", response.status == 200,
            response.body.count <= Self.maximumBodyBytes, let madeAt, let now = currentSignature(), now == madeAt
        else { return }
        if now != signature {
            entries.removeAll()
            signature = now
        }
        if entries.count >= Self.maximumEntries { entries.removeAll() }
        entries[Self.key(request, baseURL)] = response
    }

    static func key(_ request: ServedRequest, _ baseURL: String) -> String {
        baseURL + request.path + "?" + request.query.map { $0.name + "=" + $0.value }.joined(separator: "&")
    }
}
