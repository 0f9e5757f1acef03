import ClosetCore
import Foundation
import TestSupport
import Testing

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

/// The core's exact LRU cache, generic over what it holds and what an entry costs.
@Suite struct LRUCacheTests {
    @Test func bothLimitsHoldAndTheLeastRecentlyUsedGoesFirst() {
        let cache = LRUCache<String>(countLimit: 3, costLimit: 10) { $0.count }
        for key in ["a", "b", "c"] { cache.store(key + key, for: key) }
        _ = cache.get(for: "a")
        cache.store("dd", for: "d")
        #expect(cache.keysByRecency == ["d", "a", "c"])
        #expect(cache.evictions == 1 && cache.hits == 1 && cache.totalCost == 6)
        cache.store("eeeeee", for: "e")  // a fourth entry: c, the least recent, goes (cost 10 fits)
        #expect(cache.keysByRecency == ["e", "d", "a"])
        #expect(cache.totalCost == 10 && cache.evictions == 2)
        cache.store("f", for: "f")  // four entries again: a goes
        #expect(cache.keysByRecency == ["f", "e", "d"] && cache.totalCost == 9 && cache.evictions == 3)
        cache.store("xxxxxxxxxxx", for: "x")  // costs more than the limit: not kept
        #expect(!cache.contains("x") && cache.count == 3)
        #expect(cache.get(for: "x") == nil && cache.misses == 1)
        cache.costLimit = 2  // a lower limit evicts at once, least recent first
        #expect(cache.keysByRecency == ["f"] && cache.totalCost == 1 && cache.evictions == 5)
    }

    @Test func manyOperationsStayExactAgainstAPlainModel() {
        var generator = SeededRandom(seed: 7)
        let cache = LRUCache<[UInt8]>(countLimit: 5, costLimit: 40) { $0.count }
        var model: [(key: String, value: [UInt8])] = []  // most recent last
        for _ in 0..<5_000 {
            let key = "k\(Int.random(in: 0..<12, using: &generator))"
            if Bool.random(using: &generator) {
                let value = [UInt8](repeating: 1, count: Int.random(in: 0...15, using: &generator))
                cache.store(value, for: key)
                model.removeAll { $0.key == key }
                if value.count <= 40 { model.append((key, value)) }
                while model.count > 5 || model.reduce(0, { $0 + $1.value.count }) > 40 { model.removeFirst() }
            } else {
                let got = cache.get(for: key)
                if let index = model.firstIndex(where: { $0.key == key }) {
                    #expect(got == model[index].value)
                    model.append(model.remove(at: index))
                } else {
                    #expect(got == nil)
                }
            }
            #expect(cache.keysByRecency == model.reversed().map(\.key))
        }
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
