import Foundation
import TestSupport
import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// Issue 26, part 1: the decoders held to references. The corpus in `Tests/Fixtures/pictures`
/// is written by `Scripts/lib/make-picture-fixtures.py`: zlib streams made by Python's zlib at every
/// level and strategy, and PNGs of every colour type, bit depth, filter and interlace with the
/// RGBA8 pixels the specification says they hold (Pillow agrees wherever it follows it).
@Suite struct PictureDecoderTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let folder = root + "/Tests/Fixtures/pictures"

    func fixtures(_ suffix: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Self.folder).filter { $0.hasSuffix(suffix) }.sorted()
    }

    func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + name)))
    }

    @Test func everyZlibStreamInflatesToWhatPythonCompressed() throws {
        let streams = try fixtures(".z")
        #expect(streams.count == 28)
        for name in streams {
            let kind = name.split(separator: "-")[1]
            let expected = try bytes("zlib-\(kind).raw")
            #expect(try Inflate.zlib(try bytes(name), limit: 1 << 20) == expected, "\(name)")
        }
    }

    @Test func everyPNGDecodesToItsPixelsExactly() throws {
        let pictures = try fixtures(".png")
        #expect(pictures.count == 90)
        for name in pictures {
            let bitmap = try PNGDecoder.decode(try bytes(name))
            let expected = try bytes(String(name.dropLast(4)) + ".rgba")
            #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
            #expect(bitmap.pixels == expected, "\(name)")
        }
        // The goldens' own picture, against what its header says.
        let knit = [UInt8](
            try Data(contentsOf: URL(fileURLWithPath: Self.root + "/Tests/Golden/images/fixtures/knit.png")))
        let info = try ImageHeader.inspect(knit)
        let decoded = try PNGDecoder.decode(knit)
        #expect(decoded.width == info.width && decoded.height == info.height)
    }

    @Test func aStreamPastItsLimitStopsThere() throws {
        let text = try bytes("zlib-text-l9.z")
        let size = try bytes("zlib-text.raw").count
        #expect(throws: Inflate.Failure.tooLarge(size - 1)) { try Inflate.zlib(text, limit: size - 1) }
        #expect(try Inflate.zlib(text, limit: size).count == size)
        var damaged = text
        damaged[damaged.count - 1] ^= 1  // the Adler-32
        #expect(throws: Inflate.Failure.badWrapper("its Adler-32 checksum does not match")) {
            try Inflate.zlib(damaged, limit: 1 << 20)
        }
    }

    @Test func aPictureOverTheLimitIsRefusedFromItsHeader() throws {
        var png = try bytes("png-c2-d8-1x1.png")
        // IHDR says 100,000 × 100,000 (its CRC made to match): refused before anything is made.
        let width: [UInt8] = [0x00, 0x01, 0x86, 0xA0]
        png.replaceSubrange(16..<20, with: width)
        png.replaceSubrange(20..<24, with: width)
        let crc = Checksum.crc32(png[12..<29])
        png.replaceSubrange(29..<33, with: (0..<4).map { UInt8(truncatingIfNeeded: crc >> (24 - 8 * UInt32($0))) })
        #expect(throws: PNGDecoder.Failure.tooLarge(width: 100_000, height: 100_000)) { try PNGDecoder.decode(png) }
        png[30] ^= 1
        #expect(throws: PNGDecoder.Failure.badChunk("chunk IHDR fails its CRC")) { try PNGDecoder.decode(png) }
    }

    /// Hostile input: every truncation and thousands of random corruptions give an error or a
    /// picture, never a trap or a hang.
    @Test func damagedInputIsAnErrorNeverATrap() throws {
        var generator = SeededRandom(seed: 26)
        for name in ["png-c3-d4-17x9-i.png", "png-c6-d16-5x33.png", "png-c0-d1-17x9.png"] {
            let png = try bytes(name)
            for cut in 0..<png.count { _ = try? PNGDecoder.decode(Array(png[..<cut])) }
            for _ in 0..<2_000 {
                var damaged = png
                for _ in 0...Int(generator.next() % 4) {
                    damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
                }
                _ = try? PNGDecoder.decode(damaged)
            }
        }
        for name in ["zlib-random-l6.z", "zlib-runs-rle.z", "zlib-text-fixed.z"] {
            let stream = try bytes(name)
            for cut in 0..<stream.count { _ = try? Inflate.zlib(Array(stream[..<cut]), limit: 1 << 16) }
            for _ in 0..<3_000 {
                var damaged = stream
                damaged[Int(generator.next() % UInt64(damaged.count))] ^= UInt8(1 << (generator.next() % 8))
                _ = try? Inflate.zlib(damaged, limit: 1 << 16)
            }
            // Random bytes as raw DEFLATE.
            for _ in 0..<2_000 {
                let noise = (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                _ = try? Inflate.raw(noise, limit: 1 << 16)
            }
        }
    }
}
