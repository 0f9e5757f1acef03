import ClosetCore

/// A table's section of a mapped snapshot (`SnapshotSection`), read in place: a row is
/// decoded only when asked for, a key is found by binary search, and an indexed table's
/// buckets are counted and paged without touching rows. Opening reads only the section's
/// lengths; each offset and ordinal is checked where it is read.
public final class SnapshotRows {
    /// Keeps the mapping alive while rows are read from it.
    let owner: AnyObject
    let memory: UnsafeRawBufferPointer
    public let count: Int
    let rowsStart: Int
    let rowsEnd: Int
    /// Format 5's (key prefixes and bucket entries with order keys and offsets) or format 4's.
    let layout: SnapshotSection.Layout
    let offsetsStart: Int
    let sortedKeysStart: Int
    public let bucketCount: Int
    let bucketsStart: Int
    let ordersStart: Int
    let bucketStartsStart: Int
    let bucketListsStart: Int
    /// Where the names of the blobs the rows refer to lie (count u32, then each name).
    let blobNamesStart: Int
    /// Blobs the rows refer to: read when first asked for (the first writer's clean-up of
    /// leftover pictures, `.check`), not at open: 100,000 pictures' names are 5 MB of text.
    public private(set) lazy var blobNames: [String] = readBlobNames()
    /// Where the section ends in the file.
    public let end: Int
    /// Reads file bytes without the mapping (`pread`), for rows: a fault on a mapped file
    /// can map a whole large folio (megabytes) to read one row. Nil: read the mapping.
    let fetch: ((Range<Int>) -> [UInt8]?)?
    /// The last block read whole to be checked (`bytes`): the rows read next often lie in it.
    var heldBlock: (range: Range<Int>, bytes: [UInt8])?
    /// The snapshot's blocks, each checked the first time a read here touches it (nil: the
    /// whole file was checked before, or it is no file).
    public let blocks: SnapshotBlocks?

    /// Opens the section at `start`; nil if anything in it does not add up.
    public init?(
        memory: UnsafeRawBufferPointer, owner: AnyObject, start: Int, fetch: ((Range<Int>) -> [UInt8]?)? = nil,
        blocks: SnapshotBlocks? = nil, layout: SnapshotSection.Layout = .formatFive
    ) {
        self.owner = owner
        self.layout = layout
        self.memory = memory
        self.fetch = fetch
        self.blocks = blocks
        var reader = RawReader(memory: memory, position: start, blocks: blocks)
        guard let count = reader.u64(), let rowsLength = reader.u64(), count <= UInt64(memory.count),
            rowsLength <= UInt64(memory.count), let rowsStart = reader.skip(Int(rowsLength))
        else { return nil }
        self.count = Int(count)
        self.rowsStart = rowsStart
        let rowsEnd = rowsStart + Int(rowsLength)
        self.rowsEnd = rowsEnd
        guard let indexLength = reader.u64(), indexLength <= UInt64(memory.count - reader.position) else { return nil }
        end = reader.position + Int(indexLength)
        guard let offsets = reader.skip(self.count * 8), let sorted = reader.skip(self.count * layout.keyEntrySize),
            let buckets = reader.u32(), buckets <= 256
        else { return nil }
        offsetsStart = offsets
        sortedKeysStart = sorted
        bucketCount = Int(buckets)
        if bucketCount > 0 {
            guard let bucketsAt = reader.skip(self.count), let orders = reader.skip(self.count * 8),
                let starts = reader.skip((bucketCount + 1) * 4),
                let lists = reader.skip(self.count * layout.bucketEntrySize)
            else { return nil }
            bucketsStart = bucketsAt
            ordersStart = orders
            bucketStartsStart = starts
            bucketListsStart = lists
        } else {
            (bucketsStart, ordersStart, bucketStartsStart, bucketListsStart) = (0, 0, 0, 0)
        }
        guard reader.position + 4 <= end else { return nil }
        blobNamesStart = reader.position
        // Offsets, ordinals and blob names are checked where they are read, not here: opening
        // touches no row (a check that fails then is damage, said by name).
    }

    /// Gives back the pages of `range` a long read made part of this process's memory (a
    /// compaction copying every row), when the rows lie in a mapped file: read again from
    /// the file if anything reads them later.
    func releasePages(_ range: Range<Int>) {
        (owner as? PageReleasing)?.releasePages(range)
    }

