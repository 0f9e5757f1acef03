import Foundation
import TestSupport
import Testing

@testable import WardrobePack

/// The app's `ImageCacheManagerTests` (reference §1.7), plus exact limits and LRU order.
@Suite struct ImageCacheManagerTests {
    func makeCache() -> ImageCacheManager {
        let cache = ImageCacheManager()
        cache.countLimit = 100
        cache.megaByteLimit = 200
        return cache
    }

    @Test func storedImageComesBack() {
        let cache = makeCache()
        let image = SampleImages.png(width: 4, height: 4)
        cache.store(image, for: "a")
        #expect(cache.get(for: "a") == image)
    }

    @Test func countLimitApplies() {
        let cache = makeCache()
        cache.countLimit = 3
        for index in 0..<11 { cache.store(SampleImages.png(width: index + 1, height: 1), for: "\(index)") }
        #expect((0..<11).filter { cache.contains("\($0)") }.count <= 3)
        #expect(cache.count == 3)  // exact, not just at most
    }

    @Test func byteLimitApplies() {
        let cache = makeCache()
        let images = (1...5).map { SampleImages.png(width: $0 * 3, height: $0) }
        cache.byteLimit = 3 * images.map(\.count).min()!
        for (index, image) in images.enumerated() { cache.store(image, for: "\(index)") }
        #expect((0..<5).filter { cache.contains("\($0)") }.count <= 3)
        #expect(cache.totalBytes <= cache.byteLimit)
    }

    @Test func leastRecentlyUsedGoesFirst() {
        let cache = ImageCacheManager(countLimit: 3)
        for key in ["a", "b", "c"] { cache.store([1], for: key) }
        _ = cache.get(for: "a")  // a is now the most recent
        cache.store([1], for: "d")
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(cache.evictions == 1)
        #expect(cache.hits == 1)
        #expect(cache.get(for: "b") == nil)
        #expect(cache.misses == 1)
    }

    @Test func megaAndKiloByteLimitsConvert() {
        let cache = ImageCacheManager()
        #expect(cache.megaByteLimit == 200)
        cache.kiloByteLimit = 3
        #expect(cache.byteLimit == 3072)
    }

    @Test func aValueLargerThanTheByteLimitIsNotKept() {
        let cache = ImageCacheManager(countLimit: 10, byteLimit: 4)
        cache.store([1, 2, 3, 4, 5], for: "big")
        #expect(!cache.contains("big"))
        #expect(cache.totalBytes == 0)
    }
}
