import ClosetCore

/// RGBA8 to a baseline JPEG (JFIF, 4:2:0, the standard tables of T.81 Annex K scaled by quality
/// as libjpeg scales them), for the market's uploads: the app sent every picture as a JPEG of about
/// 300 KB. Transparent pixels are flattened onto white, as a photo of a product on a page is.
public enum JPEGEncoder {
    public static func encode(_ bitmap: Bitmap, quality: Int = 90) -> [UInt8] {
        // With no limit there is always a file.
        encode(bitmap, quality: quality, limit: Int.max) ?? []
    }

    /// The file, or nil as soon as its coded data passes `limit` bytes (the rest is not coded).
    static func encode(_ bitmap: Bitmap, quality: Int, limit: Int) -> [UInt8]? {
        // A JPEG's sides are 16-bit; a picture is never empty.
        guard bitmap.width > 0, bitmap.height > 0 else {
            return encode(Bitmap(width: 1, height: 1, pixels: [255, 255, 255, 255]), quality: quality, limit: limit)
        }
        if bitmap.width > 65535 || bitmap.height > 65535 {
            let scale = 65535 / Double(max(bitmap.width, bitmap.height))
            return encode(
                bitmap.scaled(
                    toWidth: max(1, Int(Double(bitmap.width) * scale)),
                    height: max(1, Int(Double(bitmap.height) * scale))),
                quality: quality, limit: limit)
        }
        // One strip of blocks at a time: no coefficients of the whole picture.
        var blocks = JPEGBlocks(bitmap, keepsStrip: true)
        return file(width: bitmap.width, height: bitmap.height, quality: quality) { luminance, chrominance in
            var coder = ScanCoder(luminance, chrominance)
            for top in stride(from: 0, to: bitmap.height, by: 16) {
                blocks.transform(bitmap, stripAt: top)
                coder.code(blocks)
                if coder.writer.bytes.count > limit { return nil }
            }
            return coder.finished()
        }
    }

    /// The file's markers around the scan `data` makes (nil: none) with the quality's tables.
    static func file(width: Int, height: Int, quality: Int, _ data: ([Int], [Int]) -> [UInt8]?) -> [UInt8]? {
        let quality = min(max(quality, 1), 100)
        let luminance = scaled(Self.luminanceTable, quality)
        let chrominance = scaled(Self.chrominanceTable, quality)
        var out: [UInt8] = [0xFF, 0xD8]
        // JFIF 1.01, no density, no thumbnail.
        out += [0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0, 0]
        out += [0xFF, 0xDB, 0x00, 0x84, 0x00] + JPEGDecoder.zigzag.prefix(64).map { UInt8(luminance[$0]) }
        out += [0x01] + JPEGDecoder.zigzag.prefix(64).map { UInt8(chrominance[$0]) }
        out += [0xFF, 0xC0, 0x00, 0x11, 0x08, UInt8(height >> 8), UInt8(height & 0xFF)]
        out += [UInt8(width >> 8), UInt8(width & 0xFF)]
        out += [0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01]
        for (kind, table) in [(0x00, dcLuminance), (0x10, acLuminance), (0x01, dcChrominance), (0x11, acChrominance)] {
            let length = 2 + 1 + 16 + table.values.count
            out += [0xFF, 0xC4, UInt8(length >> 8), UInt8(length & 0xFF), UInt8(kind)]
            out += table.counts.map(UInt8.init) + table.values
        }
        out += [0xFF, 0xDA, 0x00, 0x0C, 0x03, 0x01, 0x00, 0x02, 0x11, 0x03, 0x11, 0x00, 0x3F, 0x00]
        guard let scan = data(luminance, chrominance) else { return nil }
        out += scan
        return out + [0xFF, 0xD9]
    }

