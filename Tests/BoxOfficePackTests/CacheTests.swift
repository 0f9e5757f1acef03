import Foundation
import TestSupport
import Testing

@testable import BoxOfficePack

/// A clock the tests move by hand: the app's tests slept; these advance time instead.
final class TestClock: @unchecked Sendable {
    var now = Date(timeIntervalSince1970: 1_700_000_000)
    func advance(_ seconds: TimeInterval) { now = now.addingTimeInterval(seconds) }
    var read: () -> Date { { [unowned self] in self.now } }
}

/// Reference §2.6 `InMemoryCacheStorageTest` (countLimit 3, expiry 5 s, clean interval 2 s).
@Suite struct InMemoryCacheStorageTests {
    let clock = TestClock()
    var storage: InMemoryCacheStorage<String> {
        InMemoryCacheStorage(countLimit: 3, cacheExpiration: .seconds(5), cleanInterval: 2, now: clock.read)
    }

    @Test func storeAndGetValue() {
        let storage = storage
        storage.store("value", for: "key")
        #expect(storage.value(for: "key") == "value")
    }

    @Test func storeValueOverwrite() {
        let storage = storage
        storage.store("1", for: "key")
        storage.store("2", for: "key")
        #expect(storage.value(for: "key") == "2")
        #expect(storage.count == 1)
    }

    @Test func storeWithExpiration() {
        let storage = storage
        storage.store("short", for: "a", expiration: .seconds(0.5))
        storage.store("long", for: "b", expiration: .seconds(3))
        clock.advance(0.5)
        #expect(storage.value(for: "a") == nil)
        #expect(storage.value(for: "b") == "long")
    }

    @Test func storeExceedingCountLimit() {
        let storage = storage
        for n in 1...4 { storage.store("\(n)", for: "\(n)") }
        #expect(storage.value(for: "1") == nil)
        #expect(["2", "3", "4"].allSatisfy { storage.value(for: $0) == $0 })
        #expect(storage.counters.evictions == 1)
    }

    @Test func getValueWithExtendingCacheTime() {
        let storage = storage
        storage.store("v", for: "k", expiration: .seconds(0.3))
        #expect(storage.value(for: "k", extendingExpiration: .cacheTime) == "v")  // expiry 0.3 → 0.6
        clock.advance(0.3)
        #expect(storage.isCached(for: "k"))
        clock.advance(0.4)
        #expect(!storage.isCached(for: "k"))
    }

    @Test func getValueWithExtendingNewExpiration() {
        let storage = storage
        storage.store("v", for: "k", expiration: .seconds(0.2))
        #expect(storage.value(for: "k", extendingExpiration: .newExpiration(.seconds(0.7))) == "v")
        clock.advance(0.5)
        #expect(storage.isCached(for: "k"))
        clock.advance(0.3)
        #expect(!storage.isCached(for: "k"))
    }

    @Test func getValueNotExtendingExpiration() {
        let storage = storage
        storage.store("v", for: "k", expiration: .seconds(0.3))
        #expect(storage.value(for: "k", extendingExpiration: .none) == "v")
        clock.advance(0.3)
        #expect(storage.value(for: "k") == nil)
    }

    @Test func removeExpired() {
        let storage = storage
        storage.store("a", for: "a", expiration: .seconds(1))
        storage.store("b", for: "b", expiration: .seconds(5))
        clock.advance(1)
        storage.removeExpired()
        #expect(storage.keys == ["b"])
        #expect(storage.counters.expired == 1)
    }

    /// The app's Timer cleaned every 2 s; here the first use after 2 s cleans.
    @Test func autoClean() {
        let storage = storage
        storage.store("a", for: "a", expiration: .seconds(1))
        storage.store("b", for: "b")
        clock.advance(1.5)
        #expect(storage.keys == ["a", "b"])  // expired, not yet cleaned
        clock.advance(0.5)
        #expect(storage.count == 1)
        #expect(storage.keys == ["b"])
    }

    @Test func removeValue() {
        let storage = storage
        storage.store("a", for: "a")
        storage.removeValue(for: "a")
        #expect(storage.value(for: "a") == nil)
    }

    @Test func removeAll() {
        let storage = storage
        for n in 1...3 { storage.store("\(n)", for: "\(n)") }
        storage.removeAll()
        #expect(storage.count == 0)
    }

    @Test func cacheObject() {
        let storage = storage
        storage.store("v", for: "k", expiration: .seconds(1))
        clock.advance(0.5)
        _ = storage.value(for: "k", extendingExpiration: .cacheTime)  // 1 → 2
        clock.advance(1)
        #expect(storage.object(for: "k")?.isExpired(at: clock.now) == false)
        _ = storage.value(for: "k", extendingExpiration: .newExpiration(.seconds(10)))
        #expect(storage.object(for: "k")?.expiration == .seconds(1))
        #expect(Date(timeIntervalSince1970: 5).isPast(referenceDate: Date(timeIntervalSince1970: 5)))
    }
}

