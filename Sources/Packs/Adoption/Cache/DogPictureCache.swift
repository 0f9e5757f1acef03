import ClosetCore
import ClosetNetwork
import Foundation

/// The dog-picture cache, done as the app's author wished (README: "무작위 삭제" was the
/// regret): a memory tier with a byte cost limit and a disk tier with a byte limit, both
/// evicting exactly the least recently used entry first, and revalidation with the
/// server's `ETag`: a disk hit is asked `If-None-Match`, and a `304` keeps the bytes.
final class DogPictureCache {
    struct Counters: Equatable {
        var hits = 0
        var misses = 0
        var evictions = 0
        /// Disk hits the server confirmed with a 304.
        var revalidated = 0
    }

    struct Entry {
        var bytes: [UInt8]
        var tag: String?
    }

    enum Source: String {
        case memory, disk, network
    }

    // MARK: memory

    /// The core's exact O(1) LRU, costed in bytes.
    private let memory: LRUCache<Entry>
    var memoryLimit: Int { memory.costLimit }
    var memoryCounters: Counters {
        Counters(hits: memory.hits, misses: memory.misses, evictions: memory.evictions, revalidated: 0)
    }
    var memoryBytes: Int { memory.totalCost }
    var memoryCount: Int { memory.count }

    // MARK: disk

    let directory: String
    private(set) var diskLimit: Int
    private(set) var diskCounters = Counters()
    /// Each use takes the next number: the file with the smallest is the least recently used.
    /// Found on first disk use, not at start-up: every session makes this cache, and most
    /// never show a dog.
    private lazy var sequence: UInt64 = files().compactMap { header(of: $0)?.sequence }.max() ?? 0

    static let defaultLimit = 50 << 20

    init(directory: String, memoryLimit: Int = defaultLimit, diskLimit: Int = defaultLimit) {
        self.directory = directory
        memory = LRUCache(costLimit: memoryLimit) { $0.bytes.count }
        self.diskLimit = diskLimit
    }

    /// A file name made from the URL (a digest: no URL can name a path outside the folder).
    func path(for url: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return FilePath.join(directory, String(hash, radix: 16) + ".dog")
    }

