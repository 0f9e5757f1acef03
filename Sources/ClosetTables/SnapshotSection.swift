import ClosetCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One table's part of a snapshot, laid out to be read in place from a mapped file: the rows
/// (framed as `RowFrame` says), then an index that finds any row without decoding the others.
///
///     row count u64 | rows length u64 | rows | index length u64 | index
///     index = row offsets u64×n (from the first row)
///             | key order: (key prefix u64 | ordinal u32)×n, by key bytes
///             | bucket count u32
///             | (bucket count > 0: bucket u8×n | order key i64×n | bucket starts u32×(buckets+1)
///                | (ordinal u32 | order key i64 | row offset u64)×n, bucket by bucket, each by
///                  order key descending, equal keys by ordinal descending: backwards, the exact
///                  ascending order)
///             | blob name count u32 | (length u16 | name)×
///
/// Ordinals are row positions in the section, which is insertion order. A key's prefix is its
/// first eight bytes as a big-endian number (zeros past its end), so prefixes sort as the keys
/// do: a search compares them where they lie together and reads a key from its row only where
/// two prefixes are equal. A bucket's entries carry each member's order key and row offset, so
/// a page reads its bucket's entries side by side and then only its rows. (Format 4, still read:
/// the key order held the ordinals alone, the bucket lists the ordinals alone.)
public enum SnapshotSection {
    /// Whether a section's name is a derived section's (`<table>#<what>`: a grouping, a key
    /// filter, a level's record), not a table's. Bytes, not Foundation's `contains`: its first
    /// call in a process initialized CoreFoundation's string search, 20 µs of opening a store
    /// with a delta.
    package static func isDerived(_ name: String) -> Bool { name.utf8.contains(UInt8(ascii: "#")) }

    /// How a section's index is laid out: the one written now, or format 4's (read, never
    /// written: a format-4 store is rewritten before its first commit).
    public enum Layout: Sendable {
        case formatFour
        case formatFive

        /// Bytes per entry of the key order, and where the ordinal lies in one.
        var keyEntrySize: Int {
            switch self {
            case .formatFour: 4
            case .formatFive: 12
            }
        }
        var keyOrdinalOffset: Int {
            switch self {
            case .formatFour: 0
            case .formatFive: 8
            }
        }
        /// Bytes per entry of the bucket lists (the ordinal first).
        var bucketEntrySize: Int {
            switch self {
            case .formatFour: 4
            case .formatFive: 20
            }
        }
    }

    /// A key's first eight bytes as one big-endian number, zeros past its end: prefixes
    /// order as the keys do (a smaller prefix, a smaller key), equal ones say nothing.
    @inline(__always) package static func keyPrefix(_ key: UnsafeRawBufferPointer) -> UInt64 {
        var prefix: UInt64 = 0
        for index in 0..<min(8, key.count) { prefix |= UInt64(key[index]) << (56 - 8 * UInt64(index)) }
        return prefix
    }

    /// What a table knows of its rows while writing them, for the index.
    public struct Columns {
        public var buckets: [UInt8] = []
        public var orders: [Int64] = []
        public var blobNames: Set<String> = []
        public var bucketCount = 0
        /// Each row's offset from the first row, and its key's bytes end to end (`keyEnds`:
        /// where each ends), recorded as the rows are written (`rowWritten`) so that they can
        /// go to the file before the index is made: a million-row section was held whole.
        @usableFromInline var offsets: [UInt64] = []
        @usableFromInline var keys: [UInt8] = []
        @usableFromInline var keyEnds: [Int] = []
        /// The first row's position in the writer.
        @usableFromInline var rowsStart = 0
        /// Where the index is made instead of these columns when its rows were moved to a
        /// scratch file (`ScratchIndex`): their number, not memory, is the limit.
        @usableFromInline var outside: ScratchIndex?

        public init() {}

        /// Room for `count` rows whose keys take about `keyBytes` each, made once: grown row
        /// by row, each column was copied at every doubling and held up to twice its size (a
        /// million-row import's first snapshot took 80 MB beside its rows).
        public mutating func reserve(rows count: Int, keyBytes: Int, indexed: Bool) {
            offsets.reserveCapacity(count)
            keys.reserveCapacity(count * keyBytes)
            keyEnds.reserveCapacity(count)
            if indexed {
                buckets.reserveCapacity(count)
                orders.reserveCapacity(count)
            }
        }