    /// The blob names, each checked to lie inside the section.
    private func readBlobNames() -> [String] {
        var names: [String] = []
        forEachBlobName { names.append($0) }
        return names
    }

    /// How many blob names the section lists.
    @usableFromInline var blobNameCount: Int {
        blocks?.verify(blobNamesStart, 4)
        check(end - blobNamesStart >= 4)
        return Int(load(UInt32.self, blobNamesStart))
    }

    /// Each blob name the section lists, in its order (sorted), none of them kept: a
    /// compaction merges them with the changes' names instead of holding 100,000 strings.
    func forEachBlobName(_ body: (String) -> Void) {
        // A damaged block under them is said as such, not as an index that does not add up.
        blocks?.verify(blobNamesStart, end - blobNamesStart)
        var reader = RawReader(
            memory: UnsafeRawBufferPointer(rebasing: memory[..<end]), position: blobNamesStart, blocks: blocks)
        guard let count = reader.u32(), Int(count) <= end - blobNamesStart else {
            check(false)
            return
        }
        for _ in 0..<count {
            guard let length = reader.u16(), let at = reader.skip(Int(length)) else {
                check(false)
                return
            }
            body(String(decoding: UnsafeRawBufferPointer(rebasing: memory[at..<(at + Int(length))]), as: UTF8.self))
        }
        check(reader.position == end)
    }

    /// Stops on a section whose checksum holds but whose index does not add up: only a file
    /// made to look valid gets here, and reading on would show rows that are not there.
    @inline(__always) func check(_ condition: Bool) {
        if !condition { UnreadableRow.found("a snapshot section passes its checksum but its index does not add up") }
    }

    @inline(__always) func load<T: FixedWidthInteger>(_ type: T.Type, _ at: Int) -> T {
        blocks?.verify(at, MemoryLayout<T>.size)
        return T(littleEndian: memory.loadUnaligned(fromByteOffset: at, as: T.self))
    }

    /// File bytes, their blocks checked first: with `pread` when the file can be read so,
    /// else copied from the mapping.
    func bytes(_ range: Range<Int>) -> [UInt8]? {
        guard let fetch else {
            blocks?.verify(range)
            return Array(memory[range])
        }
        if let held = heldBlock, range.lowerBound >= held.range.lowerBound, range.upperBound <= held.range.upperBound {
            return Array(
                held.bytes[(range.lowerBound - held.range.lowerBound)..<(range.upperBound - held.range.lowerBound)])
        }
        if let blocks, let block = blocks.uncheckedBlock(holding: range) {
            // The block's first read: checking it reads all of it anyway, so it is read once,
            // checked from those bytes, and the range taken from them (one `pread`, not two);
            // it is kept for the rows after it there (a group's rows, in file order).
            guard let fetched = fetch(block) else { return nil }
            fetched.withUnsafeBytes { blocks.verify(block.lowerBound, read: $0) }
            guard fetched.count == block.count else { return nil }
            heldBlock = (block, fetched)
            return Array(fetched[(range.lowerBound - block.lowerBound)..<(range.upperBound - block.lowerBound)])
        }
        // Checked from the bytes read: the mapping's pages are not touched.
        guard let fetched = fetch(range) else { return nil }
        if let blocks { fetched.withUnsafeBytes { blocks.verify(range.lowerBound, read: $0) } }
        return fetched
    }

    /// Row `ordinal`'s bytes where they lie in the mapping, its blocks checked first: for a
    /// small row read again and again (a key filter's), where a `pread` and an array each cost
    /// more than reading it.
    @usableFromInline func withRowInPlace<T>(_ ordinal: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        let start = frameStart(ordinal)
        let end = ordinal + 1 < count ? frameStart(ordinal + 1) : rowsEnd
        check(end - start >= 6 && end <= rowsEnd)
        blocks?.verify(start..<end)
        let keyLength = Int(load(UInt16.self, start))
        check(end - start - 6 >= keyLength)
        let rowLength = Int(load(UInt32.self, start + 2 + keyLength))
        check(start + 6 + keyLength + rowLength == end)
        return body(UnsafeRawBufferPointer(rebasing: memory[(start + 6 + keyLength)..<end]))
    }

