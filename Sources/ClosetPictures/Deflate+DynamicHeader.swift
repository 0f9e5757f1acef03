extension Deflate {
    /// A dynamic Huffman block's header (RFC 1951, 3.2.7): the two tables' code lengths, run-length
    /// coded (16 repeats the last length, 17 and 18 runs of zeros), in a code of their own.
    struct DynamicHeader {
        /// The code-length symbols with their extra bits' value and width.
        private var symbols: [(symbol: Int, extra: UInt32, width: Int)] = []
        private var literalCount: Int
        private var distanceCount: Int
        private var codeLengthLengths: [UInt8]
        private var codeLengthCount: Int
        /// The header's size in bits.
        private(set) var bits: Int

        init(literalLengths: [UInt8], distanceLengths: [UInt8]) {
            literalCount = max(257, (literalLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            distanceCount = max(1, (distanceLengths.lastIndex { $0 > 0 } ?? 0) + 1)
            let lengths = Array(literalLengths[..<literalCount]) + Array(distanceLengths[..<distanceCount])
            var index = 0
            while index < lengths.count {
                let length = lengths[index]
                var run = 1
                while index + run < lengths.count && lengths[index + run] == length { run += 1 }
                index += run
                if length == 0 {
                    while run >= 11 {
                        let taken = min(138, run)
                        symbols.append((18, UInt32(taken - 11), 7))
                        run -= taken
                    }
                    if run >= 3 {
                        symbols.append((17, UInt32(run - 3), 3))
                        run = 0
                    }
                } else {
                    symbols.append((Int(length), 0, 0))
                    run -= 1
                    while run >= 3 {
                        let taken = min(6, run)
                        symbols.append((16, UInt32(taken - 3), 2))
                        run -= taken
                    }
                }
                for _ in 0..<run { symbols.append((Int(length), 0, 0)) }
            }
            var counts = [Int](repeating: 0, count: 19)
            for entry in symbols { counts[entry.symbol] += 1 }
            let codeLengthLengths = HuffmanLengths.lengths(of: counts, maxBits: 7)
            self.codeLengthLengths = codeLengthLengths
            codeLengthCount = max(4, (Inflate.codeLengthOrder.lastIndex { codeLengthLengths[$0] > 0 } ?? 0) + 1)
            bits = 5 + 5 + 4 + 3 * codeLengthCount
            for entry in symbols { bits += Int(codeLengthLengths[entry.symbol]) + entry.width }
        }

        func write(_ writer: inout DeflateBitWriter) {
            writer.write(UInt32(literalCount - 257), width: 5)
            writer.write(UInt32(distanceCount - 1), width: 5)
            writer.write(UInt32(codeLengthCount - 4), width: 4)
            for symbol in Inflate.codeLengthOrder[..<codeLengthCount] {
                writer.write(UInt32(codeLengthLengths[symbol]), width: 3)
            }
            let codes = HuffmanLengths.codes(codeLengthLengths)
            for entry in symbols {
                writer.write(codes[entry.symbol], width: Int(codeLengthLengths[entry.symbol]))
                if entry.width > 0 { writer.write(entry.extra, width: entry.width) }
            }
        }
    }
}
