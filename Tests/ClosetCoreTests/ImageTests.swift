import ClosetCore
import Foundation
import TestSupport
import Testing
import WardrobePack

@Suite struct ImageHeaderTests {
    @Test func readsPNGSize() throws {
        let png = SampleImages.png(width: 3, height: 2)
        let info = try ImageHeader.inspect(png)
        #expect(info == ImageInfo(format: .png, width: 3, height: 2, bytes: png.count))
    }

    @Test func readsJPEGSize() throws {
        let jpeg = SampleImages.jpeg(width: 640, height: 480)
        let info = try ImageHeader.inspect(jpeg)
        #expect(info == ImageInfo(format: .jpeg, width: 640, height: 480, bytes: jpeg.count))
    }

    @Test func refusesTruncatedFilesAtEveryLength() {
        let png = SampleImages.png(width: 2, height: 2)
        for length in 8..<png.count {
            #expect(throws: ImageHeader.Problem.truncated(.png)) { try ImageHeader.inspect(Array(png[0..<length])) }
        }
        let jpeg = SampleImages.jpeg(width: 2, height: 2)
        for length in 3..<jpeg.count {
            #expect(throws: ImageHeader.Problem.truncated(.jpeg)) { try ImageHeader.inspect(Array(jpeg[0..<length])) }
        }
    }

    @Test func refusesWhatIsNotAnImage() {
        #expect(throws: ImageHeader.Problem.notAnImage) { try ImageHeader.inspect(Array("GIF89a....".utf8)) }
        #expect(throws: ImageHeader.Problem.notAnImage) { try ImageHeader.inspect([]) }
        #expect(throws: ImageHeader.Problem.tooLarge(ImageHeader.maximumBytes + 1)) {
            try ImageHeader.inspect([0x89] + [UInt8](repeating: 0, count: ImageHeader.maximumBytes))
        }
    }
}

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

@Suite struct ChecksumTests {
    @Test func knownVectors() {
        #expect(Checksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(Checksum.crc32([]) == 0)
        #expect(Checksum.crc32(Array("The quick brown fox jumps over the lazy dog".utf8)) == 0x414F_A339)
    }

    @Test func everyLengthMatchesTheBytewiseDefinition() {
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        for length in 0...bytes.count {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes[0..<length] {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            #expect(Checksum.crc32(bytes[0..<length]) == ~crc, "length \(length)")
        }
    }
}

@Suite struct PNGHeaderTests {
    @Test func aHeaderWhoseChecksumDoesNotMatchIsRefused() {
        var bytes = SampleImages.png(width: 3, height: 2)
        bytes[17] ^= 0x01  // the width, without fixing the header's CRC
        #expect(throws: ImageHeader.Problem.truncated(.png)) { try ImageHeader.inspect(bytes) }
    }

    @Test func sidesOverTheFormatsLimitAreRefusedEvenWithAValidChecksum() {
        #expect(throws: ImageHeader.Problem.truncated(.png)) {
            try ImageHeader.inspect(SampleImages.pngHeader(width: 4_294_967_295, height: 4_294_967_295))
        }
        #expect(
            (try? ImageHeader.inspect(SampleImages.pngHeader(width: 2_147_483_647, height: 1)))?.width == 2_147_483_647)
    }
}