    /// The largest quality (from 90 down by 10 to 30, then at three-quarter size again) whose
    /// file is at most `bytes`: how the app's `compress(target:)` met its upload size. A file
    /// only grows with quality, so a size is tried at its lowest quality first and the largest
    /// that fits is then found by halving (three encodings, not six); an encoding stops once it
    /// passes `bytes`. The picture's blocks are transformed once a size (a large picture's on a
    /// second thread, ahead of the coder: `StripTransforms`) and only quantized and coded again
    /// for each quality tried (the same bytes as `encode(_:quality:)` gives).
    public static func encode(_ bitmap: Bitmap, fittingIn bytes: Int) -> [UInt8] {
        var picture = bitmap
        while true {
            guard picture.width > 0, picture.height > 0, picture.width <= 65535, picture.height <= 65535 else {
                return encode(picture, quality: 30)
            }
            // Each strip transformed once, when first reached or ahead of the coder: a quality
            // that stops early leaves the rest for the next.
            let transforms = StripTransforms(picture)
            defer { transforms.stop() }
            func encoded(_ quality: Int) -> [UInt8]? {
                file(width: picture.width, height: picture.height, quality: quality) { luminance, chrominance in
                    var coder = ScanCoder(luminance, chrominance)
                    for strip in 0..<transforms.strips {
                        coder.code(transforms.strip(strip), mcusAcross: transforms.mcusAcross)
                        if coder.writer.bytes.count > bytes { return nil }
                    }
                    return coder.finished()
                }
            }
            if var best = encoded(30), best.count <= bytes {
                // Qualities 40...90 by 10: the largest that fits, between `low` (fits) and `high`.
                var (low, high) = (30, 100)
                while high - low > 10 {
                    let quality = (low + high) / 20 * 10
                    if let file = encoded(quality), file.count <= bytes {
                        (low, best) = (quality, file)
                    } else {
                        high = quality
                    }
                }
                return best
            }
            guard picture.width > 16, picture.height > 16 else { return encode(picture, quality: 30) }
            // No strip of this size is read again.
            transforms.stop()
            picture = picture.areaScaled(toWidth: picture.width * 3 / 4, height: picture.height * 3 / 4)
        }
    }

    static func scaled(_ base: [Int], _ quality: Int) -> [Int] {
        let scale = quality < 50 ? 5000 / quality : 200 - quality * 2
        return base.map { min(max(($0 * scale + 50) / 100, 1), 255) }
    }

    /// Quantizes and codes blocks in scan order, keeping the DC predictions and the bits.
    struct ScanCoder {
        var writer = BitWriter()
        var predictions = [0, 0, 0]
        /// Each quality's divisors as reciprocals, in the blocks' order.
        let luminanceDivisors: [Float]
        let chrominanceDivisors: [Float]

        init(_ luminance: [Int], _ chrominance: [Int]) {
            luminanceDivisors = luminance.map { 1 / Float($0) }
            chrominanceDivisors = chrominance.map { 1 / Float($0) }
        }

        /// The MCUs of the strip `blocks` holds: four luminance blocks, then Cb and Cr.
        mutating func code(_ blocks: JPEGBlocks) {
            blocks.strip.withUnsafeBufferPointer { strip in
                guard let base = strip.baseAddress else { return }
                code(base, mcusAcross: blocks.mcusAcross)
            }
        }