    /// The row whose frame starts at `offset` (as an index entry says, format 5), where it lies
    /// in the mapping, its blocks checked first: no offsets column read.
    @usableFromInline func withRowInPlace<T>(offset: Int, _ body: (UnsafeRawBufferPointer) -> T) -> T {
        check(offset >= 0 && offset <= rowsEnd - rowsStart && rowsEnd - rowsStart - offset >= 6)
        let start = rowsStart + offset
        let keyLength = Int(load(UInt16.self, start))
        check(rowsEnd - start - 6 >= keyLength)
        let rowLength = Int(load(UInt32.self, start + 2 + keyLength))
        check(rowsEnd - start - 6 - keyLength >= rowLength)
        let end = start + 6 + keyLength + rowLength
        blocks?.verify(start..<end)
        return body(UnsafeRawBufferPointer(rebasing: memory[(start + 6 + keyLength)..<end]))
    }

    /// How many bytes the rows take.
    @usableFromInline var rowsByteCount: Int { rowsEnd - rowsStart }

    /// Up to this many bytes of rows, a walk of a whole table in another order than theirs (a
    /// listing, an export) reads them where they lie in the mapping: its batches' span reads
    /// each copied the whole region again (seventeen times at 100,000 rows), where the mapping's
    /// pages are touched once and stay few. Past it, the rows are read through the file and
    /// the mapping's pages left alone (they would stay part of the process).
    @usableFromInline static var inPlaceWalkLimit: Int { 32 << 20 }
    /// A walk's batch of at least this many rows is a whole table's (a listing's, an export's)
    /// and reads in place under `inPlaceWalkLimit`; a page of twenty reads its rows alone.
    @usableFromInline static var inPlaceWalkBatch: Int { 4096 }

    /// The rows region, copied (materializing a table decodes from it).
    public func copyRows() -> [UInt8] {
        let bytes = bytes(rowsStart..<rowsEnd)
        check(bytes?.count == rowsEnd - rowsStart)
        return bytes ?? []
    }

    /// Row `ordinal`'s whole frame (key length, key, row length, row), and where its key and
    /// row lie in it: read with one `pread` when the file can be, else from the mapping. The
    /// frame ends where the next row's offset says (the last, where the rows end); its own
    /// lengths must say the same.
    @usableFromInline package func frameBytes(_ ordinal: Int) -> (bytes: [UInt8], key: Range<Int>, row: Range<Int>) {
        let start = frameStart(ordinal)
        let end = ordinal + 1 < count ? frameStart(ordinal + 1) : rowsEnd
        check(end - start >= 6)
        let fetched = self.bytes(start..<end)
        check(fetched?.count == end - start)
        let bytes = fetched ?? []
        let keyLength = Int(bytes[0]) | Int(bytes[1]) << 8
        check(bytes.count - 6 >= keyLength)
        var rowLength = 0
        for shift in 0..<4 { rowLength |= Int(bytes[2 + keyLength + shift]) << (8 * shift) }
        check(bytes.count - 6 - keyLength == rowLength)
        return (bytes, 2..<(2 + keyLength), (6 + keyLength)..<bytes.count)
    }

    /// A frame read from where an entry of the index says it starts (format 5's bucket
    /// entries carry it), its end found from its own lengths: one `pread`, usually, and no
    /// read of the offsets column. The lengths are checked against the rows' end.
    func frameBytes(from offset: Int) -> (bytes: [UInt8], key: Range<Int>, row: Range<Int>) {
        check(offset >= 0 && offset <= rowsEnd - rowsStart && rowsEnd - rowsStart - offset >= 6)
        let start = rowsStart + offset
        // Most rows are shorter than twice the section's average frame (at most 512 bytes); a
        // longer one is read on in a second `pread`. The kernel's copy of a fixed 512 bytes was a
        // third of a listing's reading of 100-byte rows one by one. Not past the end of the block
        // the row starts in (unless its lengths lie beyond it): a guess that reached into the
        // next block would check that block for nothing.
        let guess = min(512, max(64, 2 * (rowsEnd - rowsStart) / max(1, count)))
        var end = min(rowsEnd, start + guess)
        if let blocks, start >= blocks.bodyStart {
            let blockEnd = blocks.block((start - blocks.bodyStart) >> blocks.shift).upperBound
            if blockEnd - start >= 6 { end = min(end, blockEnd) }
        }
        var fetched = bytes(start..<end) ?? []
        check(fetched.count == end - start)
        let keyLength = Int(fetched[0]) | Int(fetched[1]) << 8
        check(rowsEnd - start - 6 >= keyLength)
        if fetched.count < 6 + keyLength {
            end = start + 6 + keyLength
            fetched = bytes(start..<end) ?? []
            check(fetched.count == end - start)
        }
        var rowLength = 0
        for shift in 0..<4 { rowLength |= Int(fetched[2 + keyLength + shift]) << (8 * shift) }
        check(rowsEnd - start - 6 - keyLength >= rowLength)
        let frameEnd = start + 6 + keyLength + rowLength
        if frameEnd > end {
            let rest = bytes(end..<frameEnd)
            check(rest?.count == frameEnd - end)
            fetched += rest ?? []
        } else {
            fetched.removeLast(end - frameEnd)
        }
        return (fetched, 2..<(2 + keyLength), (6 + keyLength)..<fetched.count)
    }

