import ClosetCore

extension JPEGDecoder {
    /// A Huffman table (T.81 Annex C): codes up to 9 bits found in one lookup, longer ones by
    /// the first code and count of each length. Its lookups are memory of its own, so a scan's
    /// loop reads them through plain pointers (`Lookup`) with no reference counting per symbol
    /// (arrays copied out of the parser per block were most of a thumbnail's decoding time).
    final class HuffmanTable {
        static let fastBits = 9
        /// The pointers a scan decodes with, valid while the table lives.
        struct Lookup {
            /// `length << 8 | symbol` for every 9-bit prefix that starts with a short code; 0
            /// when the code is longer.
            let fast: UnsafePointer<UInt16>
            /// The largest code of each length (-1 when there is none), and what to add to a
            /// code of that length to find its symbol's index.
            let maxCode: UnsafePointer<Int>
            let offset: UnsafePointer<Int>
            let symbols: UnsafePointer<UInt8>
            let symbolCount: Int
            /// For AC values read past (a block decoded at 1/8): for every `skipBits` prefix, the
            /// run of whole codes-and-values it starts with, as `SkipEntry`; 0 when the first does
            /// not fit.
            let skip: UnsafePointer<UInt16>
        }
        static let skipBits = 12

        /// What a `skip` entry holds: how many bits its codes and values take, how far they move
        /// along the block (a coefficient's run and itself, 16 for `ZRL`) and whether the last
        /// ends the block (`EOB`). Several symbols in one lookup: a photo's common AC codes with
        /// their values are 3-6 bits, so a 12-bit look passes two or three of them at once.
        enum SkipEntry {
            static func make(bits: Int, advance: Int, ends: Bool) -> UInt16 {
                UInt16(bits | advance << 4 | (ends ? 0x8000 : 0))
            }
            @inline(__always) static func bits(_ entry: UInt16) -> Int { Int(entry & 15) }
            @inline(__always) static func advance(_ entry: UInt16) -> Int { Int(entry >> 4 & 0x7F) }
            @inline(__always) static func ends(_ entry: UInt16) -> Bool { entry & 0x8000 != 0 }
            /// The most one entry moves: a longer move could never be taken (a block has 63 AC
            /// places), and this fits the entry's 7 bits.
            static let largestAdvance = 63
        }

        private let storage: UnsafeMutableRawPointer
        let lookup: Lookup

        /// Nil when the counts describe more codes than their lengths allow. Only an AC table
        /// (`forAC`) is ever skipped through; a DC table's `skip` stays empty.
        init?(counts: [Int], symbols: [UInt8], forAC: Bool) {
            var fast = [UInt16](repeating: 0, count: 1 << Self.fastBits)
            var skip = [UInt16](repeating: 0, count: 1 << Self.skipBits)
            var maxCode = [Int](repeating: -1, count: 17)
            var offset = [Int](repeating: 0, count: 17)
            var code = 0
            var index = 0
            for length in 1...16 {
                offset[length] = index - code
                for _ in 0..<counts[length - 1] {
                    guard code < 1 << length else { return nil }
                    if length <= Self.fastBits {
                        let shift = Self.fastBits - length
                        for suffix in 0..<(1 << shift) {
                            fast[code << shift | suffix] = UInt16(length << 8) | UInt16(symbols[index])
                        }
                    }
                    // One symbol with its value: the first step of every prefix it starts.
                    let symbol = Int(symbols[index])
                    let bits = length + (symbol & 15)
                    if forAC, bits <= Self.skipBits {
                        let ends = symbol & 15 == 0 && symbol >> 4 != 15
                        let advance = ends ? 0 : symbol & 15 == 0 ? 16 : (symbol >> 4) + 1
                        let shift = Self.skipBits - length
                        for suffix in 0..<(1 << shift) {
                            skip[code << shift | suffix] = SkipEntry.make(bits: bits, advance: advance, ends: ends)
                        }
                    }
                    code += 1
                    index += 1
                }
                if counts[length - 1] > 0 { maxCode[length] = code - 1 }
                code <<= 1
            }
            if forAC { Self.chainSkips(&skip) }
            // One block: the two Int tables, the fast table, then the symbols.
            let ints = 2 * 17 * MemoryLayout<Int>.stride
            let fastBytes = (fast.count + skip.count) * MemoryLayout<UInt16>.stride
            storage = .allocate(byteCount: ints + fastBytes + max(1, symbols.count), alignment: 16)
            let maxCodes = storage.bindMemory(to: Int.self, capacity: 34)
            maxCodes.initialize(from: maxCode, count: 17)
            (maxCodes + 17).initialize(from: offset, count: 17)
            let fastTable = (storage + ints).bindMemory(to: UInt16.self, capacity: fast.count + skip.count)
            fastTable.initialize(from: fast, count: fast.count)
            (fastTable + fast.count).initialize(from: skip, count: skip.count)
            let symbolTable = (storage + ints + fastBytes).bindMemory(to: UInt8.self, capacity: max(1, symbols.count))
            symbolTable.initialize(from: symbols, count: symbols.count)
            lookup = Lookup(
                fast: fastTable, maxCode: maxCodes, offset: maxCodes + 17, symbols: symbolTable,
                symbolCount: symbols.count, skip: fastTable + fast.count)
        }

