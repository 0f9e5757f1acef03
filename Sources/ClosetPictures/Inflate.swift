import ClosetCore

/// DEFLATE (RFC 1951) and the zlib wrapper around it (RFC 1950), for PNG: stored, fixed and
/// dynamic Huffman blocks. Written for hostile input: every length is checked before it is
/// used, the output has a limit given in advance (a PNG knows how many bytes its rows take), and
/// any malformed stream is an error, never a trap or a loop.
public enum Inflate {
    public enum Failure: Error, Equatable, Sendable {
        /// The stream ended before its last block did.
        case truncated
        /// A block header, a code-length table or a symbol that is not valid DEFLATE.
        case malformed(String)
        /// It would make more than the limit.
        case tooLarge(Int)
        /// The zlib header or its Adler-32 checksum does not match.
        case badWrapper(String)
        /// The reader of a streamed output stopped it (it found the bytes wrong).
        case stopped
    }

    /// The bytes a zlib stream holds (at most `limit`).
    public static func zlib(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var reader = try zlibReader(data)
        let output = try inflate(&reader, limit: limit)
        try checkAdler(data, reader, adler32(output))
        return output
    }

    /// A reader after the zlib header, which is checked.
    static func zlibReader(_ data: [UInt8]) throws(Failure) -> BitReader {
        guard data.count >= 6 else { throw .truncated }
        let (method, flags) = (data[0], data[1])
        guard method & 0x0F == 8, method >> 4 <= 7, (Int(method) << 8 | Int(flags)) % 31 == 0 else {
            throw .badWrapper("not a zlib stream (header \(method) \(flags))")
        }
        guard flags & 0x20 == 0 else { throw .badWrapper("a preset dictionary is not supported") }
        return BitReader(data, from: 2)
    }

    /// The Adler-32 of the output follows the last block, big-endian, on a byte boundary.
    static func checkAdler(_ data: [UInt8], _ reader: BitReader, _ sum: UInt32) throws(Failure) {
        let at = reader.byteAlignedPosition
        guard at + 4 <= data.count else { throw .truncated }
        let stored =
            UInt32(data[at]) << 24 | UInt32(data[at + 1]) << 16 | UInt32(data[at + 2]) << 8 | UInt32(data[at + 3])
        guard stored == sum else { throw .badWrapper("its Adler-32 checksum does not match") }
    }

    /// The bytes a raw DEFLATE stream holds (at most `limit`).
    public static func raw(_ data: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        var reader = BitReader(data, from: 0)
        return try inflate(&reader, limit: limit)
    }

