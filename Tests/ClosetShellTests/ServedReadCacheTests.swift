import ClosetNetwork
import Foundation
import Testing

@testable import ClosetShell

/// The served GET cache: answers kept by bytes (the oldest go first), forgotten when the store's
/// files change, and never kept from an older state.
@Suite struct ServedReadCacheTests {
    static func folder() throws -> String {
        let path = NSTemporaryDirectory() + "cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try Data("j".utf8).write(to: URL(fileURLWithPath: path + "/journal"))
        try Data("s".utf8).write(to: URL(fileURLWithPath: path + "/snapshot"))
        return path
    }

    static func get(_ page: Int) -> ServedRequest { ServedRequest(method: "GET", path: "/items/\(page)") }
    static func answer(_ bytes: Int) -> HTTPResponse { HTTPResponse(status: 200, body: Data(count: bytes)) }

    @Test func theAnswersKeptLongestGoFirstPastTheBound() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = ServedReadCache(storeFolder: path, maximumBytes: 20_000)
        cache.look()
        for page in 1...16 {
            cache.keep(Self.answer(2_000), for: Self.get(page), baseURL: "b", madeAt: cache.currentSignature())
        }
        // About nine 2,000-byte answers fit (each kept once, as written, 2,000 bytes and a little):
        // the last ones kept are there, the first are not.
        let kept = (1...16).filter { cache.answer(for: Self.get($0), baseURL: "b") != nil }
        #expect(kept.count >= 8 && kept.count <= 9, "\(kept)")
        #expect(kept == Array((17 - kept.count)...16))
        // Given back whole: the body is read from the written bytes.
        #expect(cache.answer(for: Self.get(16), baseURL: "b") == Self.answer(2_000))
        #expect(cache.kept(for: Self.get(16), baseURL: "b")?.head.body.isEmpty == true)
        // Another base URL is another answer (URLs in it name the base).
        #expect(cache.answer(for: Self.get(16), baseURL: "other") == nil)
    }

    @Test func aChangedFileForgetsEverythingARefusedWriteNothing() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = ServedReadCache(storeFolder: path)
        cache.look()
        let before = cache.currentSignature()
        cache.keep(Self.answer(10), for: Self.get(1), baseURL: "b", madeAt: before)
        #expect(cache.answer(for: Self.get(1), baseURL: "b") != nil)
        // A commit elsewhere: the journal grows. Seen at the next look, not before.
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: path + "/journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data("more".utf8))
        try journal.close()
        cache.look()
        #expect(cache.answer(for: Self.get(1), baseURL: "b") == nil)
        // An answer made before that commit is not kept under the new state.
        cache.keep(Self.answer(10), for: Self.get(1), baseURL: "b", madeAt: before)
        #expect(cache.answer(for: Self.get(1), baseURL: "b") == nil)
        cache.keep(Self.answer(10), for: Self.get(1), baseURL: "b", madeAt: cache.currentSignature())
        #expect(cache.answer(for: Self.get(1), baseURL: "b") != nil)
        // A request that is not a read is never answered from it, and forgets nothing: only a
        // commit (a changed file) does, so wrong passwords sent all day keep the reads fast.
        #expect(cache.answer(for: ServedRequest(method: "DELETE", path: "/item/1"), baseURL: "b") == nil)
        #expect(cache.answer(for: Self.get(1), baseURL: "b") != nil)
    }

    @Test func noBytesKeepsNothing() throws {
        let path = try Self.folder()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cache = ServedReadCache(storeFolder: path, maximumBytes: 0)
        cache.look()
        cache.keep(Self.answer(10), for: Self.get(1), baseURL: "b", madeAt: cache.currentSignature())
        #expect(cache.answer(for: Self.get(1), baseURL: "b") == nil)
    }
}