        deinit { storage.deallocate() }

        /// Each prefix's first step extended by the steps after it whose bits are inside the
        /// prefix too (the bits after it are not known yet). Each next step is the single step
        /// of the bits left, shifted up: read from a copy, since the table is rewritten.
        static func chainSkips(_ skip: inout [UInt16]) {
            let single = skip
            let width = skipBits
            let mask = (1 << width) - 1
            for prefix in skip.indices {
                let entry = single[prefix]
                guard entry != 0, !SkipEntry.ends(entry) else { continue }
                var used = SkipEntry.bits(entry)
                var advance = SkipEntry.advance(entry)
                var ends = false
                while used < width {
                    let next = single[(prefix << used) & mask]
                    let bits = SkipEntry.bits(next)
                    guard next != 0, used + bits <= width,
                        advance + SkipEntry.advance(next) <= SkipEntry.largestAdvance
                    else { break }
                    used += bits
                    advance += SkipEntry.advance(next)
                    if SkipEntry.ends(next) {
                        ends = true
                        break
                    }
                }
                skip[prefix] = SkipEntry.make(bits: used, advance: advance, ends: ends)
            }
        }
    }

    /// The bits of entropy-coded data, with stuffed bytes (`FF 00`) undone. At a marker it
    /// stops and reads zeros, as libjpeg does, so data that ends early is never read past.
    struct BitReader {
        let data: [UInt8]
        /// The next byte to read; at a marker, the marker's `FF`.
        var position: Int
        var buffer: UInt64 = 0
        var count = 0
        /// How many zero bits were added at a marker. They are the buffer's last bits (nothing
        /// follows them), so the bits from the data are `count - padding` (none once negative):
        /// a read needs only take from `count`.
        var padding = 0
        var atMarker = false

        /// How many of the buffer's bits came from the data (the rest are zeros read at a marker).
        var realBits: Int { max(0, count - padding) }

        /// Every bit before the marker is read: what is left of the scan has no data (libjpeg
        /// stops there too, "premature end of data segment", leaving the rest zero).
        var exhausted: Bool { atMarker && realBits == 0 }

        /// Whether the marker the data stopped at is a restart marker (more of the scan follows).
        var atRestartMarker: Bool {
            var at = position
            while at < data.count, data[at] == 0xFF { at += 1 }
            return at < data.count && at > position && (0xD0...0xD7).contains(data[at])
        }

        init(data: [UInt8], position: Int) {
            self.data = data
            self.position = position
        }

