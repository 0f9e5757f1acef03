import Foundation
import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// Issue 26, part 1: the JPEG decoder held to libjpeg-turbo's `djpeg`. Each `NAME.jpg` beside
/// `NAME.rgba` (width and height, big-endian, then djpeg's pixels) is written by
/// `Scripts/lib/make-jpeg-corpus.py`: the small committed set in `Tests/Fixtures/pictures/jpeg`,
/// and, in the test command, the full corpus (odd sizes such as 4001×3, 640×480) in the folder
/// `CLOSET_JPEG_CORPUS` names. Within 2 per channel, or at least 45 dB PSNR where the two
/// upsamplers round differently along a few edges.
@Suite struct JPEGDecoderTests {
    static let committed = PictureDecoderTests.folder + "/jpeg"

    struct Comparison {
        var worst = 0
        var psnr = Double.infinity
    }

    static func compare(_ bitmap: Bitmap, _ reference: [UInt8]) -> Comparison? {
        guard reference.count >= 8 else { return nil }
        let width = Int(reference[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let height = Int(reference[4..<8].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
        let expected = reference[8...]
        guard bitmap.width == width, bitmap.height == height, expected.count == bitmap.pixels.count else { return nil }
        var comparison = Comparison()
        var squares = 0.0
        for (a, b) in zip(bitmap.pixels, expected) {
            let difference = abs(Int(a) - Int(b))
            comparison.worst = max(comparison.worst, difference)
            squares += Double(difference * difference)
        }
        if squares > 0 { comparison.psnr = 10 * log10(255 * 255 / (squares / Double(expected.count))) }
        return comparison
    }

    /// Every picture in `folder` against its reference at `side` (8: full size; 4, 2, 1: as
    /// `djpeg -scale side/8` decodes it, where the corpus has that reference).
    static func check(folder: String, side: Int = 8) throws -> Int {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter {
            $0.hasSuffix(".jpg") && $0 != "arithmetic.jpg"
        }.sorted()
        var checked = 0
        for name in names {
            let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/" + name)))
            let suffix = side == 8 ? ".rgba" : ".side\(side).rgba"
            guard let reference = FileManager.default.contents(atPath: folder + "/" + name.dropLast(4) + suffix)
            else { continue }
            let bitmap: Bitmap
            do { bitmap = try JPEGDecoder.decode(data, blockSide: side) } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            let comparison = compare(bitmap, [UInt8](reference))
            #expect(comparison != nil, "\(name) at \(side)/8: size \(bitmap.width)×\(bitmap.height)")
            if let comparison {
                #expect(
                    comparison.worst <= 2 || comparison.psnr >= 45,
                    "\(name) at \(side)/8: off by \(comparison.worst), \(comparison.psnr) dB")
            }
            checked += 1
        }
        return checked
    }

    @Test func theCommittedPicturesDecodeAsDjpegDoes() throws {
        #expect(try Self.check(folder: Self.committed) == 73)
    }

    /// Issue 47: decoded at 1/2, 1/4 and 1/8 inside the transform, as `djpeg -scale` does.
    @Test(arguments: [4, 2, 1]) func reducedDecodingMatchesDjpegScale(side: Int) throws {
        #expect(try Self.check(folder: Self.committed, side: side) == 73)
        if let folder = ProcessInfo.processInfo.environment["CLOSET_JPEG_CORPUS"] {
            #expect(try Self.check(folder: folder, side: side) >= 138)
        }
    }

    /// The reduction asked for a drawn size: the smallest of 1/2, 1/4, 1/8 still at least that
    /// size, the orientation's turn counted; none when no size is known or it is drawn larger.
    @Test func theReductionCoversTheDrawnSize() {
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: nil) == 8)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (2000, 2000)) == 8)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (960, 2000)) == 4)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (961, 2000)) == 8)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (48, 64)) == 1)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (400, 64)) == 1)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (400, 5000)) == 2)
        // Turned a quarter: 1280 across as drawn.
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: true, box: (640, 5000)) == 4)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (640, 5000)) == 4)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: true, box: (320, 5000)) == 2)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (320, 5000)) == 2)
        #expect(JPEGDecoder.blockSide(width: 1920, height: 1280, turned: false, box: (240, 5000)) == 1)
    }

    /// A picture decoded for a drawn size is that reduction's decoding, and a thumbnail of a
    /// large picture never makes its full-size pixels.
    @Test func aPictureDrawnSmallIsDecodedReduced() throws {
        let data = try Self.fixture("jpeg-33x31-420-q90.jpg")
        let small = try JPEGDecoder.decode(data, drawnWithin: (4, 4))
        #expect((small.width, small.height) == (5, 4))
        #expect(small == (try JPEGDecoder.decode(data, blockSide: 1)))
        let half = try JPEGDecoder.decode(data, drawnWithin: (16, 100))
        #expect((half.width, half.height) == (17, 16))
    }

    /// The full corpus, when the test command made one.
    @Test func theGeneratedCorpusDecodesAsDjpegDoes() throws {
        guard let folder = ProcessInfo.processInfo.environment["CLOSET_JPEG_CORPUS"] else { return }
        #expect(try Self.check(folder: folder) >= 138)
    }

    @Test func arithmeticCodingIsRefusedInOneLine() throws {
        let data = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.committed + "/arithmetic.jpg")))
        #expect(throws: JPEGDecoder.Failure.unsupported("arithmetic coding")) { try JPEGDecoder.decode(data) }
    }
}

