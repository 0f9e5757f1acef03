import ClosetCore

/// Which keys a table's snapshot section cannot hold: a blocked Bloom filter over each key's
/// prefix (`SnapshotSection.keyPrefix`), written beside the section as a derived section
/// (`<table>#key filter`, which older builds leave unread). Opening a store whose journal
/// holds a few hundred new keys searched the section's key order for each (a journal of 130
/// inserts read and checksummed most of a 100,000-row table's 37 blocks of key order, a fifth
/// of the open); a key the filter rules out is known new without the search. A key it does not
/// rule out is searched as before, so a false "maybe" costs a search and never an answer.
///
///     header row (key: none) = version u8 | generation u64 | row count u64 | block count u64
///     then rows keyed by their number (u32, big-endian), each `blocksPerRow` blocks of
///     `blockBits` bits (little-endian u64 words)
///
/// A key's prefix picks one block and sets `probes` bits in it: one block read per key.
/// About ten bits a key: one key in a hundred not there is taken for a maybe.
public final class KeyFilter {
    /// What follows a table's name in the section's name.
    public static let sectionSuffix = "#key filter"
    static let version: UInt8 = 1
    static let bitsPerKey = 10
    static let blockBits = 512
    static let blockWords = blockBits / 64
    static let blocksPerRow = 16
    static let probes = 6

    let section: SnapshotRows
    let generation: UInt64
    let rowCount: Int
    /// Read from the header row when first asked (a statement that asks nothing of the
    /// journal's keys reads none of the filter); nil inside: the filter is not current.
    private var header: Int??

    /// The filter in `section`, used only if it was written with this snapshot (`generation`)
    /// for its `rowCount` rows: one carried unchanged from another snapshot, or of another
    /// version, lets every key through.
    public init(_ section: SnapshotRows, generation: UInt64, rowCount: Int) {
        self.section = section
        self.generation = generation
        self.rowCount = rowCount
    }

    /// How many blocks the filter has; nil when it is not current.
    var blockCount: Int? {
        if let header { return header }
        var found: Int?
        if section.count >= 1 {
            var reader = ByteReader(section.rowBytes(0))
            if let version = try? reader.u8(), version == Self.version, let written = try? reader.u64(),
                let rows = try? reader.u64(), let blocks = try? reader.u64(), reader.isAtEnd,
                written == generation, rows == UInt64(rowCount), blocks == Self.blocks(forKeys: rowCount),
                section.count == 1 + Self.rowsHolding(Int(blocks))
            {
                found = Int(blocks)
            }
        }
        header = .some(found)
        return found
    }

    /// Whether `key` may be among the rows (false: it is certainly not).
    public func mayContain(_ key: UnsafeRawBufferPointer) -> Bool {
        guard let blockCount else { return true }
        guard blockCount > 0 else { return false }
        let (block, bits) = Self.place(SnapshotSection.keyPrefix(key), blockCount: blockCount)
        let start = (block % Self.blocksPerRow) * Self.blockWords * 8
        return section.withRowInPlace(1 + block / Self.blocksPerRow) { bytes in
            guard bytes.count == Self.blocksPerRow * Self.blockWords * 8 else {
                UnreadableRow.found("a key filter section passes its checksum but does not add up")
            }
            return (0..<Self.probes).allSatisfy { probe in
                let bit = Self.bit(bits, probe)
                let word = UInt64(
                    littleEndian: bytes.loadUnaligned(fromByteOffset: start + (bit >> 6) * 8, as: UInt64.self))
                return word & (1 << UInt64(bit & 63)) != 0
            }
        }
    }

    /// Every bit of the filter, read once (`.check`); nil when it is not current or its rows
    /// do not add up.
    public func words() -> [UInt64]? {
        guard let blockCount else { return nil }
        let expected = Self.rowsHolding(blockCount) * Self.blocksPerRow * Self.blockWords
        var words: [UInt64] = []
        words.reserveCapacity(expected)
        for row in 1..<section.count {
            var reader = ByteReader(section.rowBytes(row))
            while let word = try? reader.u64() { words.append(word) }
        }
        return words.count == expected ? words : nil
    }

    /// Whether the filter whose bits are `words` lets `key` through (`.check`: a filter that
    /// ruled out a key the rows hold would make the journal's change of that key an insert).
    public func letsThrough(_ key: UnsafeRawBufferPointer, words: [UInt64]) -> Bool {
        guard let blockCount, blockCount > 0 else { return false }
        let (block, bits) = Self.place(SnapshotSection.keyPrefix(key), blockCount: blockCount)
        return (0..<Self.probes).allSatisfy { probe in
            let bit = Self.bit(bits, probe)
            return words[block * Self.blockWords + bit >> 6] & (1 << UInt64(bit & 63)) != 0
        }
    }

