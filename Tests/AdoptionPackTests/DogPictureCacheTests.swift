import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import AdoptionPack

/// The dog-picture cache: exact least-recently-used eviction in both tiers, byte limits
/// held exactly, and `If-None-Match` revalidation keeping the bytes on a `304`.
@Suite(.serialized) struct DogPictureCacheTests {
    final class Pictures: @unchecked Sendable {
        var version = 1
        let sizes = ["a": 100, "b": 200, "c": 300, "big": 5000]
        func bytes(_ name: String) -> Data { Data(repeating: UInt8(version), count: sizes[name] ?? 10) }
    }

    func fixture() throws -> (LoopbackServer, Pictures, Network) {
        let pictures = Pictures()
        let server = try LoopbackServer { request in
            let name = String(request.path.dropFirst())
            let tag = "\"\(name)-\(pictures.version)\""
            if request.header("If-None-Match") == tag {
                return .respond(status: 304, headers: ["ETag": tag], body: Data())
            }
            return .respond(status: 200, headers: ["ETag": tag], body: pictures.bytes(name))
        }
        let network = Network(
            transport: HelperTransport(timeoutSeconds: 5, userAgent: "t", helperPath: HelperPath.path), environment: [:]
        )
        return (server, pictures, network)
    }

    func folder() -> String { NSTemporaryDirectory() + "closet-dog-cache-" + UUID().uuidString }

    @Test func memoryEvictsTheLeastRecentlyUsedWithinItsByteLimit() throws {
        let (server, _, network) = try fixture()
        defer { server.stop() }
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = DogPictureCache(directory: directory, memoryLimit: 300, diskLimit: 10_000)
        let url = { (name: String) in server.baseURL + "/" + name }
        _ = try cache.fetch(url("a"), network: network) { _ in true }
        _ = try cache.fetch(url("b"), network: network) { _ in true }
        #expect(try cache.fetch(url("a"), network: network) { _ in true }.source == .memory)  // a is now the newest
        _ = try cache.fetch(url("c"), network: network) { _ in true }  // 100 + 200 + 300 > 300: b, then a go
        #expect(cache.memoryOrderForTests == [url("c")])
        #expect(cache.memoryBytes == 300 && cache.memoryCounters.evictions == 2)
        _ = try cache.fetch(url("a"), network: network) { _ in true }
        #expect(cache.memoryOrderForTests == [url("a")] && cache.memoryBytes == 100)
    }

    @Test func diskEvictsTheLeastRecentlyUsedAndRevalidatesWithETags() throws {
        let (server, pictures, network) = try fixture()
        defer { server.stop() }
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = DogPictureCache(directory: directory, memoryLimit: 0, diskLimit: 400)  // every use reaches the disk
        let url = { (name: String) in server.baseURL + "/" + name }
        #expect(try cache.fetch(url("a"), network: network) { _ in true }.source == .network)
        #expect(try cache.fetch(url("b"), network: network) { _ in true }.source == .network)
        #expect(try cache.fetch(url("a"), network: network) { _ in true }.source == .disk)  // a 304
        #expect(cache.diskCounters.revalidated == 1)
        #expect(server.requests.last?.header("If-None-Match") == "\"a-1\"")
        #expect(cache.diskOrder == [cache.path(for: url("b")), cache.path(for: url("a"))])
        _ = try cache.fetch(url("c"), network: network) { _ in true }  // 100 + 200 + 300 > 400: b, the oldest, goes
        #expect(cache.diskOrder == [cache.path(for: url("a")), cache.path(for: url("c"))] && cache.diskBytes == 400)
        #expect(cache.diskCounters.evictions == 1)
        // A picture larger than the whole limit is not kept.
        _ = try cache.fetch(url("big"), network: network) { _ in true }
        #expect(cache.diskBytes <= 400 && !FileManager.default.fileExists(atPath: cache.path(for: url("big"))))
        // A changed picture (a new ETag) answers 200 to the old tag: the new bytes replace the old.
        pictures.version = 2
        let fresh = try cache.fetch(url("c"), network: network) { _ in true }
        #expect(fresh.source == .network && fresh.bytes.first == 2)
        // Limits lowered at once; cleared tier by tier.
        cache.setLimits(memory: nil, disk: 0)
        #expect(cache.diskEntries.isEmpty)
    }

    /// Issue 42: asking whether a kept picture changed never loses it. The server gone, or
    /// answering an error, the kept copy is shown; a kept copy that no longer decodes is
    /// fetched again.
    @Test func aFailedRevalidationKeepsTheCopyAndADamagedCopyIsFetchedAgain() throws {
        let (server, _, network) = try fixture()
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = DogPictureCache(directory: directory, memoryLimit: 0, diskLimit: 10_000)
        let url = server.baseURL + "/a"
        #expect(try cache.fetch(url, network: network) { _ in true }.source == .network)
        // A copy the check refuses (as a picture that no longer decodes) is asked for afresh.
        var checks = 0
        let again = try cache.fetch(url, network: network) { _ in
            checks += 1
            return checks > 1
        }
        #expect(again.source == .network && checks == 2)
        server.stop()
        let kept = try cache.fetch(url, network: network) { _ in true }
        #expect(kept.source == .disk && kept.bytes.count == 100)
        let errors = try LoopbackServer { _ in .respond(status: 503, headers: [:], body: Data("busy".utf8)) }
        defer { errors.stop() }
        let other = errors.baseURL + "/a"
        #expect(throws: (any Error).self) { try cache.fetch(other, network: network) { _ in true } }
    }

    @Test func aPictureThatIsNotOneIsRefusedAndNotCached() throws {
        let (server, _, network) = try fixture()
        defer { server.stop() }
        let directory = folder()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = DogPictureCache(directory: directory)
        #expect(throws: DogPictureError.self) {
            try cache.fetch(server.baseURL + "/a", network: network) { _ in false }
        }
        #expect(cache.diskEntries.isEmpty && cache.memoryCount == 0)
    }
}