    /// The rows whose frames start at these offsets (index entries say where), read together:
    /// a page of a list is mostly rows added one after another, so one `pread` of the span
    /// they lie in (when it is short) replaces one or two per row. Each frame's lengths are
    /// checked as `frameBytes(from:)` checks them; a frame reaching past the span is read alone.
    /// Offsets further apart than `spanRead` are read one by one, unless they are many for the
    /// bytes they lie in (a whole table in its index order): then in the order they lie, a span
    /// at a time, each span read once.
    public func rowsBytes(at offsets: [Int], spanRead: Int = 64 << 10) -> [[UInt8]] {
        guard offsets.count > 1, let low = offsets.min(), let high = offsets.max(), low >= 0,
            high <= rowsEnd - rowsStart
        else { return offsets.map { rowBytes(0, offset: $0) } }
        guard high - low > spanRead else { return rowsBytes(at: offsets, in: low..<(high + 1024)) }
        // Dense: at least eight rows a span on average, so a span read gives many rows.
        guard offsets.count >= 8 * ((high - low) / max(1, spanRead) + 1) else {
            return offsets.map { rowBytes(0, offset: $0) }
        }
        var rows = [[UInt8]](repeating: [], count: offsets.count)
        let placed = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var next = 0
        while next < placed.count {
            let first = offsets[placed[next]]
            var last = next
            while last + 1 < placed.count, offsets[placed[last + 1]] - first <= spanRead { last += 1 }
            let window = placed[next...last]
            let read = rowsBytes(at: window.map { offsets[$0] }, in: first..<(offsets[placed[last]] + 1024))
            for (index, bytes) in zip(window, read) { rows[index] = bytes }
            next = last + 1
        }
        return rows
    }

    /// The rows at `offsets`, all within `span` (relative to the rows' start), from one read of
    /// the span; a frame reaching past it read alone.
    private func rowsBytes(at offsets: [Int], in span: Range<Int>) -> [[UInt8]] {
        let low = span.lowerBound
        let start = rowsStart + low
        let end = min(rowsEnd, rowsStart + span.upperBound)
        let fetched = bytes(start..<end)
        check(fetched?.count == end - start)
        let span = fetched ?? []
        return offsets.map { offset in
            let at = offset - low
            guard span.count - at >= 6 else { return rowBytes(0, offset: offset) }
            let keyLength = Int(span[at]) | Int(span[at + 1]) << 8
            check(rowsEnd - start - at - 6 >= keyLength)
            guard span.count - at - 6 >= keyLength else { return rowBytes(0, offset: offset) }
            var rowLength = 0
            for shift in 0..<4 { rowLength |= Int(span[at + 2 + keyLength + shift]) << (8 * shift) }
            check(rowsEnd - start - at - 6 - keyLength >= rowLength)
            let rowStart = at + 6 + keyLength
            guard span.count - rowStart >= rowLength else { return rowBytes(0, offset: offset) }
            return Array(span[rowStart..<(rowStart + rowLength)])
        }
    }

    /// Where row `ordinal`'s frame starts in the file (its offset checked).
    func frameStart(_ ordinal: Int) -> Int {
        check(ordinal >= 0 && ordinal < count)
        let offset = load(UInt64.self, offsetsStart + ordinal * 8)
        check(offset <= UInt64(rowsEnd - rowsStart) && rowsEnd - rowsStart - Int(offset) >= 6)
        return rowsStart + Int(offset)
    }

