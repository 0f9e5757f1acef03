import ClosetNetwork
import ClosetServer
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// GET answers of APIs that read only the store, kept while the store's files stay as they were:
/// a commit (here or in another process) grows the journal, a compaction replaces both files, so
/// their identities (inode, size, modification time) say when an answer may be stale. A store in
/// memory has no files: nothing is kept. A write through the server is a commit like any other
/// (a refused one, a wrong password, changes nothing and forgets nothing). The I/O thread asks
/// and the workers keep, so it is locked. Kept by the base URL too: answers name it in their URLs.
///
/// The files are looked at once each time the server wakes with requests (`look()`), not per
/// request: every request handled after a wake-up arrived before it, so a commit that finished
/// before a client sent its request (the client saw it finish) is seen by that look. Bounded in
/// bytes; past the bound the answers kept longest go first.
package final class ServedReadCache: @unchecked Sendable {
    static let maximumBodyBytes = 1 << 20

    let folder: String?
    let maximumBytes: Int
    private var signature: [Int] = []
    /// A kept answer: its status and headers, and its bytes as the server writes them to a
    /// keep-alive GET (made once, by the worker that kept it: the I/O thread then writes them as
    /// they are). The body is kept only in those bytes: kept twice, 5,000 pages of 4 KB had not
    /// fit the default bound, and a random page was made again a third of the time.
    package struct Kept: Sendable {
        package var head: HTTPResponse
        package var wired: HTTPServer.Wired

        package var response: HTTPResponse {
            var response = head
            response.body = wired.body
            return response
        }
    }

    private var entries: [String: Kept] = [:]
    /// Keys in the order they were kept (`oldest` is the first still live), for eviction.
    private var order: [String] = []
    private var oldest = 0
    private var bytes = 0
    private let lock = NSLock()

    package init(storeFolder: String?, maximumBytes: Int = 32 << 20) {
        folder = maximumBytes > 0 ? storeFolder : nil
        self.maximumBytes = maximumBytes
    }

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

    /// Looks at the store's files, forgetting every answer if they changed. On the I/O thread,
    /// after each wake-up and before its requests are handled.
    func look() {
        guard let now = currentSignature() else { return }
        lock.lock()
        defer { lock.unlock() }
        if now != signature { forget(now) }
    }

    /// `variant`: who asked, for an API whose answers depend on it (empty: anyone).
    func answer(for request: ServedRequest, baseURL: String, variant: String = "") -> HTTPResponse? {
        kept(for: request, baseURL: baseURL, variant: variant)?.response
    }

    func kept(for request: ServedRequest, baseURL: String, variant: String = "") -> Kept? {
        guard folder != nil, request.method == "GET" || request.method == "HEAD" else { return nil }
        let key = Self.key(request, baseURL, variant)
        lock.lock()
        defer { lock.unlock() }
        return entries[key]
    }

    /// The files' identities at the last look: what an answer dispatched now is made from, or
    /// something newer (its transaction reads the files after).
    func looked() -> [Int]? {
        guard folder != nil else { return nil }
        lock.lock()
        defer { lock.unlock() }
        return signature
    }

    /// Keeps a fresh answer, if no look has seen the files change since `madeAt` (`looked()`
    /// when the request was dispatched). An answer made from a newer state than that is kept
    /// under the older one and forgotten with it at the next look: never an older answer under a
    /// newer state. No file is looked at here.
    func keep(
        _ response: HTTPResponse, for request: ServedRequest, baseURL: String, variant: String = "", madeAt: [Int]?
    ) {
        guard folder != nil, request.method == "GET" || request.method == "HEAD", response.status == 200,
            response.body.count <= Self.maximumBodyBytes, response.body.count <= maximumBytes / 4, let madeAt
        else { return }
        lock.lock()
        defer { lock.unlock() }
        guard madeAt == signature else { return }
        let key = Self.key(request, baseURL, variant)
        guard entries[key] == nil else { return }
        var head = response
        head.body = Data()
        let kept = Kept(head: head, wired: HTTPServer.Wired(response))
        let size = Self.size(key, kept)
        while bytes + size > maximumBytes, oldest < order.count {
            if let gone = entries.removeValue(forKey: order[oldest]) { bytes -= Self.size(order[oldest], gone) }
            oldest += 1
        }
        if oldest > 4096, oldest * 2 > order.count {
            order.removeFirst(oldest)
            oldest = 0
        }
        entries[key] = kept
        order.append(key)
        bytes += size
    }

    /// What an answer costs to keep: its written bytes, headers and key, and a little for the
    /// entry.
    static func size(_ key: String, _ kept: Kept) -> Int {
        kept.wired.bytes.count + key.utf8.count * 2
            + kept.head.headers.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 }
    }

    private func forget(_ now: [Int]) {
        entries.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        oldest = 0
        bytes = 0
        signature = now
    }

    static func key(_ request: ServedRequest, _ baseURL: String, _ variant: String = "") -> String {
        // One string grown in place (joined pieces made a string each).
        var key = baseURL
        key.reserveCapacity(baseURL.utf8.count + request.path.utf8.count + variant.utf8.count + 64)
        key += request.path
        key += "?"
        for (index, pair) in request.query.enumerated() {
            if index > 0 { key += "&" }
            key += pair.name
            key += "="
            key += pair.value
        }
        if !variant.isEmpty {
            key += "\u{0}"
            key += variant
        }
        return key
    }
}