extension JPEGDecoderTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: committed + "/" + name)))
    }

    /// The frame header's marker and fields, patched to what closet does not read.
    static func patchedFrame(_ bytes: [UInt8], _ change: (inout [UInt8], Int) -> Void) -> [UInt8] {
        var bytes = bytes
        guard let at = (0..<(bytes.count - 1)).first(where: { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 }) else {
            return bytes
        }
        change(&bytes, at)
        return bytes
    }

    @Test func whatIsNotReadIsRefusedInOneLine() throws {
        let baseline = try Self.fixture("jpeg-16x16-420-q90.jpg")
        let cases: [(UInt8?, Int?, String)] = [
            (0xC3, nil, "lossless coding"), (0xC5, nil, "hierarchical coding"), (0xC9, nil, "arithmetic coding"),
            (nil, 12, "12-bit samples"),
        ]
        for (marker, precision, reason) in cases {
            let patched = Self.patchedFrame(baseline) { bytes, at in
                if let marker { bytes[at + 1] = marker }
                if let precision { bytes[at + 4] = UInt8(precision) }
            }
            #expect(throws: JPEGDecoder.Failure.unsupported(reason)) { try JPEGDecoder.decode(patched) }
            #expect(
                (try? PictureDecoder.decode(patched)) == nil
                    && JPEGDecoder.Failure.unsupported(reason).message == "a JPEG this build cannot read (\(reason))")
        }
    }

    @Test func aSizeOverTheLimitIsRefusedBeforeAnythingIsAllocated() throws {
        let baseline = try Self.fixture("jpeg-16x16-420-q90.jpg")
        let huge = Self.patchedFrame(baseline) { bytes, at in
            (bytes[at + 5], bytes[at + 6], bytes[at + 7], bytes[at + 8]) = (0xFF, 0xFF, 0xFF, 0xFF)
        }
        #expect(throws: JPEGDecoder.Failure.tooLarge(width: 65535, height: 65535)) { try JPEGDecoder.decode(huge) }
    }

    /// Every prefix of a picture, and every byte of it flipped: an error or a picture, never a
    /// trap (the fuzzer goes further; this runs in every test command).
    @Test func damagedPicturesFailOrDecodeButNeverTrap() throws {
        for name in ["jpeg-17x9-420-q90-progressive.jpg", "jpeg-16x16-420-q50-restart1.jpg", "jpeg-8x8-gray-q85.jpg"] {
            let bytes = try Self.fixture(name)
            for length in 0..<bytes.count {
                if let bitmap = try? JPEGDecoder.decode(Array(bytes[0..<length])) {
                    #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
                }
            }
            for at in bytes.indices {
                var damaged = bytes
                damaged[at] ^= 0x5A
                // At full size and reduced (where only the DC is kept, or a block is sparse).
                for side in [8, 2, 1] {
                    if let bitmap = try? JPEGDecoder.decode(damaged, blockSide: side) {
                        #expect(bitmap.pixels.count == bitmap.width * bitmap.height * 4)
                    }
                }
            }
        }
        #expect(throws: JPEGDecoder.Failure.notJPEG) { try JPEGDecoder.decode([0x89, 0x50]) }
        #expect(throws: JPEGDecoder.Failure.truncated) { try JPEGDecoder.decode([0xFF, 0xD8, 0xFF, 0xDB]) }
    }

    /// The orientation tag turns the picture as a camera meant (the corpus's references are
    /// djpeg's pixels turned likewise), and a picture of every orientation has the right size.
    /// The bit reader takes eight bytes at once when none is `FF`, else a byte at a time, and
    /// counts the zeros it adds at a marker or the data's end: its bits are the data's with
    /// stuffing (`FF 00`) undone, then zeros; it says the data is spent (`exhausted`) only once
    /// every real bit is read and the marker reached. Held to a reader a bit at a time over
    /// random data, reads of 1 to 16 bits.
    @Test func theBitReaderReadsTheDataAsABitAtATime() {
        var seed: UInt32 = 3
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Int(seed >> 8) % bound
        }
        for round in 0..<300 {
            // Bytes, some FF (stuffed), ending in a marker, or (every third) at the data's end.
            var data: [UInt8] = []
            for _ in 0..<next(40) {
                if next(6) == 0 { data += [0xFF, 0x00] } else { data.append(UInt8(next(255))) }
            }
            if round % 3 != 0 { data += [0xFF, UInt8(0xD0 + next(10))] }
            var real: [Int] = []
            var at = 0
            while at < data.count {
                // A stuffed FF is FF; an FF before anything else is the marker.
                if data[at] == 0xFF, !(at + 1 < data.count && data[at + 1] == 0) { break }
                for shift in stride(from: 7, through: 0, by: -1) { real.append(Int(data[at] >> UInt8(shift)) & 1) }
                at += data[at] == 0xFF ? 2 : 1
            }
            var reader = JPEGDecoder.BitReader(data: data, position: 0)
            var consumed = 0
            while consumed <= real.count + 24 {
                #expect(!reader.exhausted || consumed >= real.count, "round \(round) at bit \(consumed)")
                let n = 1 + next(16)
                var expected = 0
                for bit in consumed..<(consumed + n) { expected = expected << 1 | (bit < real.count ? real[bit] : 0) }
                if next(4) == 0 {
                    reader.skip(n)
                } else {
                    #expect(reader.bits(n) == expected, "round \(round) at bit \(consumed)")
                }
                consumed += n
            }
            #expect(reader.exhausted, "round \(round)")
        }
    }

    /// A block at 1/8 passes its AC codes several at a time (`HuffmanTable.SkipEntry`); held to
    /// reading them one symbol at a time over random data, block after block: the same bits
    /// taken, and an error exactly where one is. The tables: the two of T.81 Annex K and one
    /// where `EOB`, `ZRL` and short values have 2-bit codes, so runs of `ZRL` reach the block's
    /// end inside one look.
    @Test func skippingACCodesSeveralAtOnceReadsAsOneAtATime() throws {
        let tight: (counts: [Int], symbols: [UInt8]) = (
            [0, 3, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 16],
            [0x01, 0x00, 0xF0, 0x11, 0xE1, 0x0A] + (0..<16).map { UInt8(0x21 + $0 * 3 % 0xC0) }
        )
        let tables = [
            (JPEGEncoder.acLuminance.counts, JPEGEncoder.acLuminance.values),
            (JPEGEncoder.acChrominance.counts, JPEGEncoder.acChrominance.values), tight,
        ]
        var seed: UInt32 = 11
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Int(seed >> 8) % bound
        }
        var blocks = 0
        var errors = 0
        for (index, (counts, symbols)) in tables.enumerated() {
            let table = try #require(JPEGDecoder.HuffmanTable(counts: counts, symbols: symbols, forAC: true))
            for round in 0..<200 {
                // Mostly zero bits (short codes, long runs) in some rounds, random in others.
                let data = (0..<300).map { _ in UInt8(round % 2 == 0 ? next(255) : next(4) == 0 ? next(255) : 0) }
                var fast = JPEGDecoder.BitReader(data: data, position: 0)
                var slow = fast
                for block in 0..<40 {
                    let fastError = Result { () throws(JPEGDecoder.Failure) in
                        try JPEGDecoder.Parser.skipAC(&fast, table.lookup)
                    }
                    let slowError = Result { () throws(JPEGDecoder.Failure) in
                        try JPEGDecoder.Parser.walkAC(&slow, table.lookup) { reader, _, size in reader.skip(size) }
                    }
                    let place = "table \(index), round \(round), block \(block)"
                    switch (fastError, slowError) {
                    case (.success, .success): blocks += 1
                    case (.failure(let a), .failure(let b)):
                        #expect(a == b, "\(place)")
                        errors += 1
                    default: Issue.record("\(place): \(fastError) against \(slowError)")
                    }
                    // An error ends the scan: where it left the reader does not matter.
                    if case .failure = slowError { break }
                    // The bits taken (the data has no `FF`: a byte is 8 bits) and the next 16.
                    func taken(_ reader: JPEGDecoder.BitReader) -> Int {
                        reader.position * 8 + reader.padding - reader.count
                    }
                    #expect(taken(fast) == taken(slow), "\(place)")
                    #expect(fast.bits(16) == slow.bits(16), "\(place)")
                }
            }
        }
        // Both outcomes were met often enough to mean something.
        #expect(blocks > 5_000)
        #expect(errors > 50)
    }

    @Test func theEXIFOrientationIsApplied() throws {
        for value in 1...8 {
            let bytes = try Self.fixture("jpeg-orientation-\(value).jpg")
            let bitmap = try JPEGDecoder.decode(bytes)
            #expect(value >= 5 ? (bitmap.width, bitmap.height) == (7, 13) : (bitmap.width, bitmap.height) == (13, 7))
            // The stored size is the size it is seen at, as the header reader gives it.
            let info = try ImageHeader.inspect(bytes)
            #expect((info.width, info.height) == (bitmap.width, bitmap.height), "orientation \(value)")
        }
        // A 2×1 bitmap turned each way: the pixel that was on the left lands where the tag says.
        let two = Bitmap(width: 2, height: 1, pixels: [1, 1, 1, 255, 2, 2, 2, 255])
        #expect(two.oriented(2).pixels == [2, 2, 2, 255, 1, 1, 1, 255])
        #expect(two.oriented(6).width == 1 && two.oriented(6).pixels == [1, 1, 1, 255, 2, 2, 2, 255])
        #expect(two.oriented(8).pixels == [2, 2, 2, 255, 1, 1, 1, 255])
        #expect(two.oriented(1) == two && two.oriented(9) == two)
    }
}