    /// Every row's bytes in ordinal order (the order they were written), read a span of about
    /// `span` bytes at a time: a whole section walked without copying it whole. Each frame's
    /// lengths are checked against where the next one starts.
    public func forEachRowBytes(span: Int = 1 << 20, _ body: (_ ordinal: Int, _ row: [UInt8]) throws -> Void) rethrows {
        try forEachRowBuffer(span: span) { ordinal, row in try body(ordinal, Array(row)) }
    }

    /// `forEachRowBytes` without copying each row: `row` lies in the span read and is good only
    /// inside `body` (a scan that tests bytes and keeps a count).
    public func forEachRowBuffer(
        span: Int = 1 << 20, _ body: (_ ordinal: Int, _ row: UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        try walkFrames(span: span) { ordinal, _, row in try body(ordinal, row) }
    }

    /// `forEachRowBuffer` with each row's key (in the same span read, as good only inside `body`).
    public func forEachFrameBuffer(
        span: Int = 1 << 20,
        _ body: (_ ordinal: Int, _ key: UnsafeRawBufferPointer, _ row: UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        try walkFrames(span: span, body)
    }

    // Inlined into both walks, so a scan's row-only body is not called through another closure.
    @inline(__always) private func walkFrames(
        span: Int,
        _ body: (_ ordinal: Int, _ key: UnsafeRawBufferPointer, _ row: UnsafeRawBufferPointer) throws -> Void
    ) rethrows {
        var first = 0
        var released = 0
        while first < count {
            let last = try readFrames(from: first, span: span, body)
            // The offsets read so far are not read again: their pages are given back.
            releasePages((offsetsStart + released * 8)..<(offsetsStart + last * 8))
            released = last
            first = last
        }
    }

    /// Reads the frames from `first` that start within `span` bytes of it (at least one) in one
    /// `pread`, handing each one's key and row as they lie in it to `body`; returns the ordinal
    /// after the last. Each frame's lengths are checked against where the next one starts.
    @inline(__always) private func readFrames(
        from first: Int, span: Int,
        _ body: (_ ordinal: Int, _ key: UnsafeRawBufferPointer, _ row: UnsafeRawBufferPointer) throws -> Void
    ) rethrows -> Int {
        let start = frameStart(first)
        var last = first + 1
        while last < count, frameStart(last) - start < span { last += 1 }
        let end = last < count ? frameStart(last) : rowsEnd
        check(end >= start)
        let fetched = bytes(start..<end) ?? []
        check(fetched.count == end - start)
        try fetched.withUnsafeBytes { fetched in
            var at = 0
            for ordinal in first..<last {
                let frameEnd = ordinal + 1 < last ? frameStart(ordinal + 1) - start : fetched.count
                check(frameEnd - at >= 6 && frameEnd <= fetched.count)
                let keyLength = Int(fetched[at]) | Int(fetched[at + 1]) << 8
                check(frameEnd - at - 6 >= keyLength)
                let lengthAt = at + 2 + keyLength
                let rowLength = Int(fetched.loadUnaligned(fromByteOffset: lengthAt, as: UInt32.self).littleEndian)
                check(lengthAt + 4 + rowLength == frameEnd)
                try body(
                    ordinal, UnsafeRawBufferPointer(rebasing: fetched[(at + 2)..<lengthAt]),
                    UnsafeRawBufferPointer(rebasing: fetched[(lengthAt + 4)..<frameEnd]))
                at = frameEnd
            }
        }
        return last
    }

    /// The bytes of the rows from `first` that start within `span` bytes of it (at least one),
    /// each copied for its codec, read in one `pread`: for a walk that visits these rows among
    /// others' (the level below's among the snapshot's), where reading them one at a time took a
    /// `pread` each.
    @usableFromInline func rowsBytes(from first: Int, span: Int) -> [[UInt8]] {
        var rows: [[UInt8]] = []
        _ = readFrames(from: first, span: span) { _, _, row in rows.append(Array(row)) }
        return rows
    }

    /// Row `ordinal`'s bytes, copied for its codec.
    /// `offset`: where its frame starts, when an index entry said so (nil: from the offsets).
    public func rowBytes(_ ordinal: Int, offset: Int? = nil) -> [UInt8] {
        let frame = offset.map { frameBytes(from: $0) } ?? frameBytes(ordinal)
        return Array(frame.bytes[frame.row])
    }

    /// The ordinals of many keys at once (nil where absent). Searched in key order, each
    /// search remembering the entries it probed at each depth: the next key's search takes the
    /// same halvings until it parts from the last one's, so those probes are not read again
    /// (a journal's keys at open cost a little more than one search, not one each). Probes
    /// compare key prefixes where they lie together (format 5) and read a row's key only where
    /// the prefixes are equal: a search of a hundred keys reads the key order, not a row frame
    /// in every block of the rows.
    public func ordinals(ofKeys keys: [[UInt8]]) -> [Int?] {
        var results = [Int?](repeating: nil, count: keys.count)
        let order = keys.indices.sorted { a, b in
            keys[a].withUnsafeBytes { x in keys[b].withUnsafeBytes { y in SnapshotSection.compare(x, y) < 0 } }
        }
        // The last search's probes by depth: memory is one path, O(log n). Keys are compared
        // where they lie in the mapping (a search of many keys reads thousands of them: a
        // `pread` and an array each cost more than the comparison).
        var path: [(middle: Int, prefix: UInt64, key: Range<Int>?)] = []
        path.reserveCapacity(64)
        for index in order {
            keys[index].withUnsafeBytes { probe in
                let probePrefix = SnapshotSection.keyPrefix(probe)
                var low = 0
                var high = count
                var depth = 0
                while low < high {
                    let middle = (low + high) / 2
                    if depth >= path.count || path[depth].middle != middle {
                        path.removeSubrange(min(depth, path.count)...)
                        path.append((middle, keyPrefix(at: middle) ?? 0, nil))
                    }
                    let order = compare(at: middle, prefix: path[depth].prefix, probe, probePrefix, &path[depth].key)
                    if order == 0 {
                        results[index] = keyOrdinal(middle)
                        return
                    }
                    if order < 0 { low = middle + 1 } else { high = middle }
                    depth += 1
                }
            }
        }
        return results
    }

    /// The ordinal at `position` of the key order, checked.
    @inline(__always) func keyOrdinal(_ position: Int) -> Int {
        let ordinal = Int(load(UInt32.self, sortedKeysStart + position * layout.keyEntrySize + layout.keyOrdinalOffset))
        check(ordinal < count)
        return ordinal
    }

    /// The key prefix at `position` of the key order (nil in format 4, which has none).
    @inline(__always) func keyPrefix(at position: Int) -> UInt64? {
        switch layout {
        case .formatFour: nil
        case .formatFive: load(UInt64.self, sortedKeysStart + position * 12)
        }
    }

    /// The key at `position` of the key order against `probe`: by prefix when they differ,
    /// else by the whole key (read once into `key`, kept for the next comparison).
    @inline(__always) func compare(
        at position: Int, prefix: UInt64, _ probe: UnsafeRawBufferPointer, _ probePrefix: UInt64,
        _ key: inout Range<Int>?
    ) -> Int {
        if layout == .formatFive, prefix != probePrefix { return prefix < probePrefix ? -1 : 1 }
        let range = key ?? mappedKey(keyOrdinal(position))
        key = range
        return SnapshotSection.compare(UnsafeRawBufferPointer(rebasing: memory[range]), probe)
    }

    /// Where row `ordinal`'s key lies in the mapping, its blocks checked.
    func mappedKey(_ ordinal: Int) -> Range<Int> {
        let at = frameStart(ordinal)
        let length = Int(load(UInt16.self, at))
        check(rowsEnd - at - 6 >= length)
        blocks?.verify(at + 2, length)
        return (at + 2)..<(at + 2 + length)
    }

    /// The ordinal of the row with these key bytes (a binary search of the key order).
    public func ordinal(ofKey key: [UInt8]) -> Int? {
        key.withUnsafeBytes { probe in
            let probePrefix = SnapshotSection.keyPrefix(probe)
            var low = 0
            var high = count
            while low < high {
                let middle = (low + high) / 2
                var found: Range<Int>?
                let order = compare(at: middle, prefix: keyPrefix(at: middle) ?? 0, probe, probePrefix, &found)
                if order == 0 { return keyOrdinal(middle) }
                if order < 0 { low = middle + 1 } else { high = middle }
            }
            return nil
        }
    }

    public func bucket(_ ordinal: Int) -> Int {
        check(ordinal >= 0 && ordinal < count && bucketCount > 0)
        let bucket = Int(load(UInt8.self, bucketsStart + ordinal))
        check(bucket < bucketCount)
        return bucket
    }

    public func order(_ ordinal: Int) -> Int64 {
        check(ordinal >= 0 && ordinal < count && bucketCount > 0)
        return load(Int64.self, ordersStart + ordinal * 8)
    }

    /// Where a bucket's ordinals lie in the bucket lists.
    func bucketRange(_ bucket: Int) -> Range<Int> {
        check(bucket >= 0 && bucket < bucketCount)
        let start = Int(load(UInt32.self, bucketStartsStart + bucket * 4))
        let end = Int(load(UInt32.self, bucketStartsStart + (bucket + 1) * 4))
        check(start <= end && end <= count)
        return start..<end
    }

    /// How many rows a bucket holds.
    public func bucketSize(_ bucket: Int) -> Int { bucketRange(bucket).count }

    /// Gives back the pages of a bucket's entries at these indexes, passed by a walk.
    func releaseBucketEntries(_ bucket: Int, _ indexes: Range<Int>) {
        let range = bucketRange(bucket)
        let start = bucketListsStart + (range.lowerBound + indexes.lowerBound) * layout.bucketEntrySize
        releasePages(start..<(start + indexes.count * layout.bucketEntrySize))
    }

    /// How many rows a walk in another order than theirs (the index's) reads together: enough
    /// that each 64 KB span of the rows holds about 32 of them, so `rowsBytes(at:)` reads the
    /// spans, each once a batch, instead of a `pread` a row; between 4,096 and 65,536 rows. Past
    /// that (rows of more than 128 MB) a batch is read a row at a time whatever its size, so it
    /// stays at 4,096: 65,536 decoded rows were a third of a 10M-row listing's memory.
    @usableFromInline var spanBatch: Int {
        let wanted = 32 * ((rowsEnd - rowsStart) / (64 << 10) + 1)
        return wanted <= 1 << 16 ? max(4096, wanted) : 4096
    }

    /// Whether the bucket entries say where each row's frame starts (format 5), so a walk's
    /// rows can be read through the file (`IndexedRowList`).
    @usableFromInline var entriesSayWhereFramesStart: Bool { layout == .formatFive }

    /// The `index`-th member of a bucket, by order key descending (ties by ordinal): its
    /// ordinal, order key and, in format 5, where its frame starts (read beside the ordinal;
    /// format 4 reads the order key from its column and leaves the offset to the offsets).
    package func bucketMember(_ bucket: Int, _ index: Int) -> (ordinal: Int, order: Int64, offset: Int?) {
        let range = bucketRange(bucket)
        check(index >= 0 && index < range.count)
        let at = bucketListsStart + (range.lowerBound + index) * layout.bucketEntrySize
        let ordinal = Int(load(UInt32.self, at))
        check(ordinal < count)
        switch layout {
        case .formatFour:
            return (ordinal, order(ordinal), nil)
        case .formatFive:
            let offset = load(UInt64.self, at + 12)
            check(offset <= UInt64(rowsEnd - rowsStart))
            return (ordinal, load(Int64.self, at + 4), Int(offset))
        }
    }
}

/// Bounds-checked little-endian reads from raw memory: nil instead of a trap.
struct RawReader {
    let memory: UnsafeRawBufferPointer
    var position: Int
    /// Checked before each number is read (not before what is skipped): a block that fails
    /// reads as nil, as a number past the end does.
    let blocks: SnapshotBlocks?

    mutating func skip(_ count: Int) -> Int? {
        guard count >= 0, count <= memory.count - position else { return nil }
        defer { position += count }
        return position
    }

    mutating func u16() -> UInt16? {
        skip(2).flatMap { at in (blocks?.holds(at, 2) ?? true) ? at : nil }.map {
            UInt16(littleEndian: memory.loadUnaligned(fromByteOffset: $0, as: UInt16.self))
        }
    }

    mutating func u32() -> UInt32? {
        skip(4).flatMap { at in (blocks?.holds(at, 4) ?? true) ? at : nil }.map {
            UInt32(littleEndian: memory.loadUnaligned(fromByteOffset: $0, as: UInt32.self))
        }
    }

    mutating func u64() -> UInt64? {
        skip(8).flatMap { at in (blocks?.holds(at, 8) ?? true) ? at : nil }.map {
            UInt64(littleEndian: memory.loadUnaligned(fromByteOffset: $0, as: UInt64.self))
        }
    }
}