    /// A filter's bits as its keys are placed, for its section (`write`): made for a known number
    /// of keys, it is the same whatever order they come in.
    public struct Bits {
        let keyCount: Int
        let blockCount: Int
        var words: [UInt64]

        public init(keys: Int) {
            keyCount = keys
            blockCount = Int(KeyFilter.blocks(forKeys: keys))
            words = [UInt64](repeating: 0, count: rowsHolding(blockCount) * blocksPerRow * blockWords)
        }

        public init(prefixes: [UInt64]) {
            self.init(keys: prefixes.count)
            for prefix in prefixes { place(prefix) }
        }

        /// Sets a key's bits (through a buffer, `place` inlined: its call was a third of placing
        /// 100,000 keys).
        @inline(__always) public mutating func place(_ prefix: UInt64) {
            let (block, bits) = KeyFilter.place(prefix, blockCount: blockCount)
            words.withUnsafeMutableBufferPointer { words in
                for probe in 0..<probes {
                    let bit = KeyFilter.bit(bits, probe)
                    words[block * blockWords + bit >> 6] |= 1 << UInt64(bit & 63)
                }
            }
        }
    }

    /// The filter's section for rows whose key prefixes are `prefixes`.
    public static func write(prefixes: [UInt64], generation: UInt64, into writer: inout ByteWriter) {
        write(Bits(prefixes: prefixes), generation: generation, into: &writer)
    }

    /// The filter's section of `bits`.
    public static func write(_ bits: Bits, generation: UInt64, into writer: inout ByteWriter) {
        let rows = rowsHolding(bits.blockCount)
        // Each row recorded as it is written, so a filter streamed to its file goes a piece at a
        // time: a ten-million-key filter (12.5 MB) was held whole beside its bits.
        SnapshotSection.write(into: &writer) { writer, columns in
            RowFrame.part16(&writer) { _ in }
            RowFrame.part32(&writer) { writer in
                writer.u8(version)
                writer.u64(generation)
                writer.u64(UInt64(bits.keyCount))
                writer.u64(UInt64(bits.blockCount))
            }
            columns.rowWritten(from: columns.rowsStart, in: &writer)
            for row in 0..<rows {
                let start = writer.position
                RowFrame.part16(&writer) { writer in
                    for shift in stride(from: 24, through: 0, by: -8) {
                        writer.u8(UInt8(truncatingIfNeeded: row >> shift))
                    }
                }
                RowFrame.part32(&writer) { writer in
                    let first = row * blocksPerRow * blockWords
                    for word in bits.words[first..<(first + blocksPerRow * blockWords)] { writer.u64(word) }
                }
                columns.rowWritten(from: start, in: &writer)
            }
            return 1 + rows
        }
    }

    static func rowsHolding(_ blocks: Int) -> Int { (blocks + blocksPerRow - 1) / blocksPerRow }

    /// How many blocks a filter of `keys` keys has (a header saying otherwise is not used: a
    /// filter of too few blocks would rule out keys the rows hold).
    static func blocks(forKeys keys: Int) -> UInt64 {
        keys <= 0 ? 0 : UInt64(max(1, (keys * bitsPerKey + blockBits - 1) / blockBits))
    }

    /// The block a prefix goes to and its bits there (`probes` bit numbers of nine bits each,
    /// read with `bit(_:_:)`), from two stable mixes of it (the same in every process and build:
    /// the filter is read by later ones). No array: a compaction places every key.
    @inline(__always) static func place(_ prefix: UInt64, blockCount: Int) -> (block: Int, bits: UInt64) {
        let first = mix(prefix)
        let block = Int(truncatingIfNeeded: ((first >> 32) &* UInt64(blockCount)) >> 32)
        return (block, mix(first &+ 0x9E37_79B9_7F4A_7C15))
    }

    /// Probe `probe`'s bit number in a block, of `place`'s bits.
    @inline(__always) static func bit(_ bits: UInt64, _ probe: Int) -> Int {
        Int(truncatingIfNeeded: (bits >> UInt64(9 * probe)) & UInt64(blockBits - 1))
    }

    /// MurmurHash3's 64-bit finalizer: every input bit moves every output bit.
    @inline(__always) static func mix(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x &*= 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x &*= 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}
