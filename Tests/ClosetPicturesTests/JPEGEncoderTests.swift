import Foundation
import Testing

@testable import ClosetCore
@testable import ClosetPictures

/// Issue 26, part 6: the baseline JPEG encoder the market's uploads use, held to libjpeg-turbo's
/// `djpeg` decoding its output (the test command installs it) and to closet's own decoder.
@Suite struct JPEGEncoderTests {
    static func picture(_ width: Int, _ height: Int, alpha: Bool = false) -> Bitmap {
        var bitmap = Bitmap(width: width, height: height)
        var seed: UInt32 = 7
        for y in 0..<height {
            for x in 0..<width {
                seed = seed &* 1_103_515_245 &+ 12345
                let noise = Int(seed >> 24) / 32
                let at = (y * width + x) * 4
                bitmap.pixels[at] = UInt8(min(255, x * 240 / max(1, width - 1) + noise))
                bitmap.pixels[at + 1] = UInt8(y * 255 / max(1, height - 1))
                bitmap.pixels[at + 2] = (x / 8 + y / 8) % 2 == 0 ? 160 : 90
                bitmap.pixels[at + 3] = alpha && x < width / 2 ? 0 : 255
            }
        }
        return bitmap
    }

    static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        var squares = 0.0
        for (x, y) in zip(a, b) { squares += Double((Int(x) - Int(y)) * (Int(x) - Int(y))) }
        return squares == 0 ? .infinity : 10 * log10(255 * 255 / (squares / Double(a.count)))
    }

    @Test func theStandardTablesCodeEverySymbolABaselineScanUses() {
        // The lengths as the coder reads them (`code << 8 | length`).
        for table in [JPEGEncoder.acLuminance, JPEGEncoder.acChrominance] {
            #expect(table.values.count == 162 && Set(table.values).count == 162)
            let words = table.words
            for run in 0...15 {
                for size in 1...10 { #expect(words[run << 4 | size] & 0xFF > 0, "\(run) \(size)") }
            }
            #expect(words[0x00] & 0xFF > 0 && words[0xF0] & 0xFF > 0)
        }
        for table in [JPEGEncoder.dcLuminance, JPEGEncoder.dcChrominance] {
            #expect((0...11).allSatisfy { table.words[$0] & 0xFF > 0 })
        }
    }

    /// The coder finds runs from a mask of the values that are not zero and sends bits four bytes
    /// at a time; its scan is the one a plain coder makes, a value and a bit at a time (T.81
    /// F.1.2), byte stuffing and runs past 16 included.
    @Test func theScanIsWhatAPlainCoderWrites() {
        var seed: UInt32 = 11
        func next(_ bound: Int) -> Int {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Int(seed >> 8) % bound
        }
        var writer = JPEGEncoder.BitWriter()
        var plain: [UInt8] = []
        var (bits, count) = (0, 0)
        func put(_ value: Int, _ length: Int) {
            for shift in stride(from: length - 1, through: 0, by: -1) {
                bits = bits << 1 | (value >> shift) & 1
                count += 1
                if count == 8 {
                    plain.append(UInt8(bits))
                    if bits == 0xFF { plain.append(0) }
                    (bits, count) = (0, 0)
                }
            }
        }
        var (prediction, plainPrediction) = (0, 0)
        let (dc, ac) = (JPEGEncoder.dcLuminance, JPEGEncoder.acLuminance)
        for block in 0..<400 {
            // Sparse blocks with long runs, dense ones, and the last value set or not.
            var values = (0..<64).map { _ in next(block % 3 == 0 ? 3 : 40) == 0 ? next(2047) - 1023 : 0 }
            values[0] = next(4000) - 2000
            if block % 5 == 0 { values[63] = next(9) - 4 }
            var nonzero: UInt64 = 0
            for k in 1..<64 where values[k] != 0 { nonzero |= 1 << UInt64(k) }
            values.withUnsafeMutableBufferPointer { quantized in
                guard let base = quantized.baseAddress else { return }
                JPEGEncoder.code(base, nonzero: nonzero, &prediction, dc.words, ac.words, &writer)
            }
            let difference = min(max(values[0] - plainPrediction, -2047), 2047)
            plainPrediction += difference
            let size = JPEGEncoder.bitLength(difference)
            put(dc.codes[size], dc.lengths[size])
            put(JPEGEncoder.amplitude(difference, size), size)
            var run = 0
            for k in 1..<64 {
                guard values[k] != 0 else {
                    run += 1
                    continue
                }
                while run > 15 {
                    put(ac.codes[0xF0], ac.lengths[0xF0])
                    run -= 16
                }
                let size = JPEGEncoder.bitLength(values[k])
                put(ac.codes[run << 4 | size], ac.lengths[run << 4 | size])
                put(JPEGEncoder.amplitude(values[k], size), size)
                run = 0
            }
            if run > 0 { put(ac.codes[0], ac.lengths[0]) }
        }
        if count > 0 { put((1 << (8 - count)) - 1, 8 - count) }
        writer.flush()
        #expect(writer.bytes == plain)
        #expect(plain.count > 10_000 && plain.contains(0xFF))
    }

    /// The vector quantizer rounds as the scalar `rounded` does (halves away from zero), exact
    /// halves, values a hair either side of them, and values past the AC range included.
    @Test func quantizingEightLanesAtATimeRoundsAsOneAtATime() {
        var seed: UInt32 = 5
        func next() -> Float {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return Float(Int(seed >> 8) % 6000 - 3000) / 2
        }
        var block = [Float](repeating: 0, count: 64)
        var divisors = [Float](repeating: 1, count: 64)
        var quantized = [Int32](repeating: 0, count: 64)
        for round in 0..<2000 {
            for k in 0..<64 {
                // Halves (k + 0.5), the floats beside them, fractions, and a divisor of 1 or 1/q.
                let half = next()
                block[k] = round % 3 == 0 ? half : round % 3 == 1 ? half.nextUp : half.nextDown
                divisors[k] = round % 4 == 0 ? 1 : 1 / Float(1 + k % 7 + round % 13)
            }
            block.withUnsafeBufferPointer { block in
                divisors.withUnsafeBufferPointer { divisors in
                    quantized.withUnsafeMutableBufferPointer { quantized in
                        guard let b = block.baseAddress, let d = divisors.baseAddress, let q = quantized.baseAddress
                        else { return }
                        JPEGEncoder.ScanCoder.quantize(b, d, into: q)
                    }
                }
            }
            for k in 0..<64 {
                let expected = min(max(JPEGEncoder.ScanCoder.rounded(block[k] * divisors[k]), -1023), 1023)
                #expect(Int(quantized[k]) == expected, "\(block[k]) / \(1 / divisors[k])")
            }
        }
    }

    @Test func closetReadsBackWhatItWrites() throws {
        for (width, height) in [(1, 1), (17, 9), (33, 31), (64, 48)] {
            let source = Self.picture(width, height)
            let encoded = JPEGEncoder.encode(source, quality: 90)
            let decoded = try JPEGDecoder.decode(encoded)
            #expect(decoded.width == width && decoded.height == height)
            // A sanity floor; the djpeg test holds the quality to cjpeg's.
            #expect(Self.psnr(decoded.pixels, source.pixels) > 28, "\(width)×\(height)")
        }
        // Transparent pixels become white.
        let decoded = try JPEGDecoder.decode(JPEGEncoder.encode(Self.picture(16, 16, alpha: true), quality: 95))
        #expect(decoded.pixels[0...2].allSatisfy { $0 >= 250 })
    }

    /// djpeg decodes the encoder's files as closet's decoder does (within the decoder's own
    /// tolerance against djpeg).
    static func run(_ tool: String, _ arguments: [String], input: [UInt8]? = nil) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        let feed = Pipe()
        if input != nil { process.standardInput = feed }
        try process.run()
        if let input {
            feed.fileHandleForWriting.write(Data(input))
            try feed.fileHandleForWriting.close()
        }
        let bytes = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(tool) \(arguments)")
        return bytes
    }

    /// The RGB after a PPM's three header lines.
    static func pixels(ofPPM ppm: [UInt8]) -> [UInt8] {
        var newlines = 0
        var start = 0
        while newlines < 3, start < ppm.count {
            if ppm[start] == 10 { newlines += 1 }
            start += 1
        }
        return Array(ppm[start...])
    }

    static func rgb(_ bitmap: Bitmap) -> [UInt8] {
        var rgb: [UInt8] = []
        for i in 0..<(bitmap.width * bitmap.height) { rgb += bitmap.pixels[(4 * i)..<(4 * i + 3)] }
        return rgb
    }

    @Test func djpegReadsWhatItWritesAsClosetDoes() throws {
        guard let djpeg = ["/usr/bin/djpeg", "/usr/local/bin/djpeg"].first(where: FileManager.default.isExecutableFile)
        else {
            // The test command installs djpeg; only a bare `swift test` may lack it.
            #expect(ProcessInfo.processInfo.environment["CLOSET_JPEG_CORPUS"] == nil, "djpeg is missing")
            return
        }
        let folder = NSTemporaryDirectory() + "closet-encoder-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (width, height, quality) in [(1, 1, 90), (17, 9, 50), (33, 31, 90), (200, 150, 75), (16, 16, 100)] {
            let encoded = JPEGEncoder.encode(Self.picture(width, height), quality: quality)
            let path = folder + "/\(width)x\(height).jpg"
            try Data(encoded).write(to: URL(fileURLWithPath: path))
            let reference = Self.pixels(ofPPM: try Self.run(djpeg, ["-ppm", path]))
            let rgb = Self.rgb(try JPEGDecoder.decode(encoded))
            #expect(reference.count == rgb.count)
            let worst = zip(reference, rgb).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 2 || Self.psnr(reference, rgb) >= 45, "\(width)×\(height) q\(quality): off by \(worst)")
            // As faithful as cjpeg at the same quality (4:2:0 too), within a decibel and a half.
            let source = Self.rgb(Self.picture(width, height))
            let ppmPath = folder + "/\(width)x\(height).ppm"
            try Data(Array("P6\n\(width) \(height)\n255\n".utf8) + source).write(to: URL(fileURLWithPath: ppmPath))
            let cjpeg = URL(fileURLWithPath: djpeg).deletingLastPathComponent().path + "/cjpeg"
            let theirs = try Self.run(cjpeg, ["-quality", String(quality), "-sample", "2x2", ppmPath])
            let theirPixels = Self.pixels(ofPPM: try Self.run(djpeg, ["-ppm", "/dev/stdin"], input: theirs))
            #expect(
                Self.psnr(reference, source) >= Self.psnr(theirPixels, source) - 1.5,
                "\(width)×\(height) q\(quality): \(Self.psnr(reference, source)) dB against cjpeg's \(Self.psnr(theirPixels, source))"
            )
        }
    }

    /// A picture large enough for its strips to be transformed on a second thread
    /// (`StripTransforms`) gets the file trying each quality from 90 down, then each smaller
    /// size, gives, byte for byte: a target met at the first size, and one met only smaller (the
    /// thread stopped part way through the larger).
    @Test func aLargePictureFittedOnTwoThreadsIsWhatTryingEachGives() {
        let large = Self.picture(1_024, StripTransforms.fewestPixelsAhead / 1_024 + 5)
        let at30 = JPEGEncoder.encode(large, quality: 30).count
        func oneByOne(_ target: Int) -> [UInt8]? {
            var picture = large
            while true {
                for quality in stride(from: 90, through: 30, by: -10) {
                    if let file = JPEGEncoder.encode(picture, quality: quality, limit: target), file.count <= target {
                        return file
                    }
                }
                guard picture.width > 16 else { return nil }
                picture = picture.areaScaled(toWidth: picture.width * 3 / 4, height: picture.height * 3 / 4)
            }
        }
        for target in [at30 * 3 / 2, at30 * 3 / 4] {
            let expected = oneByOne(target)
            #expect(expected != nil)
            #expect(JPEGEncoder.encode(large, fittingIn: target) == expected, "within \(target) bytes")
        }
    }

    @Test func aSizeTargetIsMetByLoweringQualityThenSize() throws {
        let large = Self.picture(600, 400)
        let fitted = JPEGEncoder.encode(large, fittingIn: 40_000)
        #expect(fitted.count <= 40_000)
        let decoded = try JPEGDecoder.decode(fitted)
        #expect(decoded.width <= 600 && decoded.width * 2 == decoded.height * 3 || decoded.width == 600)
        // A target the best quality meets is met at it.
        #expect(JPEGEncoder.encode(large, fittingIn: 10_000_000) == JPEGEncoder.encode(large, quality: 90))
    }
}
