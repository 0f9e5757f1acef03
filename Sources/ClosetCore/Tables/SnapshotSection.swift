#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One table's part of a snapshot, laid out to be read in place from a mapped file: the rows
/// (framed as `RowFrame` says), then an index that finds any row without decoding the others.
///
///     row count u64 | rows length u64 | rows | index length u64 | index
///     index = row offsets u64×n (from the first row) | ordinals sorted by key bytes u32×n
///             | bucket count u32
///             | (bucket count > 0: bucket u8×n | order key i64×n | bucket starts u32×(buckets+1)
///                | ordinals u32×n, bucket by bucket, each by order key descending, equal keys
///                  by ordinal descending: backwards, the exact ascending order)
///             | blob name count u32 | (length u16 | name)×
///
/// Ordinals are row positions in the section, which is insertion order.
public enum SnapshotSection {
    /// What a table knows of its rows while writing them, for the index.
    public struct Columns {
        public var buckets: [UInt8] = []
        public var orders: [Int64] = []
        public var blobNames: Set<String> = []
        public var bucketCount = 0

        public init() {}
    }

    /// Writes the count, the rows (`writeRows` writes them and returns how many) and the index.
    public static func write(
        into writer: inout ByteWriter, writeRows: (inout ByteWriter, inout Columns) -> Int
    ) {
        let countAt = writer.bytes.count
        writer.u64(0)
        writer.u64(0)
        let rowsStart = writer.bytes.count
        var columns = Columns()
        let count = writeRows(&writer, &columns)
        patch(&writer, at: countAt, UInt64(count))
        patch(&writer, at: countAt + 8, UInt64(writer.bytes.count - rowsStart))
        let indexAt = writer.bytes.count
        writer.u64(0)
        writeIndex(&writer, rowsStart: rowsStart, count: count, columns: columns)
        patch(&writer, at: indexAt, UInt64(writer.bytes.count - indexAt - 8))
    }

    static func patch(_ writer: inout ByteWriter, at position: Int, _ value: UInt64) {
        for shift in 0..<8 { writer.bytes[position + shift] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift))) }
    }

    private static func writeIndex(_ writer: inout ByteWriter, rowsStart: Int, count: Int, columns: Columns) {
        var offsets = [Int](repeating: 0, count: count)
        var position = rowsStart
        writer.bytes.withUnsafeBytes { bytes in
            for ordinal in 0..<count {
                offsets[ordinal] = position - rowsStart
                let keyLength = Int(bytes.loadUnaligned(fromByteOffset: position, as: UInt16.self).littleEndian)
                let rowLength = Int(
                    bytes.loadUnaligned(fromByteOffset: position + 2 + keyLength, as: UInt32.self).littleEndian)
                position += 2 + keyLength + 4 + rowLength
            }
        }
        // Sorted by each key's first eight bytes as one number, the whole keys compared only
        // where those are equal: a fraction of the cost of comparing bytes through offsets.
        var sorted: [(prefix: UInt64, ordinal: Int)] = []
        sorted.reserveCapacity(count)
        writer.bytes.withUnsafeBytes { bytes in
            func key(_ ordinal: Int) -> UnsafeRawBufferPointer {
                let at = rowsStart + offsets[ordinal]
                let length = Int(bytes.loadUnaligned(fromByteOffset: at, as: UInt16.self).littleEndian)
                return UnsafeRawBufferPointer(rebasing: bytes[(at + 2)..<(at + 2 + length)])
            }
            for ordinal in 0..<count {
                var prefix: UInt64 = 0
                for (index, byte) in key(ordinal).prefix(8).enumerated() {
                    prefix |= UInt64(byte) << (56 - 8 * UInt64(index))
                }
                sorted.append((prefix, ordinal))
            }
            sorted.sort { a, b in
                a.prefix != b.prefix ? a.prefix < b.prefix : compare(key(a.ordinal), key(b.ordinal)) < 0
            }
        }
        let indexed = columns.bucketCount > 0 && columns.buckets.count == count && columns.orders.count == count
        var lists: [[UInt32]] = []
        if indexed {
            var members = [[(order: Int64, ordinal: Int)]](repeating: [], count: columns.bucketCount)
            for ordinal in 0..<count {
                members[Int(columns.buckets[ordinal])].append((columns.orders[ordinal], ordinal))
            }
            // Largest key first, equal keys the later-added first: walked backwards it is
            // smallest first, equal keys the earlier-added first.
            lists = members.map { list in
                list.sorted { a, b in a.order != b.order ? a.order > b.order : a.ordinal > b.ordinal }
                    .map { UInt32($0.ordinal) }
            }
        }
        writeIndex(
            &writer, offsets: offsets.map { UInt64($0) }, sortedKeys: sorted.map { UInt32($0.ordinal) },
            buckets: indexed ? columns.buckets : [], orders: indexed ? columns.orders : [], bucketLists: lists,
            blobNames: columns.blobNames)
    }

    /// Writes an index from its columns: `bucketLists` is empty for a table without buckets,
    /// else one list per bucket (its ordinals in the order the layout above states).
    static func writeIndex(
        _ writer: inout ByteWriter, offsets: [UInt64], sortedKeys: [UInt32], buckets: [UInt8], orders: [Int64],
        bucketLists: [[UInt32]], blobNames: Set<String>
    ) {
        writer.bytes.reserveCapacity(writer.bytes.count + offsets.count * 25 + 64)
        writer.column(offsets)
        writer.column(sortedKeys)
        writer.u32(UInt32(bucketLists.count))
        if !bucketLists.isEmpty {
            writer.bytes += buckets
            writer.column(orders)
            var start = 0
            for list in bucketLists {
                writer.u32(UInt32(start))
                start += list.count
            }
            writer.u32(UInt32(start))
            for list in bucketLists { writer.column(list) }
        }
        let names = blobNames.sorted()
        writer.u32(UInt32(names.count))
        for name in names {
            let utf8 = Array(name.utf8.prefix(Int(UInt16.max)))
            writer.u16(UInt16(utf8.count))
            writer.bytes += utf8
        }
    }

    /// Byte-wise comparison, shorter first on a common prefix.
    package static func compare(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Int {
        let common = min(a.count, b.count)
        if common > 0 {
            let result = memcmp(a.baseAddress!, b.baseAddress!, common)
            if result != 0 { return Int(result) }
        }
        return a.count - b.count
    }
}