/// Reference §2.6 `OnDiskCacheStorageTest` (String through UTF-8; countLimit 3; expiry 5 s).
@Suite struct OnDiskCacheStorageTests {
    let clock = TestClock()
    let folder = NSTemporaryDirectory() + "closet-disk-cache-" + UUID().uuidString

    func storage() throws -> OnDiskCacheStorage<String> {
        try OnDiskCacheStorage(directory: folder, countLimit: 3, cacheExpiration: .seconds(5), now: clock.read)
    }

    @Test func storeAndGetValue() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try storage.store("value", for: "key")
        #expect(try storage.value(for: "key") == "value")
        try storage.store("other", for: "key")
        #expect(try storage.value(for: "key") == "other")
    }

    @Test func storeWithExpiration() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try storage.store("a", for: "a", expiration: .seconds(1))
        try storage.store("b", for: "b", expiration: .seconds(3))
        clock.advance(1)
        #expect(try storage.value(for: "a") == nil)
        #expect(try storage.value(for: "b") == "b")
    }

    /// The count − limit + 1 rule: store 1@1 s, 2@5 s, 3@3 s, 4@4 s, 5@5 s → 1 and 3 go.
    @Test func storeExceedingCountLimit() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (key, seconds) in [("1", 1.0), ("2", 5), ("3", 3), ("4", 4), ("5", 5)] {
            try storage.store(key, for: key, expiration: .seconds(seconds))
        }
        #expect(try storage.value(for: "1") == nil)
        #expect(try storage.value(for: "3") == nil)
        for key in ["2", "4", "5"] { #expect(try storage.value(for: key) == key) }
        #expect(storage.counters.evictions == 2)
    }

    @Test func getValueWithExtendingCacheTime() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try storage.store("v", for: "k", expiration: .seconds(1))
        clock.advance(0.5)
        #expect(try storage.value(for: "k", extendingExpiration: .cacheTime) == "v")  // expiry 1 → 1.5
        clock.advance(0.5)
        #expect(storage.isCached(for: "k"))
        clock.advance(0.5)
        #expect(!storage.isCached(for: "k"))
    }

    @Test func getValueWithExtendingNewExpiration() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try storage.store("v", for: "k", expiration: .seconds(1))
        #expect(try storage.value(for: "k", extendingExpiration: .newExpiration(.seconds(3))) == "v")
        clock.advance(2)
        #expect(storage.isCached(for: "k"))
        clock.advance(1)
        #expect(!storage.isCached(for: "k"))
    }

    @Test func removeValueRemoveAllRemoveExpired() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try storage.store("a", for: "a", expiration: .seconds(1))
        try storage.store("b", for: "b")
        storage.removeValue(for: "b")
        #expect(storage.count == 1)
        try Data("no header".utf8).write(to: URL(fileURLWithPath: folder + "/junk"))
        clock.advance(1)
        storage.removeExpired()
        #expect(storage.count == 0)  // the expired file and the one without a header
        try storage.store("c", for: "c")
        try storage.removeAll()
        #expect(storage.count == 0 && FileManager.default.fileExists(atPath: folder))
    }

    @Test func fileMetaInit() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: OnDiskCacheFailure.self) { try CacheFileMeta(path: storage.path(for: "missing")) }
        try storage.store("v", for: "k")
        let meta = try CacheFileMeta(path: storage.path(for: "k"))
        #expect(meta.lastAccessDate == clock.now && meta.estimatedExpirationDate == clock.now.addingTimeInterval(5))
    }

    @Test func keysCannotLeaveTheFolder() throws {
        let storage = try storage()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for key in ["../escape", "/etc/passwd", "", String(repeating: "x", count: 500)] {
            #expect((storage.path(for: key) as NSString).deletingLastPathComponent == folder)
        }
    }
}

/// Reference §2.6 `ImageCacheTest` (memory: 3 items, 2 s, clean 1.5 s; disk: 3 items, 3 s).
@Suite struct ImageCacheTests {
    let clock = TestClock()
    let folder = NSTemporaryDirectory() + "closet-image-cache-" + UUID().uuidString
    let image = PosterImage.decode(SampleImages.jpeg(width: 4, height: 6))!

    func cache(_ option: ImageCache.CacheOption = .all) throws -> ImageCache {
        ImageCache(
            memory: InMemoryCacheStorage(
                countLimit: 3, cacheExpiration: .seconds(2), cleanInterval: 1.5, now: clock.read),
            disk: try OnDiskCacheStorage(
                directory: folder, countLimit: 3, cacheExpiration: .seconds(3), now: clock.read),
            option: option)
    }

