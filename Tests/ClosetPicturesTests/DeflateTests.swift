import Foundation
import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// The DEFLATE compressor (issue 43, item 2): what it writes is read back by closet's inflater
/// and by Python's zlib (the reference), and it compresses about as well as zlib's default level.
@Suite struct DeflateTests {
    /// Inputs of every character: empty, one byte, runs, text, noise, larger than a stored
    /// block, a picture's rows.
    static func inputs() -> [(String, [UInt8])] {
        var random = SplitMix64(seed: 43)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let text = Array(
            String(repeating: "filter clothes season=fall sort=new; 사랑할개 유기견 소개 ", count: 900).utf8)
        var mixed: [UInt8] = []
        for index in 0..<200_000 {
            mixed.append(index % 5000 < 2500 ? UInt8(index % 7) : UInt8(truncatingIfNeeded: random.next() % 16))
        }
        let picture = PNGEncoder.filteredRows(Self.photo(300, 200))
        return [
            ("empty", []), ("one byte", [7]), ("two bytes", [1, 2]), ("a run", [UInt8](repeating: 9, count: 100_000)),
            ("text", text), ("noise", noise), ("mixed", mixed), ("picture rows", picture),
            ("258 and one", [UInt8](repeating: 1, count: 259) + [2, 1, 1, 1]),
        ]
    }

    /// Something like a photograph: smooth gradients, a soft edge and a little noise.
    static func photo(_ width: Int, _ height: Int) -> Bitmap {
        var random = SplitMix64(seed: 7)
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                let noise = Int(random.next() % 5)
                let edge = x * 3 + y > width * 2 ? 60 : 0
                pixels += [
                    UInt8(min(255, x * 200 / width + noise + edge)), UInt8(min(255, y * 180 / height + noise)),
                    UInt8(min(255, (x + y) * 100 / (width + height) + 80)), 255,
                ]
            }
        }
        return Bitmap(width: width, height: height, pixels: pixels)
    }

    @Test func closetsInflaterReadsBackEveryInput() throws {
        for (name, input) in Self.inputs() {
            let stream = Deflate.zlib(input)
            #expect(try Inflate.zlib(stream, limit: input.count) == input, "\(name)")
            #expect(try Inflate.raw(Deflate.raw(input), limit: input.count) == input, "\(name)")
            // Never more than a stored block's overhead larger (a block is at most 32,768 symbols).
            #expect(stream.count <= input.count + 6 + 5 * (input.count / Deflate.blockTokens + 1), "\(name)")
        }
    }

    @Test func randomInputsRoundTrip() throws {
        var random = SplitMix64(seed: 1951)
        for _ in 0..<200 {
            let alphabet = Int(random.next() % 6) + 1
            let count = Int(random.next() % 3000)
            let input = (0..<count).map { _ in UInt8(random.next() % UInt64(1 << alphabet)) }
            #expect(try Inflate.zlib(Deflate.zlib(input), limit: count) == input)
        }
    }

    @Test func pythonsZlibReadsItAndCompressesNoBetterByMuch() throws {
        guard
            let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(
                where: FileManager.default.isExecutableFile)
        else {
            // The test command runs Python for its corpus; only a bare `swift test` may lack it.
            #expect(ProcessInfo.processInfo.environment["CLOSET_JPEG_CORPUS"] == nil, "python3 is missing")
            return
        }
        let folder = NSTemporaryDirectory() + "closet-deflate-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (name, input) in Self.inputs() {
            let streamPath = folder + "/stream"
            let inputPath = folder + "/input"
            let outPath = folder + "/out"
            let stream = Deflate.zlib(input)
            try Data(stream).write(to: URL(fileURLWithPath: streamPath))
            try Data(input).write(to: URL(fileURLWithPath: inputPath))
            let script = """
                import sys, zlib
                stream, source, out = sys.argv[1:4]
                open(out, 'wb').write(zlib.decompress(open(stream, 'rb').read()))
                print(len(zlib.compress(open(source, 'rb').read(), 6)))
                """
            let printed = try JPEGEncoderTests.run(python, ["-c", script, streamPath, inputPath, outPath])
            let decoded = try [UInt8](Data(contentsOf: URL(fileURLWithPath: outPath)))
            #expect(decoded == input, "\(name): Python's zlib reads something else")
            let theirs = try #require(
                Int(String(decoding: printed, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)))
            // zlib's level 6 searches longer chains; within a tenth of its size (and a few bytes).
            #expect(
                stream.count <= theirs + theirs / 10 + 16, "\(name): \(stream.count) bytes against zlib's \(theirs)")
        }
    }

    @Test func aPNGOfAPhotoReadsBackAtAFractionOfItsPixels() throws {
        let bitmap = Self.photo(300, 200)
        let file = PNGEncoder.encode(bitmap)
        #expect(try PNGDecoder.decode(file) == bitmap)
        // Each row's filter chosen: far smaller than deflating the pixels unfiltered.
        #expect(file.count < Deflate.zlib(bitmap.pixels).count * 2 / 3)
        #expect(file.count < bitmap.pixels.count / 3)
    }

    @Test func lengthLimitedCodesStayWithinTheirBitsAndAreComplete() {
        // Fibonacci counts make the deepest Huffman tree; 15 bits must still hold.
        var counts = [1, 1]
        while counts.count < 40 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        for maxBits in [7, 15] {
            let lengths = HuffmanLengths.lengths(of: counts, maxBits: maxBits)
            #expect(lengths.allSatisfy { $0 >= 1 && Int($0) <= maxBits })
            // Kraft's sum is exactly one: a complete code.
            let kraft = lengths.reduce(0.0) { $0 + pow(2.0, -Double($1)) }
            #expect(abs(kraft - 1) < 1e-12)
        }
        #expect(HuffmanLengths.lengths(of: [0, 0, 5], maxBits: 15) == [1, 0, 1])
        #expect(HuffmanLengths.lengths(of: [0, 0, 0], maxBits: 15) == [1, 1, 0])
    }

    @Test func adler32SixteenBytesAStepIsTheDefinition() {
        // RFC 1950's sums, a byte at a time, against the checksum's steps of sixteen, over
        // lengths around its 5,552-byte blocks and of every tail, bytes of 255 (the largest sums).
        func definition(_ bytes: [UInt8]) -> UInt32 {
            var (a, b): (UInt32, UInt32) = (1, 0)
            for byte in bytes {
                a = (a + UInt32(byte)) % 65521
                b = (b + a) % 65521
            }
            return b << 16 | a
        }
        #expect(Inflate.adler32(Array("Wikipedia".utf8)) == 0x11E6_0398)
        var random = SplitMix64(seed: 1950)
        for length in [0, 1, 15, 16, 17, 5551, 5552, 5553, 11_104, 11_121, 100_003] {
            let noise = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            #expect(Inflate.adler32(noise) == definition(noise), "\(length) bytes of noise")
            let full = [UInt8](repeating: 255, count: length)
            #expect(Inflate.adler32(full) == definition(full), "\(length) bytes of 255")
        }
    }
}
