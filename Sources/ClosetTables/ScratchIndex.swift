import ClosetCore

/// A section's index (`SnapshotSection`) made outside memory, for a section of rows that were
/// moved to a scratch file (`SpilledRows`): each row's offset, bucket and order key go to
/// scratch bytes in row order (`ScratchBytes`), its key and its bucket entry to two external
/// sorts (`ScratchSort`), and the index is written from them, the key filter's bits set as the
/// key order goes by. What stays in memory is a few chunks and the filter (1.25 bytes a key):
/// made in memory, the index of ten million rows took about 70 bytes a row at the commit
/// (offsets, keys, sorts, prefixes). The bytes are the same either way.
@usableFromInline final class ScratchIndex {
    private let offsets: ScratchBytes
    private let keys: ScratchSort
    /// For a table with an index (nil without one). All `let`: a property read as an optional
    /// `var` was retained and released for every row.
    private let buckets: ScratchBytes?
    private let orders: ScratchBytes?
    private let entries: ScratchSort?
    private var bucketSizes: [Int] = []
    /// How many rows were recorded, and how many of them with a bucket.
    private(set) var count = 0
    private var bucketed = 0

    init(space: ScratchSpace, indexed: Bool) {
        let pieceSize = space.sortChunkBytes
        offsets = ScratchBytes(file: space.makeFile?(), pieceSize: pieceSize)
        keys = ScratchSort(file: space.makeFile?(), chunkBytes: space.sortChunkBytes)
        buckets = indexed ? ScratchBytes(file: space.makeFile?(), pieceSize: pieceSize) : nil
        orders = indexed ? ScratchBytes(file: space.makeFile?(), pieceSize: pieceSize) : nil
        entries = indexed ? ScratchSort(file: space.makeFile?(), chunkBytes: space.sortChunkBytes) : nil
    }

    /// Records the row whose frame starts at `local` in `bytes`, `offset` bytes after the first
    /// row; `bucket` and `order` when the table has an index.
    @usableFromInline func record(_ bytes: [UInt8], at local: Int, offset: UInt64, bucket: UInt8?, order: Int64) {
        let keyLength = Int(bytes[local]) | Int(bytes[local + 1]) << 8
        bytes.withUnsafeBytes { bytes in
            keys.add(
                key: UnsafeRawBufferPointer(rebasing: bytes[(local + 2)..<(local + 2 + keyLength)]),
                payload: UInt64(count))
        }
        offsets.append(littleEndian: offset)
        if let bucket { recordBucket(bucket, order: order, offset: offset) }
        count += 1
    }

    private func recordBucket(_ bucket: UInt8, order: Int64, offset: UInt64) {
        guard let buckets, let orders, let entries else { return }
        buckets.append(littleEndian: bucket)
        orders.append(littleEndian: order)
        if Int(bucket) >= bucketSizes.count {
            bucketSizes += repeatElement(0, count: Int(bucket) + 1 - bucketSizes.count)
        }
        bucketSizes[Int(bucket)] += 1
        // Sorted by bucket, then by order key descending (the key turned around: sign bit
        // flipped, then inverted), equal keys the later-added first (the ordinal inverted), all
        // big-endian so that bytes order as the numbers do.
        let turned = ~(UInt64(bitPattern: order) ^ (1 << 63))
        let ordinal = ~UInt32(truncatingIfNeeded: count)
        withUnsafeTemporaryAllocation(byteCount: 13, alignment: 8) { key in
            key.storeBytes(of: bucket, as: UInt8.self)
            key.storeBytes(of: turned.bigEndian, toByteOffset: 1, as: UInt64.self)
            key.storeBytes(of: ordinal.bigEndian, toByteOffset: 9, as: UInt32.self)
            entries.add(key: UnsafeRawBufferPointer(key), payload: offset)
        }
        bucketed += 1
    }

    /// Writes the index of the `count` rows recorded (as `SnapshotSection` lays it out, for a
    /// table of `bucketCount` buckets) and returns the key filter's bits.
    func writeIndex(into writer: inout ByteWriter, bucketCount: Int, blobNames: Set<String>) -> KeyFilter.Bits {
        // The chunks both sorts were gathering go out first: one merge runs at a time.
        keys.finishAdding()
        entries?.finishAdding()
        var filter = KeyFilter.Bits(keys: count)
        offsets.copy(into: &writer)
        var staging = EntryStaging(size: 12)
        keys.forEachSorted { key, ordinal in
            let prefix = SnapshotSection.keyPrefix(key)
            filter.place(prefix)
            staging.add(into: &writer) { entry in
                entry.storeBytes(of: prefix.littleEndian, as: UInt64.self)
                entry.storeBytes(of: UInt32(truncatingIfNeeded: ordinal).littleEndian, toByteOffset: 8, as: UInt32.self)
            }
        }
        staging.flush(into: &writer)
        let indexed = bucketCount > 0 && bucketed == count && bucketSizes.count <= bucketCount
        writer.u32(UInt32(indexed ? bucketCount : 0))
        if indexed, let buckets, let orders, let entries {
            buckets.copy(into: &writer)
            orders.copy(into: &writer)
            var start = 0
            for bucket in 0..<bucketCount {
                writer.u32(UInt32(start))
                start += bucket < bucketSizes.count ? bucketSizes[bucket] : 0
            }
            writer.u32(UInt32(start))
            var staging = EntryStaging(size: 20)
            entries.forEachSorted { key, offset in
                let turned = UInt64(bigEndian: key.loadUnaligned(fromByteOffset: 1, as: UInt64.self))
                let ordinal = ~UInt32(bigEndian: key.loadUnaligned(fromByteOffset: 9, as: UInt32.self))
                let order = Int64(bitPattern: ~turned ^ (1 << 63))
                staging.add(into: &writer) { entry in
                    entry.storeBytes(of: ordinal.littleEndian, as: UInt32.self)
                    entry.storeBytes(of: order.littleEndian, toByteOffset: 4, as: Int64.self)
                    entry.storeBytes(of: offset.littleEndian, toByteOffset: 12, as: UInt64.self)
                }
            }
            staging.flush(into: &writer)
        }
        writer.drainIfFull()
        SnapshotSection.writeBlobNames(blobNames.sorted(), into: &writer)
        return filter
    }
}

/// Fixed-size index entries gathered in a buffer and appended to a writer a piece at a time:
/// appended one integer at a time, ten million entries went through the writer's array
/// bytewise.
private struct EntryStaging {
    let size: Int
    var bytes: [UInt8]
    var used = 0

    init(size: Int) {
        self.size = size
        bytes = [UInt8](repeating: 0, count: size * 4096)
    }

    @inline(__always) mutating func add(into writer: inout ByteWriter, _ write: (UnsafeMutableRawPointer) -> Void) {
        if used + size > bytes.count { flush(into: &writer) }
        bytes.withUnsafeMutableBytes { bytes in
            if let base = bytes.baseAddress { write(base + used) }
        }
        used += size
    }

    mutating func flush(into writer: inout ByteWriter) {
        bytes.withUnsafeBytes { writer.bytes.append(contentsOf: UnsafeRawBufferPointer(rebasing: $0[0..<used])) }
        used = 0
        writer.drainIfFull()
    }
}
