import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// Issue 26, parts 2 and 3 in part: scaling by area averaging and half-block output, as pure
/// functions of a bitmap (the prompt's rendering builds on them).
@Suite struct PictureRenderingTests {
    func bitmap(_ width: Int, _ height: Int, _ pixels: [[UInt8]]) -> Bitmap {
        Bitmap(width: width, height: height, pixels: pixels.flatMap { $0 })
    }

    @Test func areaAveragingWeighsWhatEachPixelCovers() {
        let red: [UInt8] = [255, 0, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        // 2×2 to 1×1: the mean of all four.
        let checker = bitmap(2, 2, [red, blue, blue, red])
        #expect(checker.scaled(toWidth: 1, height: 1).pixels == [128, 0, 128, 255])
        // 3 to 2 columns: the middle pixel is split half and half.
        let row = bitmap(3, 1, [red, blue, red])
        let two = row.scaled(toWidth: 2, height: 1)
        // Left covers red 1 and blue 0.5 of 1.5: red 170, blue 85.
        #expect(two.pixels == [170, 0, 85, 255, 170, 0, 85, 255], "\(two.pixels)")
        // Uniform stays uniform; up-scaling repeats; the same size is the same bitmap.
        let uniform = bitmap(5, 3, Array(repeating: [10, 20, 30, 255], count: 15))
        #expect(
            uniform.scaled(toWidth: 2, height: 2).pixels
                == Array(repeating: [10, 20, 30, 255], count: 4).flatMap { $0 })
        #expect(
            bitmap(1, 1, [red]).scaled(toWidth: 2, height: 2).pixels == Array(repeating: red, count: 4).flatMap { $0 })
        #expect(checker.scaled(toWidth: 2, height: 2) == checker)
        // A transparent pixel's colour does not bleed: premultiplied averaging.
        let half = bitmap(2, 1, [[255, 255, 255, 255], [0, 0, 0, 0]]).scaled(toWidth: 1, height: 1)
        #expect(half.pixels == [255, 255, 255, 128])
    }

    /// The reducer's four-lane rounding is `Bitmap.channel`'s, value for value: every quarter and
    /// near-half step across the range and past both ends, and the floats either side of each half.
    @Test func fourLanesRoundAsOneChannelDoes() {
        var values: [Float] = [-1e30, -300, -0.75, -0.5, -0.0, 0, 1e-30, 254.5, 255, 255.49, 256, 1e30, .infinity]
        for step in -40...1100 {
            let value = Float(step) / 4
            values += [value, value.nextUp, value.nextDown, value + 0.5, (value + 0.5).nextDown]
        }
        for start in stride(from: 0, to: values.count, by: 4) {
            let lanes = (0..<4).map { values[min(start + $0, values.count - 1)] }
            let rounded = AreaReducer.channels(SIMD4(lanes))
            for lane in 0..<4 {
                #expect(rounded[lane] == Bitmap.channel(lanes[lane]), "\(lanes[lane])")
            }
        }
    }

    /// The upload's scaler, a pass at a time in Float, is the same area average: every channel
    /// within one of `scaled`'s over noise with alpha, reduced and enlarged by uneven ratios; the
    /// hand-made cases above exactly.
    @Test func areaScalingAPassAtATimeIsTheSameAverage() {
        var seed: UInt32 = 47
        var noise = Bitmap(width: 97, height: 61)
        for i in noise.pixels.indices {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            noise.pixels[i] = i % 4 == 3 && i % 12 != 3 ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
        }
        for (width, height) in [(64, 40), (33, 61), (97, 20), (1, 1), (150, 90), (13, 77)] {
            let slow = noise.scaled(toWidth: width, height: height).pixels
            let fast = noise.areaScaled(toWidth: width, height: height).pixels
            #expect(zip(slow, fast).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "\(width)×\(height)")
        }
        // Wider than a picture summed a source column at a time: averaged across a row at a time,
        // the same average, opaque or not.
        let wide = AreaReducer.widestByColumn + 901
        for opaque in [false, true] {
            var strip = Bitmap(width: wide, height: 5)
            for i in strip.pixels.indices {
                seed = seed &* 1_664_525 &+ 1_013_904_223
                strip.pixels[i] = i % 4 == 3 && (opaque || i % 12 != 3) ? 255 : UInt8(truncatingIfNeeded: seed >> 24)
            }
            let slow = strip.scaled(toWidth: 37, height: 2).pixels
            let fast = strip.areaScaled(toWidth: 37, height: 2).pixels
            #expect(zip(slow, fast).allSatisfy { abs(Int($0) - Int($1)) <= 1 }, "opaque: \(opaque)")
        }
        let red: [UInt8] = [255, 0, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        #expect(
            bitmap(3, 1, [red, blue, red]).areaScaled(toWidth: 2, height: 1).pixels == [
                170, 0, 85, 255, 170, 0, 85, 255,
            ])
        #expect(
            bitmap(2, 1, [[255, 255, 255, 255], [0, 0, 0, 0]]).areaScaled(toWidth: 1, height: 1).pixels == [
                255, 255, 255, 128,
            ])
    }

    @Test func halfBlocksShowTwoPixelsACellInTrueColour() {
        let picture = bitmap(
            2, 3,
            [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 0], [9, 9, 9, 255], [1, 2, 3, 128]])
        let lines = HalfBlocks.render(picture, background: (255, 255, 255))
        #expect(lines.count == 2)
        #expect(
            lines[0]
                == "\u{1B}[38;2;255;0;0;48;2;0;0;255m▀\u{1B}[38;2;0;255;0;48;2;255;255;255m▀\u{1B}[0m")
        // The odd last row: its lower halves are the background; half-transparent is blended.
        #expect(
            lines[1]
                == "\u{1B}[38;2;9;9;9;48;2;255;255;255m▀\u{1B}[38;2;128;128;129;48;2;255;255;255m▀\u{1B}[0m",
            "\(lines[1].debugDescription)")
    }

    @Test func fittingKeepsTheAspectInCells() {
        // 400×600 into 80 columns × 24 rows: 48 pixels tall at most (two a row), so 32 wide.
        #expect(HalfBlocks.fit(width: 400, height: 600, columns: 80, rows: 24) == (32, 48))
        // Wide: the columns decide.
        #expect(HalfBlocks.fit(width: 1920, height: 1280, columns: 80, rows: 50) == (80, 53))
        // Never enlarged; never zero.
        #expect(HalfBlocks.fit(width: 10, height: 4, columns: 80, rows: 24) == (10, 4))
        #expect(HalfBlocks.fit(width: 4001, height: 3, columns: 80, rows: 24) == (80, 1))
    }
}