        /// Records the row just written at `start` (a writer position) and hands a full piece
        /// of the writer to its sink.
        @inlinable public mutating func rowWritten(from start: Int, in writer: inout ByteWriter) {
            if let outside {
                outside.record(
                    writer.bytes, at: start - writer.drained, offset: UInt64(start - rowsStart), bucket: nil, order: 0)
            } else {
                record(from: start - writer.drained, in: writer.bytes, position: start)
            }
            writer.drainIfFull()
        }

        /// Records the row just written at `start`, of a table with an index: its `bucket` and
        /// `order` key beside its offset and key.
        @inlinable public mutating func rowWritten(
            from start: Int, in writer: inout ByteWriter, bucket: UInt8, order: Int64
        ) {
            if let outside {
                outside.record(
                    writer.bytes, at: start - writer.drained, offset: UInt64(start - rowsStart), bucket: bucket,
                    order: order)
            } else {
                record(from: start - writer.drained, in: writer.bytes, position: start)
                buckets.append(bucket)
                orders.append(order)
            }
            writer.drainIfFull()
        }

        /// Records the row at `local` in `bytes` (at `position` in the writer): its offset and key.
        @inlinable mutating func record(from local: Int, in bytes: [UInt8], position: Int) {
            offsets.append(UInt64(position - rowsStart))
            let keyLength = Int(bytes[local]) | Int(bytes[local + 1]) << 8
            keys.append(contentsOf: bytes[(local + 2)..<(local + 2 + keyLength)])
            keyEnds.append(keys.count)
        }

        /// Records the `count` rows written whole in `writer` from `rowsStart`.
        mutating func recordRows(_ count: Int, in writer: ByteWriter) {
            offsets = []
            keys = []
            keyEnds = []
            var local = rowsStart - writer.drained
            for _ in 0..<count {
                record(from: local, in: writer.bytes, position: local + writer.drained)
                let keyLength = Int(writer.bytes[local]) | Int(writer.bytes[local + 1]) << 8
                let at = local + 2 + keyLength
                let rowLength = (0..<4).reduce(0) { $0 | Int(writer.bytes[at + $1]) << (8 * $1) }
                local = at + 4 + rowLength
            }
        }