    public static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var sum = Adler32()
        bytes.withUnsafeBufferPointer { sum.add($0) }
        return sum.value
    }

    /// The largest distance a match reaches back (RFC 1951): what a streamed output keeps.
    static let window = 32768

    /// The bytes a zlib stream holds (at most `limit`), handed to `take` a piece at a time
    /// (about `chunk` bytes each) as they are inflated, never held whole: only the last 32 KB
    /// stay, for the matches that copy from them. `take` returns false to stop (the reader found
    /// the bytes wrong: the stream is then `.stopped`). The Adler-32 is checked at the end, after
    /// every piece was handed on: a reader keeps what it makes until the stream is known good.
    /// Returns how many bytes there were.
    public static func zlib(
        _ data: [UInt8], limit: Int, chunk: Int = 1 << 18, into take: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(Failure) -> Int {
        var reader = try zlibReader(data)
        var sum = Adler32()
        let total = try inflate(&reader, limit: limit, chunk: chunk) { piece in
            sum.add(piece)
            return take(piece)
        }
        try checkAdler(data, reader, sum.value)
        return total
    }

    // MARK: blocks

    /// The output is made in place, `limit` bytes reserved up front (untouched until written):
    /// a match is copied as a block, not appended byte by byte.
    static func inflate(_ reader: inout BitReader, limit: Int) throws(Failure) -> [UInt8] {
        var failure: Failure?
        let output = [UInt8](unsafeUninitializedCapacity: max(limit, 1)) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            var output = Output(base: base, capacity: limit, limit: limit, drain: nil)
            do throws(Failure) {
                try blocks(&reader, into: &output)
            } catch {
                failure = error
            }
            count = output.count
        }
        if let failure { throw failure }
        return output
    }

    /// Streamed: the output handed to `drain` a piece at a time from a buffer of about `chunk`
    /// bytes that keeps the last 32 KB. Returns the whole output's size.
    static func inflate(
        _ reader: inout BitReader, limit: Int, chunk: Int, _ drain: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(Failure) -> Int {
        // A small output fits whole (one byte more finds a stream past its limit; nothing is ever
        // moved); else at least twice the window, so what is kept never overlaps where it is
        // moved from. A thumbnail's few kilobytes take a buffer their size, not a chunk's.
        let capacity = limit < chunk ? limit + 1 : max(chunk, 2 * window)
        let base = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { base.deallocate() }
        return try withoutActuallyEscaping(drain) { (drain) throws(Failure) in
            var output = Output(base: base, capacity: capacity, limit: limit, drain: drain)
            try blocks(&reader, into: &output)
            try output.finish()
            return output.dropped + output.count
        }
    }

    /// Every block of the stream, into `output`.
    static func blocks(_ reader: inout BitReader, into output: inout Output) throws(Failure) {
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0: try stored(&reader, into: &output)
            case 1: try codes(&reader, Huffman.fixedLengths, Huffman.fixedDistances, into: &output)
            case 2:
                let (lengths, distances) = try dynamicTables(&reader)
                try codes(&reader, lengths, distances, into: &output)
            default: throw .malformed("block type 3")
            }
        }
    }

    /// What has been inflated so far, in memory reserved for `capacity` bytes: the whole output
    /// (no `drain`: the buffer is `limit` bytes), or, streamed, what has not been handed on yet
    /// and the 32 KB before it (a full buffer is handed to `drain` and all but its last 32 KB
    /// let go).
    struct Output {
        let base: UnsafeMutablePointer<UInt8>
        let capacity: Int
        var count = 0
        /// Bytes let go from the front (streamed): the output so far is `dropped + count`.
        var dropped = 0
        /// Where the bytes not yet handed on start.
        var handed = 0
        let limit: Int
        let drain: ((UnsafeBufferPointer<UInt8>) -> Bool)?

        init(
            base: UnsafeMutablePointer<UInt8>, capacity: Int, limit: Int,
            drain: ((UnsafeBufferPointer<UInt8>) -> Bool)?
        ) {
            self.base = base
            self.capacity = capacity
            self.limit = limit
            self.drain = drain
        }

        @inline(__always)
        mutating func append(_ byte: UInt8) throws(Failure) {
            if count == capacity { try flush() }
            base[count] = byte
            count += 1
        }

        /// `length` bytes from `distance` back: a run when the two overlap, copied a distance at a
        /// time (each piece then reads only what is already written).
        @inline(__always)
        mutating func copy(distance: Int, length: Int) throws(Failure) {
            // Once streamed output is let go, 32 KB (more than any distance) always stay.
            guard distance <= count else { throw .malformed("a distance back past the start") }
            var remaining = length
            while remaining > 0 {
                if count == capacity { try flush() }
                let part = min(remaining, capacity - count)
                var done = 0
                while done < part {
                    let piece = min(distance, part - done)
                    (base + count + done).update(from: base + count + done - distance, count: piece)
                    done += piece
                }
                count += part
                remaining -= part
            }
        }

        mutating func append(_ bytes: ArraySlice<UInt8>) throws(Failure) {
            var rest = bytes[...]
            while !rest.isEmpty {
                if count == capacity { try flush() }
                let part = rest.prefix(capacity - count)
                part.withUnsafeBufferPointer { source in
                    if let start = source.baseAddress { (base + count).update(from: start, count: source.count) }
                }
                count += part.count
                rest = rest.dropFirst(part.count)
            }
        }

        /// The buffer is full: past the limit, or (streamed) handed on and all but 32 KB let go.
        mutating func flush() throws(Failure) {
            guard let drain, dropped + count <= limit else { throw .tooLarge(limit) }
            guard drain(UnsafeBufferPointer(start: base + handed, count: count - handed)) else { throw .stopped }
            let keep = min(count, Inflate.window)
            base.update(from: base + count - keep, count: keep)
            dropped += count - keep
            count = keep
            handed = keep
        }

        /// The last bytes handed on (streamed), within the limit.
        mutating func finish() throws(Failure) {
            guard dropped + count <= limit else { throw .tooLarge(limit) }
            guard let drain, count > handed else { return }
            guard drain(UnsafeBufferPointer(start: base + handed, count: count - handed)) else { throw .stopped }
            handed = count
        }
    }

    static func stored(_ reader: inout BitReader, into output: inout Output) throws(Failure) {
        reader.alignToByte()
        let length = try reader.bits(16)
        let complement = try reader.bits(16)
        guard length == ~complement & 0xFFFF else {
            throw .malformed("a stored block's length and its complement differ")
        }
        try reader.copyBytes(length, into: &output)
    }

    /// Length and distance bases and extra bits (RFC 1951, 3.2.5).
    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtra: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    static func codes(
        _ reader: inout BitReader, _ lengths: Huffman, _ distances: Huffman, into output: inout Output
    ) throws(Failure) {
        while true {
            let symbol = try lengths.decode(&reader)
            if symbol < 256 {
                try output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let index = symbol - 257
                guard index < lengthBase.count else { throw .malformed("length symbol \(symbol)") }
                let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
                let code = try distances.decode(&reader)
                guard code < distanceBase.count else { throw .malformed("distance symbol \(code)") }
                let distance = distanceBase[code] + (try reader.bits(distanceExtra[code]))
                try output.copy(distance: distance, length: length)
            }
        }
    }

    /// The order code-length code lengths come in (RFC 1951, 3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static func dynamicTables(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .malformed("too many codes") }
        var codeLengths = [UInt8](repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = UInt8(try reader.bits(3)) }
        let codeLengthCode = try Huffman(lengths: codeLengths, complete: true)
        var lengths: [UInt8] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            switch symbol {
            case 0...15: lengths.append(UInt8(symbol))
            case 16:
                guard let previous = lengths.last else { throw .malformed("a repeat with nothing before it") }
                lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
            case 17: lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
            default: lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw .malformed("code lengths run past the table") }
        guard lengths[256] != 0 else { throw .malformed("no end-of-block code") }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount]), complete: false),
            try Huffman(lengths: Array(lengths[literalCount...]), complete: false)
        )
    }
}