        // Not inlined: it runs once per several bytes, and inlined into every read it made
        // `bits`, `skip` and `extended` too large to be inlined themselves (a call each).
        @inline(never) mutating func fill() {
            // Eight bytes at once when those taken hold no `FF` (no stuffing, no marker).
            let room = (64 - count) >> 3
            if room > 0, !atMarker, position + 8 <= data.count {
                let word = data.withUnsafeBytes {
                    UInt64(bigEndian: $0.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                }
                let taken = word & ~(UInt64.max >> UInt64(room * 8))
                let inverted = ~taken
                if (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 == 0 {
                    buffer |= taken >> UInt64(count)
                    count += room * 8
                    position += room
                    return
                }
            }
            while count <= 56 {
                var byte: UInt8 = 0
                // The data's end reads as a marker: zeros from there.
                if position >= data.count { atMarker = true }
                if !atMarker {
                    byte = data[position]
                    if byte == 0xFF {
                        if position + 1 < data.count, data[position + 1] == 0 {
                            position += 2
                        } else {
                            atMarker = true
                            byte = 0
                        }
                    } else {
                        position += 1
                    }
                }
                if atMarker { padding += 8 }
                buffer |= UInt64(byte) << UInt64(56 - count)
                count += 8
            }
        }

        // Reads shift by 1-16 bits: masking shifts (`&<<`), which need no test for a shift of
        // 64 or more.
        @inline(__always) mutating func bits(_ n: Int) -> Int {
            guard n > 0 else { return 0 }
            if count < n { fill() }
            let value = Int(buffer &>> UInt64(64 - n))
            buffer &<<= UInt64(n)
            count -= n
            return value
        }

        @inline(__always) mutating func bit() -> Int { bits(1) }

        /// `n` bits passed over (a coefficient not kept).
        @inline(__always) mutating func skip(_ n: Int) {
            guard n > 0 else { return }
            if count < n { fill() }
            buffer &<<= UInt64(n)
            count -= n
        }

        /// `size` bits as a signed value (F.2.2.1's EXTEND).
        @inline(__always) mutating func extended(_ size: Int) -> Int {
            guard size > 0 else { return 0 }
            let value = bits(size)
            return value < 1 << (size - 1) ? value - (1 << size) + 1 : value
        }

        /// The next symbol; an invalid code reads as 0 (libjpeg warns and goes on likewise).
        @inline(__always) mutating func decode(_ table: HuffmanTable) -> Int { decode(table.lookup) }

        @inline(__always) mutating func decode(_ table: HuffmanTable.Lookup) -> Int {
            if count < 16 { fill() }
            let entry = table.fast[Int(buffer &>> UInt64(64 - HuffmanTable.fastBits))]
            if entry != 0 {
                let length = Int(entry >> 8)
                buffer &<<= UInt64(length)
                count -= length
                return Int(entry & 0xFF)
            }
            for length in (HuffmanTable.fastBits + 1)...16 {
                let code = Int(buffer &>> UInt64(64 - length))
                if code <= table.maxCode[length] {
                    buffer &<<= UInt64(length)
                    count -= length
                    let index = table.offset[length] + code
                    return index >= 0 && index < table.symbolCount ? Int(table.symbols[index]) : 0
                }
            }
            buffer <<= 16
            count -= 16
            return 0
        }

        /// At a restart interval's end: the bits left are padding; the `RSTn` marker after them
        /// is stepped over (if it is something else, the scan's remaining data reads as zeros).
        mutating func restart() {
            buffer = 0
            count = 0
            padding = 0
            if !atMarker {
                while position + 1 < data.count, !(data[position] == 0xFF && data[position + 1] != 0) {
                    position += 1
                }
            }
            var at = position
            while at < data.count, data[at] == 0xFF { at += 1 }
            if at < data.count, (0xD0...0xD7).contains(data[at]) {
                position = at + 1
                atMarker = false
            } else {
                atMarker = true
            }
        }
    }
}