    @Test func storeWithNoOptionStoresBoth() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "k")
        #expect(cache.memory.isCached(for: "k") && cache.disk.isCached(for: "k"))
    }

    @Test func storeToMemoryOrDisk() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "m", option: .memory)
        cache.store(image, for: "d", option: .disk)
        #expect(cache.memory.isCached(for: "m") && !cache.disk.isCached(for: "m"))
        #expect(!cache.memory.isCached(for: "d") && cache.disk.isCached(for: "d"))
    }

    @Test func retrieveFromMemoryDoesNotWriteToDisk() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "k", option: .memory)
        #expect(cache.retrieveImage(for: "k")?.tier == .memory)
        #expect(!cache.disk.isCached(for: "k"))
    }

    @Test func retrieveFromDiskPromotesToMemory() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "k", option: .disk)
        #expect(cache.retrieveImage(for: "k")?.tier == .disk)
        #expect(cache.memory.isCached(for: "k"))
        #expect(cache.retrieveImage(for: "missing") == nil)
    }

    @Test func removeImageAndRemoveAll() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "a")
        cache.store(image, for: "b")
        cache.removeImage(for: "a")
        #expect(!cache.isCached(for: "a") && cache.isCached(for: "b"))
        cache.removeAll()
        #expect(!cache.isCached(for: "b"))
    }

    @Test func removeExpiredPerOption() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        cache.store(image, for: "k")
        clock.advance(2)
        cache.removeExpired(option: .memory)
        #expect(!cache.memory.isCached(for: "k") && cache.disk.isCached(for: "k"))
        clock.advance(2)
        cache.removeExpired()
        #expect(!cache.isCached(for: "k") && cache.disk.count == 0)
    }

    @Test func cacheKeysAreTheAppsURLKeys() {
        #expect("https://t1.daumcdn.net/movie/poster.v2.jpg".cacheKey == "movieposter_v2")
    }
}

/// Reference §2.6 `ImageProviderTest` and `ImageDataConvertibleTest`.
@Suite struct ImageProviderTests {
    let clock = TestClock()
    let folder = NSTemporaryDirectory() + "closet-provider-" + UUID().uuidString

    func cache() throws -> ImageCache {
        ImageCache(
            memory: InMemoryCacheStorage(countLimit: 3, now: clock.read),
            disk: try OnDiskCacheStorage(directory: folder, countLimit: 3, now: clock.read))
    }

    @Test func initRemovesExpiredFromDisk() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try cache.disk.store(
            PosterImage.decode(SampleImages.png(width: 1, height: 1))!, for: "old", expiration: .seconds(1))
        clock.advance(2)
        _ = ImageProvider(cache: cache) { _ in [] }
        _ = ImageProvider(cache: cache) { _ in [] }
        #expect(cache.disk.count == 0 && cache.disk.counters.expired == 1)
    }

    @Test func fetchDownloadsOnceThenServesFromTheCache() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let downloads = Box()
        let provider = ImageProvider(cache: cache) { _ in
            downloads.count += 1
            return SampleImages.jpeg(width: 3, height: 3)
        }
        #expect(try provider.fetchImage(from: "https://x/poster.jpg").source == .network)
        #expect(try provider.fetchImage(from: "https://x/poster.jpg").source == .memory)
        #expect(downloads.count == 1 && cache.memory.counters.hits == 1)
    }

    @Test func fetchImageConvertingFailure() throws {
        let cache = try cache()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let provider = ImageProvider(cache: cache) { _ in [] }
        #expect(throws: ImageProviderError.imageConvertingFail(imageURL: "https://x/empty.jpg")) {
            try provider.fetchImage(from: "https://x/empty.jpg")
        }
        #expect(!cache.isCached(for: "https://x/empty.jpg".cacheKey))
    }

    @Test func dataConvertible() throws {
        let jpeg = SampleImages.jpeg(width: 2, height: 2)
        #expect(try PosterImage.fromData(Data(jpeg)).toData() == Data(jpeg))
        #expect(throws: DataConvertError.cannotConvertFromData) { try PosterImage.fromData(Data("{}".utf8)) }
        #expect(throws: DataConvertError.cannotConvertToData) { try PosterImage.empty.toData() }
    }
}

final class Box: @unchecked Sendable {
    var count = 0
}

/// Issue 22: the KOBIS key travels in the query, so the default base is https.
@Suite struct DefaultBaseTests {
    @Test func theBoxOfficeAPIsDefaultToHTTPS() {
        #expect(KobisAPI.api.defaultBase == "https://www.kobis.or.kr/kobisopenapi/webservice/rest")
        #expect(KakaoImageSearchAPI.api.defaultBase?.hasPrefix("https://") == true)
    }
}