/// Bits of a byte array, least significant first (as DEFLATE packs them).
struct BitReader {
    let bytes: [UInt8]
    var position: Int
    var buffer: UInt64 = 0
    var count = 0

    init(_ bytes: [UInt8], from start: Int) {
        self.bytes = bytes
        position = start
    }

    /// Refills the buffer to at least `needed` bits while bytes remain.
    @inline(__always) mutating func fill(_ needed: Int) {
        while count < needed, position < bytes.count {
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
    }

    @inline(__always) mutating func bits(_ n: Int) throws(Inflate.Failure) -> Int {
        guard n > 0 else { return 0 }
        fill(n)
        guard count >= n else { throw .truncated }
        let value = Int(buffer & ((1 << UInt64(n)) - 1))
        buffer >>= UInt64(n)
        count -= n
        return value
    }

    /// Up to `n` bits without taking them (fewer at the end of the data), and how many there are.
    @inline(__always) mutating func peek(_ n: Int) -> (value: Int, available: Int) {
        fill(n)
        return (Int(buffer & ((1 << UInt64(n)) - 1)), min(count, n))
    }

    @inline(__always) mutating func skip(_ n: Int) {
        buffer >>= UInt64(n)
        count -= n
    }

    mutating func alignToByte() {
        let drop = count % 8
        buffer >>= UInt64(drop)
        count -= drop
    }

    /// The byte after the bits taken so far, once aligned (whole bytes in the buffer are unread).
    var byteAlignedPosition: Int { position - count / 8 }

    mutating func copyBytes(_ n: Int, into output: inout Inflate.Output) throws(Inflate.Failure) {
        // Whole bytes still in the buffer come first.
        var remaining = n
        while remaining > 0, count >= 8 {
            try output.append(UInt8(buffer & 0xFF))
            buffer >>= 8
            count -= 8
            remaining -= 1
        }
        guard bytes.count - position >= remaining else { throw .truncated }
        try output.append(bytes[position..<(position + remaining)])
        position += remaining
    }
}

/// A canonical Huffman code (RFC 1951, 3.2.2), decoded through a table indexed by the next 9
/// bits (the common short codes in one step), longer codes bit by bit.
struct Huffman {
    static let tableBits = 9
    /// For each 9-bit index: symbol << 4 | length, or 0 when the code is longer (or none).
    var table: [UInt16]
    /// Per length, how many codes; the symbols in canonical order.
    var counts: [Int]
    var symbols: [Int]

