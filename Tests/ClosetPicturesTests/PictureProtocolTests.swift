import Foundation
import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// Issue 26, part 2: each terminal protocol's bytes, pinned.
@Suite struct PictureProtocolTests {
    static func solid(_ width: Int, _ height: Int, _ colour: [UInt8]) -> Bitmap {
        Bitmap(
            width: width, height: height, pixels: Array([[UInt8]](repeating: colour, count: width * height).joined()))
    }

    /// Pixels no compression shrinks (noise), so kitty gets them raw.
    static func noise(_ width: Int, _ height: Int) -> Bitmap {
        var random = SplitMix64(seed: 26)
        return Bitmap(
            width: width, height: height,
            pixels: (0..<(width * height * 4)).map { _ in UInt8(truncatingIfNeeded: random.next()) })
    }

    @Test func kittySendsRawPixelsInChunksOf4096WithRepliesSuppressed() throws {
        let bitmap = Self.noise(40, 40)  // 6,400 bytes: 8,536 base64 characters
        let text = KittyGraphics.escape(bitmap, columns: 4, rows: 2)
        let parts = text.components(separatedBy: "\u{1B}\\").dropLast()
        #expect(parts.count == 3)
        #expect(parts[0].hasPrefix("\u{1B}_Ga=T,f=32,s=40,v=40,c=4,r=2,q=2,m=1;"))
        #expect(parts[1].hasPrefix("\u{1B}_Gm=1;") && parts[2].hasPrefix("\u{1B}_Gm=0;"))
        let payloads = parts.map { String($0[$0.index(after: $0.firstIndex(of: ";")!)...]) }
        #expect(payloads.map(\.count) == [4096, 4096, 344])
        #expect(Data(base64Encoded: payloads.joined()).map([UInt8].init) == bitmap.pixels)
        // One chunk alone says it is the last.
        #expect(
            KittyGraphics.escape(Self.solid(1, 1, [9, 9, 9, 255]), columns: 1, rows: 1)
                == "\u{1B}_Ga=T,f=32,s=1,v=1,c=1,r=1,q=2,m=0;CQkJ/w==\u{1B}\\")
    }

    @Test func kittyGetsPixelsThatCompressAsAPNGFile() throws {
        let bitmap = Self.solid(40, 40, [1, 2, 3, 255])
        let text = KittyGraphics.escape(bitmap, columns: 4, rows: 2)
        let parts = text.components(separatedBy: "\u{1B}\\").dropLast()
        #expect(parts.count == 1)
        #expect(parts[0].hasPrefix("\u{1B}_Ga=T,f=100,s=40,v=40,c=4,r=2,q=2,m=0;"))
        let payload = try #require(Data(base64Encoded: String(parts[0].split(separator: ";")[1])))
        #expect(payload.count < 200)  // of 6,400 bytes of pixels
        #expect(try PNGDecoder.decode([UInt8](payload)) == bitmap)
    }

    @Test func iTermGetsAPNGFileInOSC1337() throws {
        let bitmap = Self.solid(3, 2, [200, 100, 50, 255])
        let text = InlineImages.escape(bitmap, columns: 3, rows: 1)
        let file = PNGEncoder.encode(bitmap)
        let header = "\u{1B}]1337;File=inline=1;size=\(file.count);width=3;height=1;preserveAspectRatio=1:"
        #expect(text.hasPrefix(header) && text.hasSuffix("\u{07}"))
        let payload = String(text.dropFirst(header.count).dropLast())
        let decoded = try #require(Data(base64Encoded: payload))
        // The encoder's PNG reads back through the decoder (and Pillow reads it too: see docs).
        #expect(try PNGDecoder.decode([UInt8](decoded)) == bitmap)
    }

    @Test func sixelWritesBandsOfSixRowsPerColour() {
        // One column of seven red pixels: a full band (all six bits, `~`) and a band of one (`@`).
        #expect(
            Sixel.escape(Self.solid(1, 7, [255, 0, 0, 255])) == "\u{1B}P0;1;0q\"1;1;1;7#0;2;100;0;0#0~-#0@-\u{1B}\\")
        // Runs of four or more are compressed.
        #expect(
            Sixel.escape(Self.solid(10, 6, [0, 0, 255, 255])) == "\u{1B}P0;1;0q\"1;1;10;6#0;2;0;0;100#0!10~-\u{1B}\\")
        // Two colours in one band: one pass each, `$` between them; transparent pixels are left out.
        var two = Self.solid(2, 1, [255, 255, 255, 255])
        two.pixels[4...7] = [0, 0, 0, 255]
        let text = Sixel.escape(two)
        #expect(text.contains("#0;2;0;0;0#1;2;100;100;100") && text.hasSuffix("#0?@$#1@-\u{1B}\\"), "\(text)")
        #expect(Sixel.escape(Self.solid(2, 2, [255, 0, 0, 0])) == "\u{1B}P0;1;0q\"1;1;2;2-\u{1B}\\")
    }

    @Test func sixelKeepsAtMost255ColoursAndDithersBetweenThem() {
        // A gradient of more colours than a palette holds: 255 in the palette, and the
        // dithering keeps a row's mean within a step of the original's.
        var bitmap = Bitmap(width: 256, height: 4)
        for y in 0..<4 {
            for x in 0..<256 {
                bitmap.pixels.replaceSubrange(
                    ((y * 256 + x) * 4)..<((y * 256 + x) * 4 + 4),
                    with: [UInt8(x), UInt8(y * 60), UInt8((x * 7) % 256), 255])
            }
        }
        let (palette, indices) = Sixel.quantize(bitmap)
        #expect(palette.count == 255 && indices.allSatisfy { $0 >= 0 && $0 < 255 })
        let meanRed = Double(indices.prefix(256).map { palette[Int($0)].0 }.reduce(0, +)) / 256
        #expect(abs(meanRed - 127.5) < 2, "\(meanRed)")
    }

    @Test func halfBlocksLeaveTransparentCellsToTheTerminalAndWriteColoursOnlyWhenTheyChange() {
        var bitmap = Self.solid(3, 2, [10, 20, 30, 255])
        bitmap.pixels[8...11] = [0, 0, 0, 0]  // top-right pixel transparent
        bitmap.pixels[20...23] = [0, 0, 0, 0]  // bottom-right too: the cell is the terminal's
        bitmap.pixels[0...3] = [0, 0, 0, 0]  // top-left: only the lower half is drawn
        #expect(
            HalfBlocks.render(bitmap) == [
                "\u{1B}[38;2;10;20;30;49m▄\u{1B}[38;2;10;20;30;48;2;10;20;30m▀\u{1B}[0m \u{1B}[0m"
            ])
        let uniform = HalfBlocks.render(Self.solid(3, 2, [1, 2, 3, 255]))
        #expect(uniform == ["\u{1B}[38;2;1;2;3;48;2;1;2;3m▀▀▀\u{1B}[0m"])
        // Only the lower half, then only the upper, in one colour: `▄` and `▀` name the same
        // colours, written once; a second line starts its colours again; one- to three-digit values.
        var halves = Self.solid(2, 4, [7, 45, 255, 255])
        halves.pixels[0...3] = [0, 0, 0, 0]
        halves.pixels[12...15] = [0, 0, 0, 0]
        #expect(
            HalfBlocks.render(halves) == [
                "\u{1B}[38;2;7;45;255;49m▄▀\u{1B}[0m", "\u{1B}[38;2;7;45;255;48;2;7;45;255m▀▀\u{1B}[0m",
            ])
    }

    /// Issue 43: on the terminal's own background (which closet cannot know), a pixel at least
    /// half opaque is its own colour, never darkened towards black (a dark rim on a light
    /// terminal); one less than half opaque is the terminal's. A given background is blended onto.
    @Test func halfBlocksNeverDrawSemiTransparentPixelsOnBlack() {
        var bitmap = Self.solid(1, 2, [200, 220, 240, 128])
        bitmap.pixels[4...7] = [200, 220, 240, 127]
        #expect(HalfBlocks.render(bitmap) == ["\u{1B}[38;2;200;220;240;49m▀\u{1B}[0m"])
        let white = HalfBlocks.render(bitmap, background: (255, 255, 255))
        #expect(white == ["\u{1B}[38;2;227;237;247;48;2;228;238;248m▀\u{1B}[0m"])
    }
}
