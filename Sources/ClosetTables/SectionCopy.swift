import ClosetCore

/// A table's next snapshot section made from its section in the current snapshot and the
/// changes since (`Table.writeSectionCopying`): the rows that did not change are copied as
/// bytes, in runs, and the index is merged rather than sorted again. A compaction after a
/// thousand removes from 100,000 rows then costs a copy of the file, not decoding and encoding
/// every row. The bytes are exactly those `SnapshotSection.write` gives for the same rows
/// (tests compare the two).
@usableFromInline struct SectionCopy {
    /// A row written anew: its whole frame (`RowFrame`), its key's length in it, and what the
    /// index keeps of it.
    @usableFromInline struct FreshRow {
        @usableFromInline var frame: [UInt8]
        @usableFromInline var bucket: UInt8
        @usableFromInline var order: Int64

        @inlinable init(frame: [UInt8], bucket: UInt8, order: Int64) {
            self.frame = frame
            self.bucket = bucket
            self.order = order
        }

        /// The key's bytes within the frame (after its u16 length).
        func key<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
            frame.withUnsafeBytes { bytes in
                let length = Int(bytes.loadUnaligned(as: UInt16.self).littleEndian)
                return body(UnsafeRawBufferPointer(rebasing: bytes[2..<(2 + length)]))
            }
        }
    }

    @usableFromInline let base: SnapshotRows
    /// Snapshot rows that are gone from where they stood (removed, or removed and put back at
    /// the end), and rows whose key stays where it stood with a new row.
    @usableFromInline var dropped: [Int] = []
    @usableFromInline var replaced: [(ordinal: Int, row: FreshRow)] = []
    /// Rows after every snapshot row, with their place in insertion order.
    @usableFromInline var appended: [(position: Int, row: FreshRow)] = []
    /// Blobs the dropped and replaced rows named, and those the new rows name.
    @usableFromInline var releasedBlobs: Set<String> = []
    @usableFromInline var addedBlobs: Set<String> = []

    @inlinable init(base: SnapshotRows) { self.base = base }

    /// Writes the section; `bucketCount` is the table's index's (0: none), which the base
    /// section's must match (the caller checks). Returns the keys' prefixes in key order.
    @usableFromInline func write(into writer: inout ByteWriter, bucketCount: Int) -> [UInt64] {
        let base = base
        let count = base.count
        let dropped = dropped.sorted()
        let replaced = replaced.sorted { $0.ordinal < $1.ordinal }
        let appended = appended.sorted { $0.position < $1.position }
        let indexed = bucketCount > 0
        let newCount = count - dropped.count + appended.count

        // Every block of the section checked once here (a compaction has checked the whole
        // file already): the walks below read the mapping without asking per number.
        base.blocks?.verify(base.rowsStart..<base.end)
        let memory = base.memory
        func load<T: FixedWidthInteger>(_ type: T.Type, _ at: Int) -> T {
            T(littleEndian: memory.loadUnaligned(fromByteOffset: at, as: T.self))
        }
        let countAt = writer.position
        writer.u64(0)
        writer.u64(0)
        let rowsStart = writer.position
        // Each kept snapshot row's ordinal in the new section, and whether it is written anew
        // (its old place in the bucket lists no longer holds).
        let shift = OrdinalShift(count: count, dropping: dropped)
        var fresh = OrdinalSet(capacity: replaced.isEmpty ? 0 : count)
        var offsets: [UInt64] = []
        offsets.reserveCapacity(newCount)
        var buckets: [UInt8] = []
        var orders: [Int64] = []
        if indexed {
            buckets.reserveCapacity(newCount)
            orders.reserveCapacity(newCount)
        }
        // Streamed (a sink): a piece at a time, and the mapping's pages already copied given
        // back (a 55 MB snapshot's compaction otherwise made all of it this process's memory).
        let streaming = writer.sink != nil
        // Rows read before they are handed on and the mapping's pages given back (1 MB for
        // a file's 4 MB pieces).
        let step = max(1, (writer.sink?.pieceSize ?? 0) / 4)
        if !streaming { writer.reserve((base.rowsEnd - base.rowsStart) + newCount * 49 + 64) }
        var released = base.rowsStart

        // The rows, walked in file order (each frame checked against its offset, as `.check`
        // does); unchanged ones are copied a run at a time.
        var position = base.rowsStart
        var runStart = position
        var nextDropped = 0
        var nextReplaced = 0
        func flush(_ end: Int) {
            guard end > runStart else { return }
            base.blocks?.verify(runStart..<end)
            writer.bytes.append(
                contentsOf: UnsafeRawBufferPointer(rebasing: base.memory[runStart..<end]).assumingMemoryBound(
                    to: UInt8.self))
            guard streaming else { return }
            writer.drainIfFull()
            if end - released >= step {
                base.releasePages(released..<end)
                released = end
            }
        }
        for ordinal in 0..<count {
            if streaming, position - runStart >= step {
                flush(position)
                runStart = position
            }
            base.check(load(UInt64.self, base.offsetsStart + ordinal * 8) == UInt64(position - base.rowsStart))
            base.check(base.rowsEnd - position >= 6)
            let keyLength = Int(load(UInt16.self, position))
            base.check(base.rowsEnd - position - 6 >= keyLength)
            let rowLength = Int(load(UInt32.self, position + 2 + keyLength))
            base.check(base.rowsEnd - position - 6 - keyLength >= rowLength)
            let next = position + 6 + keyLength + rowLength
            defer { position = next }
            if nextDropped < dropped.count, dropped[nextDropped] == ordinal {
                nextDropped += 1
                flush(position)
                runStart = next
                continue
            }
            if nextReplaced < replaced.count, replaced[nextReplaced].ordinal == ordinal {
                let row = replaced[nextReplaced].row
                nextReplaced += 1
                flush(position)
                runStart = next
                fresh.insert(ordinal)
                offsets.append(UInt64(writer.position - rowsStart))
                writer.bytes += row.frame
                if indexed {
                    buckets.append(row.bucket)
                    orders.append(row.order)
                }
                continue
            }
            offsets.append(UInt64(writer.position + (position - runStart) - rowsStart))
            if indexed {
                let bucket = load(UInt8.self, base.bucketsStart + ordinal)
                base.check(Int(bucket) < bucketCount)
                buckets.append(bucket)
                orders.append(load(Int64.self, base.ordersStart + ordinal * 8))
            }
        }
        flush(position)
        base.check(position == base.rowsEnd)
        let kept = count - dropped.count
        if streaming { base.releasePages(released..<base.rowsEnd) }
        for (_, row) in appended {
            offsets.append(UInt64(writer.position - rowsStart))
            writer.bytes += row.frame
            writer.drainIfFull()
            if indexed {
                buckets.append(row.bucket)
                orders.append(row.order)
            }
        }
        writer.patch(at: countAt, UInt64(newCount))
        writer.patch(at: countAt + 8, UInt64(writer.position - rowsStart))

        // Keys: the snapshot's order without the dropped rows, each new key put where a binary
        // search of that order says (a new key is never equal to a kept one), each with its
        // prefix (a format-4 section has none: made from its key).
        let newKeys = appended.indices.sorted { a, b in
            appended[a].row.key { x in appended[b].row.key { y in SnapshotSection.compare(x, y) } } < 0
        }
        let newPrefixes = newKeys.map { appended[$0].row.key { SnapshotSection.keyPrefix($0) } }
        var sortedKeys: [UInt32] = []
        var prefixes: [UInt64] = []
        sortedKeys.reserveCapacity(newCount)
        prefixes.reserveCapacity(newCount)
        var nextNew = 0
        let places = newKeys.indices.map { number in
            appended[newKeys[number]].row.key { key in
                var (low, high) = (0, count)
                while low < high {
                    let middle = (low + high) / 2
                    var found: Range<Int>?
                    let order = base.compare(
                        at: middle, prefix: base.keyPrefix(at: middle) ?? 0, key, newPrefixes[number], &found)
                    if order < 0 { low = middle + 1 } else { high = middle }
                }
                return low
            }
        }
        func appendNew() {
            sortedKeys.append(UInt32(kept + newKeys[nextNew]))
            prefixes.append(newPrefixes[nextNew])
            nextNew += 1
        }
        for place in 0..<count {
            while nextNew < newKeys.count, places[nextNew] <= place { appendNew() }
            let ordinal = base.keyOrdinal(place)
            guard !shift.isDropped(ordinal) else { continue }
            sortedKeys.append(UInt32(shift.newOrdinal(ordinal)))
            prefixes.append(
                base.keyPrefix(at: place)
                    ?? SnapshotSection.keyPrefix(UnsafeRawBufferPointer(rebasing: base.memory[base.mappedKey(ordinal)]))
            )
        }
        while nextNew < newKeys.count { appendNew() }
        base.check(sortedKeys.count == newCount)

        // Buckets: each one's kept members in their order, merged with the rows written anew
        // (largest order key first, equal keys the later row first).
        var lists: [[UInt32]] = []
        if indexed {
            var freshByBucket = [[UInt32]](repeating: [], count: bucketCount)
            for (ordinal, row) in replaced {
                freshByBucket[Int(row.bucket)].append(UInt32(shift.newOrdinal(ordinal)))
            }
            for index in appended.indices {
                freshByBucket[Int(appended[index].row.bucket)].append(UInt32(kept + index))
            }
            func before(_ a: UInt32, _ b: UInt32) -> Bool {
                let (x, y) = (orders[Int(a)], orders[Int(b)])
                return x != y ? x > y : a > b
            }
            for bucket in 0..<bucketCount {
                let additions = freshByBucket[bucket].sorted(by: before)
                let members = base.bucketRange(bucket)
                var list: [UInt32] = []
                list.reserveCapacity(members.count + additions.count)
                var nextAddition = 0
                for member in members {
                    let old = Int(load(UInt32.self, base.bucketListsStart + member * base.layout.bucketEntrySize))
                    base.check(old < count)
                    guard !shift.isDropped(old), !fresh.contains(old) else { continue }
                    let ordinal = UInt32(shift.newOrdinal(old))
                    while nextAddition < additions.count, before(additions[nextAddition], ordinal) {
                        list.append(additions[nextAddition])
                        nextAddition += 1
                    }
                    list.append(ordinal)
                }
                list += additions[nextAddition...]
                lists.append(list)
            }
        }

        let indexAt = writer.position
        writer.u64(0)
        SnapshotSection.writeIndex(
            &writer, offsets: offsets, sortedKeys: sortedKeys, keyPrefixes: prefixes, buckets: buckets, orders: orders,
            bucketLists: lists
        ) { writer in
            SnapshotSection.writeMergedBlobNames(base, released: releasedBlobs, added: addedBlobs, into: &writer)
            if streaming { base.releasePages(base.blobNamesStart..<base.end) }
        }
        writer.patch(at: indexAt, UInt64(writer.position - indexAt - 8))
        return prefixes
    }
}