    /// `complete`: the code must use every bit pattern (the code-length code must; literal and
    /// distance codes may leave some out, as zlib writes one-code distance tables).
    init(lengths: [UInt8], complete: Bool) throws(Inflate.Failure) {
        counts = [Int](repeating: 0, count: 16)
        for length in lengths { counts[Int(length)] += 1 }
        counts[0] = 0
        // More codes of a length than that length can hold: not a prefix code.
        var left = 1
        for length in 1...15 {
            left = left * 2 - counts[length]
            guard left >= 0 else { throw .malformed("an over-subscribed Huffman code") }
        }
        if complete, left > 0, counts.reduce(0, +) > 1 { throw .malformed("an incomplete Huffman code") }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[Int(length)]] = symbol
            offsets[Int(length)] += 1
        }
        // The fast table: each code of at most 9 bits fills every index that starts with it
        // (bits reversed, since DEFLATE sends codes most significant bit first).
        table = [UInt16](repeating: 0, count: 1 << Self.tableBits)
        var code = 0
        var index = 0
        for length in 1...15 {
            for _ in 0..<counts[length] {
                if length <= Self.tableBits {
                    var reversed = 0
                    for bit in 0..<length where code & (1 << bit) != 0 { reversed |= 1 << (length - 1 - bit) }
                    var fill = reversed
                    while fill < 1 << Self.tableBits {
                        table[fill] = UInt16(symbols[index] << 4 | length)
                        fill += 1 << length
                    }
                }
                code += 1
                index += 1
            }
            code <<= 1
        }
    }

    static let fixedLengths: Huffman = {
        let lengths = (0..<288).map { UInt8($0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8) }
        return fixed(lengths, complete: true)
    }()

    static let fixedDistances = fixed([UInt8](repeating: 5, count: 30), complete: false)

    /// RFC 1951's fixed tables, valid by construction: no input reaches this.
    static func fixed(_ lengths: [UInt8], complete: Bool) -> Huffman {
        do {
            return try Huffman(lengths: lengths, complete: complete)
        } catch {
            preconditionFailure("RFC 1951's fixed Huffman table is refused: \(error)")
        }
    }

    @inline(__always) func decode(_ reader: inout BitReader) throws(Inflate.Failure) -> Int {
        let (bits, available) = reader.peek(Self.tableBits)
        let entry = Int(table[bits])
        if entry != 0, entry & 0xF <= available {
            reader.skip(entry & 0xF)
            return entry >> 4
        }
        // Bit by bit (puff's way): codes longer than the table, and the end of the data.
        var code = 0
        var first = 0
        var index = 0
        for length in 1...15 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - count < first { return symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw .malformed("a code that is not in its table")
    }
}

/// Adler-32 (RFC 1950) over bytes given a piece at a time, sixteen bytes a step: b gains 16 a
/// and each byte weighted by how many of the step's sums it is in (16 for the first ... 1 for
/// the last), a gains their sum.
struct Adler32 {
    private var a: UInt32 = 1
    private var b: UInt32 = 0

    var value: UInt32 { b << 16 | a }

    mutating func add(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        let weights = SIMD16<UInt32>(16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1)
        var index = 0
        while index < buffer.count {
            // 5,552 bytes (a multiple of 16) keep both sums below 2^32 before the modulo.
            let end = min(buffer.count, index + 5552)
            while index + 16 <= end {
                let step = SIMD16<UInt32>(
                    truncatingIfNeeded: UnsafeRawPointer(base + index).loadUnaligned(as: SIMD16<UInt8>.self))
                b &+= 16 &* a &+ (step &* weights).wrappedSum()
                a &+= step.wrappedSum()
                index += 16
            }
            while index < end {
                a &+= UInt32(base[index])
                b &+= a
                index += 1
            }
            a %= 65521
            b %= 65521
        }
    }
}