    private func files() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".dog") }
            .sorted()
            .map { FilePath.join(directory, $0) }
    }

    /// `CLD1`, the use number, the ETag, then the picture.
    /// Reads only the header (eviction looks at every file; the pictures stay on disk).
    private func header(of path: String) -> (sequence: UInt64, tag: String?, size: Int)? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let fixed = [UInt8]((try? handle.read(upToCount: 14)) ?? Data())
        guard fixed.count == 14, Array(fixed.prefix(4)) == Array("CLD1".utf8),
            let total = (try? FileManager.default.attributesOfItem(atPath: path)[.size]) as? Int
        else { return nil }
        var sequence: UInt64 = 0
        for offset in 0..<8 { sequence |= UInt64(fixed[4 + offset]) << (8 * offset) }
        let tagLength = Int(fixed[12]) | Int(fixed[13]) << 8
        guard 14 + tagLength <= total else { return nil }
        let tagBytes = tagLength == 0 ? [] : [UInt8]((try? handle.read(upToCount: tagLength)) ?? Data())
        guard tagBytes.count == tagLength else { return nil }
        let tag = tagLength == 0 ? nil : String(decoding: tagBytes, as: UTF8.self)
        return (sequence, tag, total - 14 - tagLength)
    }

    private func readDisk(_ url: String) -> Entry? {
        let path = path(for: url)
        guard let data = FileManager.default.contents(atPath: path), let header = header(of: path) else { return nil }
        let tagLength = header.tag?.utf8.count ?? 0
        return Entry(bytes: [UInt8](data.dropFirst(14 + tagLength)), tag: header.tag)
    }

    private func writeDisk(_ url: String, _ entry: Entry) {
        sequence += 1
        var out = Array("CLD1".utf8)
        withUnsafeBytes(of: sequence.littleEndian) { out += $0 }
        let tag = Array((entry.tag ?? "").utf8.prefix(65535))
        out += [UInt8(tag.count & 0xFF), UInt8(tag.count >> 8)] + tag + entry.bytes
        try? FileManager.default.createDirectory(
            atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try? Data(out).write(to: URL(fileURLWithPath: path(for: url)), options: .atomic)
        evictDisk()
    }

    var diskEntries: [(path: String, sequence: UInt64, size: Int)] {
        files().compactMap { path in header(of: path).map { (path, $0.sequence, $0.size) } }
    }

    var diskBytes: Int { diskEntries.reduce(0) { $0 + $1.size } }

    /// Least recently used first until the folder is within its limit; a picture larger
    /// than the whole limit is not kept at all.
    private func evictDisk() {
        var entries = diskEntries.sorted { $0.sequence < $1.sequence }
        var total = entries.reduce(0) { $0 + $1.size }
        while total > diskLimit, !entries.isEmpty {
            let victim = entries.removeFirst()
            try? FileManager.default.removeItem(atPath: victim.path)
            total -= victim.size
            diskCounters.evictions += 1
        }
    }

    private func putMemory(_ url: String, _ entry: Entry) { memory.store(entry, for: url) }

    // MARK: use

    /// The picture at `url` if memory or disk holds it, without asking the network: what
    /// `closet serve` answers a dog's picture URL with.
    func kept(_ url: String) -> [UInt8]? {
        if let entry = memory.get(for: url) { return entry.bytes }
        return readDisk(url)?.bytes
    }

    /// The picture at `url`: from memory, from disk (revalidated with `If-None-Match` when
    /// the server gave an ETag), or downloaded. `check` refuses what is not a picture
    /// before anything is cached.
    func fetch(_ url: String, network: Network, check: ([UInt8]) -> Bool) throws -> (bytes: [UInt8], source: Source) {
        if let entry = memory.get(for: url) { return (entry.bytes, .memory) }
        var request = HTTPRequest.get(url: url)
        // A kept copy that no longer decodes is dropped and fetched again.
        if let entry = readDisk(url), check(entry.bytes) {
            diskCounters.hits += 1
            func keep() -> (bytes: [UInt8], source: Source) {
                writeDisk(url, entry)
                putMemory(url, entry)
                return (entry.bytes, .disk)
            }
            guard let tag = entry.tag else { return keep() }
            request.headers.append(HTTPHeader("If-None-Match", tag))
            // Asking whether it changed must not lose it: a failed question (offline, no
            // recording of it, an error status) keeps the copy, as a browser's cache does.
            guard let response = try? network.send(request) else { return keep() }
            if response.status == 304 {
                diskCounters.revalidated += 1
                return keep()
            }
            guard response.isSuccess, let stored = try? store(url, response, request: request, check: check) else {
                return keep()
            }
            return stored
        }
        diskCounters.misses += 1
        return try store(url, try network.send(request), request: request, check: check)
    }

    private func store(_ url: String, _ response: HTTPResponse, request: HTTPRequest, check: ([UInt8]) -> Bool) throws
        -> (bytes: [UInt8], source: Source)
    {
        guard response.isSuccess else {
            throw NetworkError.status(
                response.status, statusLine: response.statusLine, method: "GET", url: request.displayURL, detail: nil)
        }
        let bytes = [UInt8](response.body)
        guard check(bytes) else { throw DogPictureError.notAPicture(url) }
        let entry = Entry(bytes: bytes, tag: response.header("ETag"))
        writeDisk(url, entry)
        putMemory(url, entry)
        return (bytes, .network)
    }

    // MARK: commands

    func setLimits(memory: Int?, disk: Int?) {
        if let memory { self.memory.costLimit = memory }
        if let disk {
            diskLimit = disk
            evictDisk()
        }
    }

    func clear(memory clearMemory: Bool, disk clearDisk: Bool) {
        if clearMemory { memory.removeAll() }
        if clearDisk { for file in files() { try? FileManager.default.removeItem(atPath: file) } }
    }

    /// The disk files, least recently used first (tests pin the eviction order with it).
    var diskOrder: [String] { diskEntries.sorted { $0.sequence < $1.sequence }.map(\.path) }
    var memoryOrderForTests: [String] { memory.keysByRecency.reversed() }
}

enum DogPictureError: Error, LocalizedMessage {
    case notAPicture(String)

    var message: String {
        switch self {
        case .notAPicture(let url): "the picture at \(url) is not a PNG or JPEG; nothing was cached"
        }
    }
}
