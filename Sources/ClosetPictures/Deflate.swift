/// DEFLATE compression (RFC 1951) and its zlib wrapper (RFC 1950): for the pictures closet
/// sends a terminal (kitty's `o=z` payloads, iTerm2's PNG files). LZ77 over a 32 KB window with
/// hash chains and one step of lazy matching (zlib's default strategy, a shorter chain); each
/// block written as whichever of dynamic Huffman, fixed Huffman or stored is smallest, so no
/// input grows by more than a stored block's five bytes per 64 KB.
public enum Deflate {
    /// `data` as a zlib stream.
    public static func zlib(_ data: [UInt8]) -> [UInt8] {
        // CMF 0x78: deflate, 32 KB window; FLG 0x5E: the default level's hint, no dictionary,
        // and the header a multiple of 31.
        var out: [UInt8] = [0x78, 0x5E]
        out += raw(data)
        let sum = Inflate.adler32(data)
        out += [UInt8(sum >> 24), UInt8((sum >> 16) & 0xFF), UInt8((sum >> 8) & 0xFF), UInt8(sum & 0xFF)]
        return out
    }

    /// `data` as a raw DEFLATE stream.
    public static func raw(_ data: [UInt8]) -> [UInt8] {
        var writer = DeflateBitWriter(capacity: data.count / 2 + 64)
        data.withUnsafeBufferPointer { bytes in
            var matcher = Matcher(bytes)
            var blockStart = 0
            while true {
                let tokens = matcher.nextBlock(maxTokens: blockTokens)
                let end = matcher.position
                let last = end == bytes.count
                writeBlock(tokens, bytes: UnsafeBufferPointer(rebasing: bytes[blockStart..<end]), last: last, &writer)
                blockStart = end
                if last { break }
            }
        }
        return writer.finish()
    }

    /// Symbols per block: each block has its own codes, so a picture whose rows change
    /// character is coded for each part.
    static let blockTokens = 1 << 15

    // MARK: tokens

    /// A literal byte (below 256) or a match: bit 31 set, length − 3 in bits 16-23, distance − 1
    /// in bits 0-14.
    typealias Token = UInt32

    @inline(__always)
    static func match(length: Int, distance: Int) -> Token {
        1 << 31 | Token(length - 3) << 16 | Token(distance - 1)
    }

    /// The length symbol's index (0-28) for each match length 3...258.
    static let lengthCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 259)
        for code in 0..<Inflate.lengthBase.count {
            let base = Inflate.lengthBase[code]
            for length in base..<min(259, base + (1 << Inflate.lengthExtra[code])) { table[length] = UInt8(code) }
        }
        table[258] = 28
        return table
    }()

    /// The distance symbol for each distance 1...32768.
    static let distanceCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 32769)
        for code in 0..<Inflate.distanceBase.count {
            let base = Inflate.distanceBase[code]
            for distance in base..<min(32769, base + (1 << Inflate.distanceExtra[code])) {
                table[distance] = UInt8(code)
            }
        }
        return table
    }()

    // MARK: blocks

    static let fixedLiteralLengths: [UInt8] =
        [UInt8](repeating: 8, count: 144) + [UInt8](repeating: 9, count: 112) + [UInt8](repeating: 7, count: 24)
        + [UInt8](repeating: 8, count: 8)
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)

    /// One block of `tokens`, which code `bytes`, in its smallest form.
    static func writeBlock(
        _ tokens: [Token], bytes: UnsafeBufferPointer<UInt8>, last: Bool, _ writer: inout DeflateBitWriter
    ) {
        var literalCounts = [Int](repeating: 0, count: 286)
        var distanceCounts = [Int](repeating: 0, count: 30)
        var extraBits = 0
        for token in tokens {
            if token < 256 {
                literalCounts[Int(token)] += 1
            } else {
                let code = Int(lengthCode[Int(token >> 16 & 0xFF) + 3])
                literalCounts[257 + code] += 1
                let distance = Int(distanceCode[Int(token & 0x7FFF) + 1])
                distanceCounts[distance] += 1
                extraBits += Inflate.lengthExtra[code] + Inflate.distanceExtra[distance]
            }
        }
        literalCounts[256] = 1
        let literalLengths = HuffmanLengths.lengths(of: literalCounts, maxBits: 15)
        let distanceLengths = HuffmanLengths.lengths(of: distanceCounts, maxBits: 15)
        let header = DynamicHeader(literalLengths: literalLengths, distanceLengths: distanceLengths)
        func cost(_ literals: [UInt8], _ distances: [UInt8]) -> Int {
            var bits = extraBits
            for (count, length) in zip(literalCounts, literals) { bits += count * Int(length) }
            for (count, length) in zip(distanceCounts, distances) { bits += count * Int(length) }
            return bits
        }
        let dynamicBits = 3 + header.bits + cost(literalLengths, distanceLengths)
        let fixedBits = 3 + cost(fixedLiteralLengths, fixedDistanceLengths)
        let storedBits = (bytes.count + 5 * max(1, (bytes.count + 65534) / 65535)) * 8 + 7
        let final: UInt32 = last ? 1 : 0
        if storedBits <= min(dynamicBits, fixedBits) {
            writeStored(bytes, last: last, &writer)
        } else if fixedBits <= dynamicBits {
            writer.write(final | 1 << 1, width: 3)
            writeTokens(tokens, fixedLiteralLengths, fixedDistanceLengths, &writer)
        } else {
            writer.write(final | 2 << 1, width: 3)
            header.write(&writer)
            writeTokens(tokens, literalLengths, distanceLengths, &writer)
        }
    }

    static func writeStored(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool, _ writer: inout DeflateBitWriter) {
        var at = 0
        repeat {
            let count = min(65535, bytes.count - at)
            let final: UInt32 = last && at + count == bytes.count ? 1 : 0
            writer.write(final, width: 3)
            writer.alignToByte()
            writer.write(UInt32(count) | UInt32(~count & 0xFFFF) << 16, width: 32)
            writer.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[at..<(at + count)]))
            at += count
        } while at < bytes.count
    }

    static func writeTokens(
        _ tokens: [Token], _ literalLengths: [UInt8], _ distanceLengths: [UInt8], _ writer: inout DeflateBitWriter
    ) {
        let literalCodes = HuffmanLengths.codes(literalLengths)
        let distanceCodes = HuffmanLengths.codes(distanceLengths)
        for token in tokens {
            if token < 256 {
                writer.write(literalCodes[Int(token)], width: Int(literalLengths[Int(token)]))
                continue
            }
            let length = Int(token >> 16 & 0xFF) + 3
            let code = Int(lengthCode[length])
            writer.write(literalCodes[257 + code], width: Int(literalLengths[257 + code]))
            writer.write(UInt32(length - Inflate.lengthBase[code]), width: Inflate.lengthExtra[code])
            let distance = Int(token & 0x7FFF) + 1
            let distanceSymbol = Int(distanceCode[distance])
            writer.write(distanceCodes[distanceSymbol], width: Int(distanceLengths[distanceSymbol]))
            writer.write(
                UInt32(distance - Inflate.distanceBase[distanceSymbol]), width: Inflate.distanceExtra[distanceSymbol])
        }
        writer.write(literalCodes[256], width: Int(literalLengths[256]))
    }
}