        /// A strip's MCUs from its coefficients (`JPEGBlocks`' layout).
        mutating func code(_ strip: UnsafePointer<Float>, mcusAcross: Int) {
            let tables = Tables.shared
            luminanceDivisors.withUnsafeBufferPointer { luminance in
                chrominanceDivisors.withUnsafeBufferPointer { chrominance in
                    tables.zigzag.withUnsafeBufferPointer { zigzag in
                        withUnsafeTemporaryAllocation(of: Int32.self, capacity: 64) { natural in
                            withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { quantized in
                                guard let quantized = quantized.baseAddress,
                                    let natural = natural.baseAddress, let luminance = luminance.baseAddress,
                                    let chrominance = chrominance.baseAddress, let zigzag = zigzag.baseAddress
                                else { return }
                                var block = strip
                                for _ in 0..<mcusAcross {
                                    for component in 0..<6 {
                                        let isLuminance = component < 4
                                        Self.quantize(block, isLuminance ? luminance : chrominance, into: natural)
                                        // In zigzag order, with bit k set when the k-th AC value is not zero.
                                        var nonzero: UInt64 = 0
                                        quantized[0] = Self.rounded(
                                            block[0] * (isLuminance ? luminance : chrominance)[0])
                                        for k in 1..<64 {
                                            let value = Int(natural[zigzag[k]])
                                            quantized[k] = value
                                            if value != 0 { nonzero |= 1 << UInt64(k) }
                                        }
                                        let which = isLuminance ? 0 : component - 3
                                        JPEGEncoder.code(
                                            quantized, nonzero: nonzero, &predictions[which],
                                            isLuminance ? tables.dcLuminance : tables.dcChrominance,
                                            isLuminance ? tables.acLuminance : tables.acChrominance, &writer)
                                        block += 64
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }

        /// A block's values divided and rounded as `rounded` rounds them (halves away from zero),
        /// eight lanes a step, each within what baseline coding holds for an AC value (10 bits;
        /// the DC value is rounded on its own, unclamped). Without a conversion instruction the
        /// library would call a lane at a time: a magnitude below 2²³ added to 2²³ is rounded to
        /// the nearest integer (ties to even) and left in the low bits of its pattern; a tie that
        /// went down (the rest is exactly one half) goes up.
        @inline(__always)
        static func quantize(
            _ block: UnsafePointer<Float>, _ divisors: UnsafePointer<Float>, into out: UnsafeMutablePointer<Int32>
        ) {
            let (values, reciprocals) = (UnsafeRawPointer(block), UnsafeRawPointer(divisors))
            let into = UnsafeMutableRawPointer(out)
            let shift = SIMD8<Float>(repeating: 8_388_608)
            let zero = SIMD8<Int32>(repeating: 0)
            for step in 0..<8 {
                let value =
                    values.loadUnaligned(fromByteOffset: step * 32, as: SIMD8<Float>.self)
                    * reciprocals.loadUnaligned(fromByteOffset: step * 32, as: SIMD8<Float>.self)
                let negative = value .< 0
                // Past 1023 is 1023 however it rounds: held there before rounding, in the float
                // lanes (a comparison of the integer lanes was made a lane at a time, through
                // memory: half the coder's time).
                var magnitude = value.replacing(with: -value, where: negative)
                magnitude.replace(with: 1023, where: magnitude .> 1023)
                let shifted = magnitude + shift
                let nearest = unsafeBitCast(shifted, to: SIMD8<Int32>.self) & 0x7F_FFFF
                let rounded = nearest &+ zero.replacing(with: 1, where: magnitude - (shifted - shift) .>= 0.5)
                into.storeBytes(
                    of: rounded.replacing(with: zero &- rounded, where: negative), toByteOffset: step * 32,
                    as: SIMD8<Int32>.self)
            }
        }

        /// `Int(value.rounded())` (halves away from zero) without the library call: the part
        /// past the truncated value is exact in a `Float` this small.
        @inline(__always)
        static func rounded(_ value: Float) -> Int {
            guard value.magnitude < 4_194_304 else { return Int(value.rounded()) }
            let whole = Int(value)
            let rest = value - Float(whole)
            return rest >= 0.5 ? whole + 1 : rest <= -0.5 ? whole - 1 : whole
        }

        mutating func finished() -> [UInt8] {
            writer.flush()
            return writer.bytes
        }
    }

    /// The zigzag order and the four Huffman codes, each symbol's code and length in one word
    /// (`code << 8 | length`), read by the coder a block at a time.
    final class Tables: Sendable {
        static let shared = Tables()
        let zigzag = Array(JPEGDecoder.zigzag.prefix(64))
        let dcLuminance = JPEGEncoder.dcLuminance.words
        let dcChrominance = JPEGEncoder.dcChrominance.words
        let acLuminance = JPEGEncoder.acLuminance.words
        let acChrominance = JPEGEncoder.acChrominance.words
    }

    /// A quantized block in zigzag order: its DC difference and AC runs, coded. `nonzero` has bit
    /// k set when AC value k is not zero: the runs are found from it, not a value at a time.
    static func code(
        _ quantized: UnsafeMutablePointer<Int>, nonzero: UInt64, _ prediction: inout Int, _ dc: [UInt32],
        _ ac: [UInt32], _ writer: inout BitWriter
    ) {
        dc.withUnsafeBufferPointer { dc in
            ac.withUnsafeBufferPointer { ac in
                // DC differences of 11 bits.
                let difference = min(max(quantized[0] - prediction, -2047), 2047)
                prediction += difference
                let size = bitLength(difference)
                writer.write(dc[size])
                writer.write(amplitude(difference, size), size)
                var (left, last) = (nonzero, 0)
                while left != 0 {
                    let k = left.trailingZeroBitCount
                    left &= left &- 1
                    var run = k - last - 1
                    last = k
                    while run > 15 {
                        writer.write(ac[0xF0])
                        run -= 16
                    }
                    let value = quantized[k]
                    let size = bitLength(value)
                    writer.write(ac[run << 4 | size])
                    writer.write(amplitude(value, size), size)
                }
                // The end of the block, unless its last value is not zero.
                if last < 63 { writer.write(ac[0x00]) }
            }
        }
    }

    static func bitLength(_ value: Int) -> Int {
        let magnitude = value.magnitude
        return magnitude == 0 ? 0 : UInt.bitWidth - magnitude.leadingZeroBitCount
    }

    /// The bits a value of `size` bits is written as: itself, or one less when negative.
    static func amplitude(_ value: Int, _ size: Int) -> Int { value < 0 ? (value - 1) & ((1 << size) - 1) : value }

    /// The scan's bits, most significant first, a `FF` byte followed by a stuffed `00`. Bits
    /// gather in a 64-bit word and go out four bytes at a time, so `bytes` may lag the bits
    /// written by up to four bytes until `flush`.
    struct BitWriter {
        var bytes: [UInt8] = []
        var buffer: UInt64 = 0
        var count = 0

        /// A Huffman code's word (`code << 8 | length`).
        @inline(__always)
        mutating func write(_ word: UInt32) { write(Int(word >> 8), Int(word & 0xFF)) }

        /// `length` (at most 16) low bits of `bits`.
        @inline(__always)
        mutating func write(_ bits: Int, _ length: Int) {
            guard length > 0 else { return }
            buffer = buffer << UInt64(length) | UInt64(truncatingIfNeeded: bits) & ((1 << UInt64(length)) - 1)
            count += length
            if count >= 32 { emit(4) }
        }

        /// Sends `whole` bytes from the top of the buffer's `count` bits.
        mutating func emit(_ whole: Int) {
            for _ in 0..<whole {
                let byte = UInt8(truncatingIfNeeded: buffer >> UInt64(count - 8))
                bytes.append(byte)
                if byte == 0xFF { bytes.append(0) }
                count -= 8
            }
            buffer &= (1 << UInt64(count)) &- 1
        }

        /// The last byte padded with one bits.
        mutating func flush() {
            if count % 8 > 0 { write((1 << (8 - count % 8)) - 1, 8 - count % 8) }
            emit(count / 8)
        }
    }

    /// A Huffman table as a file gives it (counts per length, symbols) and the codes made
    /// from it (Annex C).
    struct HuffmanCode {
        var counts: [Int]
        var values: [UInt8]
        var codes = [Int](repeating: 0, count: 256)
        var lengths = [Int](repeating: 0, count: 256)

        init(_ counts: [Int], _ values: [UInt8]) {
            self.counts = counts
            self.values = values
            var code = 0
            var index = 0
            for length in 1...16 {
                for _ in 0..<counts[length - 1] {
                    codes[Int(values[index])] = code
                    lengths[Int(values[index])] = length
                    code += 1
                    index += 1
                }
                code <<= 1
            }
        }

        /// Each symbol's code and length as the coder reads them: `code << 8 | length`.
        var words: [UInt32] { zip(codes, lengths).map { UInt32($0 << 8 | $1) } }
    }

    // MARK: T.81 Annex K

    static let luminanceTable = [
        16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29,
        51, 87, 80, 62, 18, 22, 37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121,
        120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
    ]
    static let chrominanceTable =
        [
            17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99,
            99,
            99, 99, 99, 99,
        ] + [Int](repeating: 99, count: 32)

    static let dcLuminance = HuffmanCode([0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0], Array(0...11))
    static let dcChrominance = HuffmanCode([0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0], Array(0...11))
    static let acLuminance = HuffmanCode(
        [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D],
        [
            0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07, 0x22, 0x71,
            0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0, 0x24, 0x33, 0x62, 0x72,
            0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x34, 0x35, 0x36, 0x37,
            0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59,
            0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83,
            0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3,
            0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
            0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
            0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ])
    static let acChrominance = HuffmanCode(
        [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77],
        [
            0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71, 0x13, 0x22,
            0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0, 0x15, 0x62, 0x72, 0xD1,
            0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26, 0x27, 0x28, 0x29, 0x2A, 0x35, 0x36,
            0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58,
            0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A,
            0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A,
            0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA,
            0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
            0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8, 0xF9, 0xFA,
        ])
}