        /// The `ordinal`th row's key.
        func key(_ ordinal: Int, in keys: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: keys[(ordinal == 0 ? 0 : keyEnds[ordinal - 1])..<keyEnds[ordinal]])
        }
    }

    /// Writes the count, the rows (`writeRows` writes them and returns how many) and the index:
    /// in memory, or with `scratch`'s files (`ScratchIndex`, for a table with an index when
    /// `indexed`; every row must then be recorded).
    /// Returns the key filter of the keys (for the table's `KeyFilter`).
    @discardableResult public static func write(
        into writer: inout ByteWriter, scratch: ScratchSpace? = nil, indexed: Bool = false,
        writeRows: (inout ByteWriter, inout Columns) -> Int
    ) -> KeyFilter.Bits {
        // The rows go to the writer's sink as they are written when the table records each
        // (`Columns.rowWritten`); otherwise (a one-row section) they are walked once written.
        let countAt = writer.position
        writer.u64(0)
        writer.u64(0)
        let rowsStart = writer.position
        var columns = Columns()
        columns.rowsStart = rowsStart
        if let scratch { columns.outside = ScratchIndex(space: scratch, indexed: indexed) }
        let count = writeRows(&writer, &columns)
        writer.patch(at: countAt, UInt64(count))
        writer.patch(at: countAt + 8, UInt64(writer.position - rowsStart))
        let indexAt = writer.position
        writer.u64(0)
        let filter: KeyFilter.Bits
        if let outside = columns.outside {
            precondition(outside.count == count, "a section made outside memory records every row")
            filter = outside.writeIndex(into: &writer, bucketCount: columns.bucketCount, blobNames: columns.blobNames)
        } else {
            if columns.offsets.count != count { columns.recordRows(count, in: writer) }
            filter = KeyFilter.Bits(prefixes: writeIndex(&writer, count: count, columns: &columns))
        }
        writer.patch(at: indexAt, UInt64(writer.position - indexAt - 8))
        return filter
    }

    private static func writeIndex(_ writer: inout ByteWriter, count: Int, columns: inout Columns) -> [UInt64] {
        // Sorted by each key's first eight bytes as one number, the whole keys compared only
        // where those are equal: a fraction of the cost of comparing bytes through offsets.
        var sorted: [(key: UInt64, value: Int)] = []
        sorted.reserveCapacity(count)
        columns.keys.withUnsafeBytes { keys in
            for ordinal in 0..<count { sorted.append((keyPrefix(columns.key(ordinal, in: keys)), ordinal)) }
            RadixSort.sortByKey(&sorted)
            // Runs of equal prefixes (rare but for long keys sharing a start) by whole key.
            var start = 0
            while start < count {
                var end = start + 1
                while end < count, sorted[end].key == sorted[start].key { end += 1 }
                if end - start > 1 {
                    sorted[start..<end].sort {
                        compare(columns.key($0.value, in: keys), columns.key($1.value, in: keys)) < 0
                    }
                }
                start = end
            }
        }
        // The keys are in order now: their bytes are no longer needed.
        columns.keys = []
        columns.keyEnds = []
        let indexed = columns.bucketCount > 0 && columns.buckets.count == count && columns.orders.count == count
        var lists: [[UInt32]] = []
        if indexed {
            // Largest key first, equal keys the later-added first: walked backwards it is
            // smallest first, equal keys the earlier-added first. Gathered latest first and
            // sorted stably by the order key turned around (sign bit flipped, then inverted).
            // Each bucket's room made once, and each sorted in place and let go once listed: a
            // bucket grown row by row, then copied to be sorted, held up to three times its size.
            var sizes = [Int](repeating: 0, count: columns.bucketCount)
            for bucket in columns.buckets { sizes[Int(bucket)] += 1 }
            var members = sizes.map { size in
                var list: [(key: UInt64, value: Int)] = []
                list.reserveCapacity(size)
                return list
            }
            for ordinal in stride(from: count - 1, through: 0, by: -1) {
                let order = ~(UInt64(bitPattern: columns.orders[ordinal]) ^ (1 << 63))
                members[Int(columns.buckets[ordinal])].append((order, ordinal))
            }
            lists.reserveCapacity(members.count)
            for bucket in members.indices {
                RadixSort.sortByKey(&members[bucket])
                lists.append(members[bucket].map { UInt32($0.value) })
                members[bucket] = []
            }
        }
        let prefixes = sorted.map(\.key)
        let sortedKeys = sorted.map { UInt32($0.value) }
        sorted = []
        writeIndex(
            &writer, offsets: columns.offsets, sortedKeys: sortedKeys,
            keyPrefixes: prefixes, buckets: indexed ? columns.buckets : [],
            orders: indexed ? columns.orders : [], bucketLists: lists
        ) { [blobNames = columns.blobNames] in writeBlobNames(blobNames.sorted(), into: &$0) }
        return prefixes
    }

    /// Writes an index from its columns: `sortedKeys` the ordinals in key order with
    /// `keyPrefixes` beside them, `orders` by ordinal, `bucketLists` empty for a table without
    /// buckets, else one list per bucket (its ordinals in the order the layout above states).
    static func writeIndex(
        _ writer: inout ByteWriter, offsets: [UInt64], sortedKeys: [UInt32], keyPrefixes: [UInt64],
        buckets: [UInt8], orders: [Int64], bucketLists: [[UInt32]], writeNames: (inout ByteWriter) -> Void
    ) {
        let count = offsets.count
        // No more than a piece or two when the index goes to a file as it is written.
        let whole = count * (bucketLists.isEmpty ? 20 : 49) + 64
        writer.reserve(writer.sink.map { min(whole, 2 * $0.pieceSize) } ?? whole)
        appendEntries(&writer, count: count, size: 8) { entry, position in
            entry.storeBytes(of: offsets[position].littleEndian, as: UInt64.self)
        }
        appendEntries(&writer, count: count, size: 12) { entry, position in
            entry.storeBytes(of: keyPrefixes[position].littleEndian, as: UInt64.self)
            entry.storeBytes(of: sortedKeys[position].littleEndian, toByteOffset: 8, as: UInt32.self)
        }
        writer.u32(UInt32(bucketLists.count))
        if !bucketLists.isEmpty {
            appendEntries(&writer, count: count, size: 1) { entry, position in
                entry.storeBytes(of: buckets[position], as: UInt8.self)
            }
            appendEntries(&writer, count: count, size: 8) { entry, position in
                entry.storeBytes(of: orders[position].littleEndian, as: Int64.self)
            }
            var start = 0
            for list in bucketLists {
                writer.u32(UInt32(start))
                start += list.count
            }
            writer.u32(UInt32(start))
            let members = bucketLists.flatMap { $0 }
            appendEntries(&writer, count: members.count, size: 20) { entry, position in
                let ordinal = Int(members[position])
                entry.storeBytes(of: members[position].littleEndian, as: UInt32.self)
                entry.storeBytes(of: orders[ordinal].littleEndian, toByteOffset: 4, as: Int64.self)
                entry.storeBytes(of: offsets[ordinal].littleEndian, toByteOffset: 12, as: UInt64.self)
            }
        }
        writer.drainIfFull()
        writeNames(&writer)
    }

    /// The blob names the rows refer to, sorted: a count, then each name.
    static func writeBlobNames(_ names: [String], into writer: inout ByteWriter) {
        writer.u32(UInt32(names.count))
        for name in names { writeBlobName(name, into: &writer) }
    }

    static func writeBlobName(_ name: String, into writer: inout ByteWriter) {
        let utf8 = Array(name.utf8.prefix(Int(UInt16.max)))
        writer.u16(UInt16(utf8.count))
        writer.bytes += utf8
        writer.drainIfFull()
    }

    /// A section's names without `released` and with `added` (a name in both stays), merged in
    /// order as they are read: none of the section's names is held (100,000 of them were 10 MB
    /// of strings for each compaction of a market's products).
    static func writeMergedBlobNames(
        _ base: SnapshotRows, released: Set<String>, added: Set<String>, into writer: inout ByteWriter
    ) {
        let countAt = writer.position
        writer.u32(0)
        let additions = added.sorted()
        var next = 0
        var count = 0
        func write(_ name: String) {
            writeBlobName(name, into: &writer)
            count += 1
        }
        base.forEachBlobName { name in
            while next < additions.count, additions[next] < name {
                write(additions[next])
                next += 1
            }
            if next < additions.count, additions[next] == name { next += 1 }
            if released.contains(name), !added.contains(name) { return }
            write(name)
        }
        while next < additions.count {
            write(additions[next])
            next += 1
        }
        writer.overwrite(at: countAt, with: (0..<4).map { UInt8(truncatingIfNeeded: UInt32(count) >> (8 * $0)) })
    }

    /// Appends `count` entries of `size` bytes, each written in place by `write` (given where
    /// the entry goes and its number), a piece at a time when the writer has a sink: the index
    /// of a million rows was 49 MB held whole before it went to the file.
    private static func appendEntries(
        _ writer: inout ByteWriter, count: Int, size: Int, write: (UnsafeMutableRawPointer, Int) -> Void
    ) {
        let perPiece = writer.sink.map { max(1, $0.pieceSize / size) } ?? count
        var first = 0
        while first < count {
            let last = min(count, first + perPiece)
            let start = writer.bytes.count
            writer.bytes.append(contentsOf: repeatElement(0, count: (last - first) * size))
            writer.bytes.withUnsafeMutableBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                for position in first..<last { write(base + start + (position - first) * size, position) }
            }
            writer.drainIfFull()
            first = last
        }
    }

    /// Byte-wise comparison, shorter first on a common prefix.
    package static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0, let left = a.baseAddress, let right = b.baseAddress {
            let result = memcmp(left, right, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }
}
