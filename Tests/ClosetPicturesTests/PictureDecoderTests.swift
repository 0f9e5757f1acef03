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

    /// The box average by hand: colours weighted by alpha, alpha plain, edge squares smaller.
    static func boxAverage(_ bitmap: Bitmap, _ factor: Int) -> [UInt8] {
        let (width, height) = ((bitmap.width + factor - 1) / factor, (bitmap.height + factor - 1) / factor)
        var out: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                var (sums, alpha, count) = ([0, 0, 0], 0, 0)
                for sy in (y * factor)..<min(bitmap.height, (y + 1) * factor) {
                    for sx in (x * factor)..<min(bitmap.width, (x + 1) * factor) {
                        let at = 4 * (sy * bitmap.width + sx)
                        let a = Int(bitmap.pixels[at + 3])
                        for c in 0..<3 { sums[c] += Int(bitmap.pixels[at + c]) * a }
                        alpha += a
                        count += 1
                    }
                }
                out += sums.map { alpha > 0 ? UInt8(($0 + alpha / 2) / alpha) : 0 }
                out.append(UInt8((alpha + count / 2) / count))
            }
        }
        return out
    }

    @Test func aPNGDrawnSmallIsReducedAsItsRowsArriveToTheBoxAverage() throws {
        // Every fixture, interlaced or not, any colour type: reduced by 2 and by 4 as it decodes,
        // the box average of its full pixels.
        for name in try fixtures(".png") {
            let full = try PNGDecoder.decode(try bytes(name))
            for factor in [2, 4] where full.width >= factor && full.height >= factor {
                let box = (full.width / factor, full.height / factor)
                #expect(BoxReducer.factor(width: full.width, height: full.height, box: box) == factor, "\(name)")
                let reduced = try PNGDecoder.decode(try bytes(name), drawnWithin: box)
                #expect(reduced.width == (full.width + factor - 1) / factor, "\(name)")
                #expect(reduced.pixels == Self.boxAverage(full, factor), "\(name) by \(factor)")
            }
        }
        // Never smaller than drawn: a 100×50 picture drawn within 30×30 (as 30×15) is halved, not
        // quartered (25×13 would be smaller than drawn).
        #expect(BoxReducer.factor(width: 100, height: 50, box: (30, 30)) == 2)
        #expect(BoxReducer.factor(width: 100, height: 50, box: (100, 100)) == 1)
        #expect(BoxReducer.factor(width: 100, height: 50, box: nil) == 1)
    }

    /// A zlib stream handed on in pieces (what a PNG's rows are made from, the image data never
    /// whole) is the stream inflated whole, piece size whatever it is; past its limit, damaged, or
    /// stopped by its reader, it fails as the whole one does.
    /// A JPEG decoded at an eighth (an added picture's check) is kept for the drawings that follow
    /// at that scale, found by its bytes: the same pixels as decoding again; a drawing that needs
    /// more than an eighth decodes anew, and another picture of the same length is not taken for it.
    @Test func aJPEGDecodedAtAnEighthIsKeptForTheDrawingsThatFollow() throws {
        func photo(_ seed: Int) -> [UInt8] {
            var picture = Bitmap(width: 320, height: 200)
            for i in picture.pixels.indices {
                picture.pixels[i] = i % 4 == 3 ? 255 : UInt8((i * 7 + seed * i / 640) & 255)
            }
            return JPEGEncoder.encode(picture, quality: 80)
        }
        let (first, second) = (photo(1), photo(2))
        try PictureDecoder.check(first)
        let kept = try #require(EighthScaleDecodes.shared.find(first))
        #expect(kept.bitmap.width == 40 && kept.bitmap.height == 25)
        let thumbnail = try PictureDecoder.decode(first, drawnWithin: (12, 12))
        #expect(thumbnail == kept.bitmap)
        #expect(thumbnail == (try JPEGDecoder.decode(first, blockSide: 1)))
        // Drawn 100 wide: a quarter (80) would not cover it, so a half, decoded anew.
        #expect((try PictureDecoder.decode(first, drawnWithin: (100, 100))).width == 160)
        var sameLength = first
        sameLength[sameLength.count / 2] ^= 1
        #expect(EighthScaleDecodes.shared.find(sameLength) == nil)
        #expect(EighthScaleDecodes.shared.find(second) == nil)
        #expect(
            (try PictureDecoder.decode(second, drawnWithin: (12, 12))) == (try JPEGDecoder.decode(second, blockSide: 1))
        )
    }

    /// What is kept stays bounded however many pictures pass: 32 at most, and 16 MB of pixels
    /// and file bytes (a picture's bytes count: an entry holds them); the oldest go first.
    @Test func theKeptEighthScaleDecodesStayBounded() {
        let kept = EighthScaleDecodes()
        func entry(_ seed: Int, bytes: Int, side: Int = 4) -> EighthScaleDecodes.Entry {
            var file = [UInt8](repeating: UInt8(seed & 255), count: bytes)
            file[0] = UInt8(seed >> 8)
            return .init(
                bytes: file, width: side * 8, height: side * 8, turned: false, bitmap: Bitmap(width: side, height: side)
            )
        }
        for seed in 0..<40 { kept.keep(entry(seed, bytes: 1_000)) }
        #expect(kept.find(entry(0, bytes: 1_000).bytes) == nil)
        #expect(kept.find(entry(7, bytes: 1_000).bytes) == nil)
        #expect(kept.find(entry(8, bytes: 1_000).bytes) != nil)
        #expect(kept.find(entry(39, bytes: 1_000).bytes) != nil)
        // Large files: 3 MB each, so five fit in 16 MB; one past a quarter of it is not kept at all.
        for seed in 100..<110 { kept.keep(entry(seed, bytes: 3 << 20)) }
        #expect(kept.find(entry(104, bytes: 3 << 20).bytes) == nil)
        #expect(kept.find(entry(105, bytes: 3 << 20).bytes) != nil)
        kept.keep(entry(200, bytes: 5 << 20))
        #expect(kept.find(entry(200, bytes: 5 << 20).bytes) == nil)
    }

    @Test func aStreamHandedOnInPiecesIsTheWholeStream() throws {
        for name in try fixtures(".z") {
            let stream = try bytes(name)
            let whole = try Inflate.zlib(stream, limit: 1 << 20)
            for chunk in [1, 1000, 70_000] {
                var pieces: [UInt8] = []
                let total = try Inflate.zlib(stream, limit: 1 << 20, chunk: chunk) { piece in
                    pieces += piece
                    return true
                }
                #expect(pieces == whole && total == whole.count, "\(name) in pieces of \(chunk)")
            }
        }
        let text = try bytes("zlib-text-l9.z")
        let size = try bytes("zlib-text.raw").count
        // Past the limit, whether the output is streamed through a window or fits one buffer.
        for chunk in [1, 1 << 20] {
            #expect(throws: Inflate.Failure.tooLarge(size - 1)) {
                try Inflate.zlib(text, limit: size - 1, chunk: chunk) { _ in true }
            }
            var pieces: [UInt8] = []
            #expect(
                try Inflate.zlib(text, limit: size, chunk: chunk) {
                    pieces += $0
                    return true
                } == size)
            #expect(pieces == (try bytes("zlib-text.raw")))
        }
        #expect(throws: Inflate.Failure.stopped) { try Inflate.zlib(text, limit: size, chunk: 1) { _ in false } }
        var generator = SeededRandom(seed: 1951)
        for name in ["zlib-random-l6.z", "zlib-runs-rle.z", "zlib-text-fixed.z"] {
            let stream = try bytes(name)
            for _ in 0..<300 {
                var damaged = stream
                damaged[Int(generator.next() % UInt64(damaged.count))] ^= UInt8(1 << (generator.next() % 8))
                let whole = try? Inflate.zlib(damaged, limit: 1 << 16)
                var pieces: [UInt8] = []
                let streamed = try? Inflate.zlib(damaged, limit: 1 << 16, chunk: 1) { piece in
                    pieces += piece
                    return true
                }
                #expect((whole == nil) == (streamed == nil) && (whole.map { $0 == pieces } ?? true))
            }
        }
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

    /// A PNG of `raw` rows (filter bytes included), chunks and checksums right.
    static func png(width: Int, height: Int, colour: UInt8, raw: [UInt8], palette: [UInt8] = []) -> [UInt8] {
        func chunk(_ kind: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(kind.utf8) + body
            let length = UInt32(body.count)
            let crc = Checksum.crc32(typed)
            return [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: length >> $0) } + typed
                + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: crc >> $0) }
        }
        let size = [width, height].flatMap { side in [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: side >> $0) } }
        return PNGDecoder.signature + chunk("IHDR", size + [8, colour, 0, 0, 0])
            + (palette.isEmpty ? [] : chunk("PLTE", palette)) + chunk("IDAT", Deflate.zlib(raw)) + chunk("IEND", [])
    }

    /// A picture large enough to be reduced on a second thread (`RowHandoff`) gives, byte for
    /// byte, what reducing its whole decoded picture gives (every row filter, with and without
    /// alpha); one whose image data stops part way fails as the one-thread path fails, and ends;
    /// the ring of rows between the threads is bounded in bytes, however wide the picture.
    @Test func aLargePNGReducedOnTwoThreadsIsTheSameAverage() throws {
        let (width, height) = (2_048, RowHandoff.fewestPixels / 2_048 + 3)
        var seed: UInt32 = 11
        for (colour, step) in [(UInt8(2), 3), (6, 4)] {
            var raw: [UInt8] = []
            raw.reserveCapacity(height * (1 + width * step))
            for y in 0..<height {
                raw.append(UInt8(y % 5))
                for x in 0..<(width * step) {
                    seed = seed &* 1_664_525 &+ 1_013_904_223
                    raw.append(UInt8(truncatingIfNeeded: (x / 7 + y / 5) ^ Int(seed >> 29)))
                }
            }
            let png = Self.png(width: width, height: height, colour: colour, raw: raw)
            let whole = try PNGDecoder.decode(png)
            let reduced = try PNGDecoder.decode(png, fittingIn: 700)
            #expect((reduced.width, reduced.height) == (700, height * 700 / width))
            #expect(reduced == whole.areaScaled(toWidth: 700, height: height * 700 / width), "colour \(colour)")
            let cut = Self.png(width: width, height: height, colour: colour, raw: Array(raw.prefix(raw.count / 2)))
            #expect(throws: PNGDecoder.Failure.self) { try PNGDecoder.decode(cut, fittingIn: 700) }
        }
        // The ring is bounded in bytes: a picture's rows of 8 MB get two buffers, a usual one 32.
        for (rowBytes, slots) in [(8 << 20, 2), (2_048 * 4, 32), (1 << 20, 4)] {
            let handoff = RowHandoff(rowBytes: rowBytes) { _ in }
            #expect(handoff.slots == slots, "\(rowBytes) bytes a row")
            handoff.finish()
        }
    }

    /// `check` (what an `image=` file must pass) refuses exactly what `decode` refuses, though it
    /// makes no pixels: a row filter past 4, a palette index past the palette, any damage.
    @Test func checkingRefusesWhatDecodingRefuses() throws {
        func agree(_ data: [UInt8]) -> Bool {
            ((try? PNGDecoder.check(data)) != nil) == ((try? PNGDecoder.decode(data)) != nil)
        }
        for name in try fixtures(".png") {
            #expect(throws: Never.self, "\(name)") { try PNGDecoder.check(try bytes(name)) }
        }
        let badFilter = Self.png(width: 2, height: 2, colour: 2, raw: [0, 1, 2, 3, 4, 5, 6, 5, 1, 2, 3, 4, 5, 6])
        #expect(throws: PNGDecoder.Failure.badData("row filter 5")) { try PNGDecoder.check(badFilter) }
        let pastPalette = Self.png(width: 2, height: 1, colour: 3, raw: [0, 0, 9], palette: [1, 2, 3, 4, 5, 6])
        #expect((try? PNGDecoder.check(pastPalette)) == nil && agree(pastPalette))
        let fine = Self.png(width: 2, height: 1, colour: 3, raw: [0, 0, 1], palette: [1, 2, 3, 4, 5, 6])
        #expect((try? PNGDecoder.check(fine)) != nil && agree(fine))
        var generator = SeededRandom(seed: 43)
        for name in ["png-c3-d4-17x9-i.png", "png-c6-d16-5x33.png", "png-c2-d8-17x9.png"] {
            let png = try bytes(name)
            for cut in stride(from: 0, to: png.count, by: 7) { #expect(agree(Array(png[..<cut]))) }
            for _ in 0..<500 {
                var damaged = png
                damaged[Int(generator.next() % UInt64(damaged.count))] = UInt8(truncatingIfNeeded: generator.next())
                #expect(agree(damaged))
            }
        }
    }

    /// A PNG made an upload's size as its rows arrive is the area average of the whole picture
    /// (within one a channel of `scaled`'s): every colour type, depth and interlace, and a
    /// picture with transparency reduced by uneven ratios; one within the size is decoded whole.
    @Test func aPNGFittedToASideIsTheAreaAverageOfItsRows() throws {
        func close(_ a: Bitmap, _ b: Bitmap) -> Bool {
            a.width == b.width && a.height == b.height
                && zip(a.pixels, b.pixels).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
        for name in try fixtures(".png") {
            let png = try bytes(name)
            let whole = try PNGDecoder.decode(png)
            let side = max(1, max(whole.width, whole.height) * 2 / 3)
            let longer = max(whole.width, whole.height)
            let expected =
                longer > side
                ? whole.scaled(
                    toWidth: max(1, whole.width * side / longer), height: max(1, whole.height * side / longer))
                : whole
            #expect(close(try PNGDecoder.decode(png, fittingIn: side), expected), "\(name)")
            #expect(try PNGDecoder.decode(png, fittingIn: longer) == whole, "\(name)")
        }
        var seed: UInt32 = 7
        var picture = Bitmap(width: 301, height: 127)
        for i in picture.pixels.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            picture.pixels[i] = i % 4 == 3 && i % 20 != 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        let png = PNGEncoder.encode(picture)
        for side in [200, 100, 37, 1] {
            let expected = picture.scaled(toWidth: max(1, 301 * side / 301), height: max(1, 127 * side / 301))
            #expect(close(try PNGDecoder.decode(png, fittingIn: side), expected), "within \(side)")
        }
    }
}
