import ClosetCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Records (a key's bytes and an eight-byte payload) sorted by key, bytewise, more of them than
/// memory should hold: they are gathered a chunk at a time, each chunk sorted and written as a
/// run to scratch bytes (`ScratchBytes`), and the runs merged as they are read back. The index
/// of a section of ten million rows made its key order and bucket lists in memory: about 50
/// bytes a row at its commit. Keys are compared by their first eight bytes as one number
/// (`SnapshotSection.keyPrefix`), and byte by byte only where those are equal; no two keys
/// added to one sort are the same (a table's keys; bucket entries carry their ordinal).
///
///     record = key length u16 | key | payload u64
final class ScratchSort {
    private let runs: ScratchBytes
    private let chunkBytes: Int
    /// Each run's bytes in `runs`.
    private var runBounds: [Range<Int>] = []
    /// The chunk being gathered (raw memory: room for `chunkBytes` and one longest record past
    /// them; nil once let go), how much of it is used, and each of its records' prefix and start
    /// in it.
    private var room: UnsafeMutableRawPointer?
    private var chunkUsed = 0
    private var entries: [(key: UInt64, value: Int)] = []
    /// How many records were added.
    private(set) var count = 0

    /// Runs go to `file` (in memory without one); a chunk holds about `chunkBytes` of records.
    init(file: ScratchFile?, chunkBytes: Int) {
        runs = ScratchBytes(file: file, pieceSize: chunkBytes)
        self.chunkBytes = max(64, chunkBytes)
    }

    deinit { room?.deallocate() }

    /// The chunk's room, made when first needed.
    private var chunk: UnsafeMutableRawPointer {
        if let room { return room }
        let made = UnsafeMutableRawPointer.allocate(byteCount: chunkBytes + 2 + Int(UInt16.max) + 8, alignment: 8)
        room = made
        return made
    }

    /// The chunk's records as bytes.
    private var chunkBytesInUse: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: chunk, count: chunkUsed) }

    /// Lets the chunk's room go (nothing more is added).
    private func releaseChunk() {
        room?.deallocate()
        room = nil
        chunkUsed = 0
        entries = []
    }

    func add(key: UnsafeRawBufferPointer, payload: UInt64) {
        let length = min(key.count, Int(UInt16.max))
        entries.append((SnapshotSection.keyPrefix(key), chunkUsed))
        let record = chunk + chunkUsed
        record.storeBytes(of: UInt16(length).littleEndian, as: UInt16.self)
        if let source = key.baseAddress { (record + 2).copyMemory(from: source, byteCount: length) }
        (record + 2 + length).storeBytes(of: payload.littleEndian, as: UInt64.self)
        chunkUsed += 2 + length + 8
        count += 1
        if chunkUsed >= chunkBytes { writeRun() }
    }

    /// Writes out the chunk being gathered (when runs were written already) and lets its room
    /// go: nothing more will be added, and another sort is merged first.
    func finishAdding() {
        guard !runBounds.isEmpty else { return }
        writeRun()
        releaseChunk()
    }

    /// Every record in key order, once: the sort is spent after it.
    func forEachSorted(_ body: (_ key: UnsafeRawBufferPointer, _ payload: UInt64) -> Void) {
        if runBounds.isEmpty {
            // One chunk: sorted and read where it lies.
            sortChunk()
            let bytes = chunkBytesInUse
            for entry in entries {
                let record = Record(bytes, at: entry.value)
                body(record.key, record.payload)
            }
            releaseChunk()
            return
        }
        writeRun()
        releaseChunk()
        merge(body)
    }

    /// A record's parts where it lies.
    private struct Record {
        let key: UnsafeRawBufferPointer
        let payload: UInt64
        /// Its length in bytes.
        let size: Int

        @inline(__always) init(_ bytes: UnsafeRawBufferPointer, at start: Int) {
            let length = Int(bytes[start]) | Int(bytes[start + 1]) << 8
            key = UnsafeRawBufferPointer(rebasing: bytes[(start + 2)..<(start + 2 + length)])
            payload = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: start + 2 + length, as: UInt64.self))
            size = 2 + length + 8
        }

        /// How many bytes a record at `start` of `bytes` takes, or nil when they do not hold its
        /// length yet.
        static func size(_ bytes: UnsafeRawBufferPointer, at start: Int) -> Int? {
            guard start + 2 <= bytes.count else { return nil }
            return 2 + (Int(bytes[start]) | Int(bytes[start + 1]) << 8) + 8
        }
    }

    /// Orders the chunk's entries by prefix, then runs of equal prefixes by whole key.
    private func sortChunk() {
        RadixSort.sortByKey(&entries)
        do {
            let bytes = chunkBytesInUse
            var start = 0
            while start < entries.count {
                var end = start + 1
                while end < entries.count, entries[end].key == entries[start].key { end += 1 }
                if end - start > 1 {
                    entries[start..<end].sort {
                        SnapshotSection.compare(Record(bytes, at: $0.value).key, Record(bytes, at: $1.value).key) < 0
                    }
                }
                start = end
            }
        }
    }

    /// Sorts the chunk and appends it to the runs.
    private func writeRun() {
        guard !entries.isEmpty else { return }
        sortChunk()
        let first = runs.count
        let bytes = chunkBytesInUse
        for entry in entries {
            let size = Record.size(bytes, at: entry.value) ?? 0
            runs.append(UnsafeRawBufferPointer(rebasing: bytes[entry.value..<(entry.value + size)]))
        }
        runBounds.append(first..<runs.count)
        chunkUsed = 0
        entries.removeAll(keepingCapacity: true)
    }

    /// A run read back a buffer at a time, its first unread record in view.
    private struct RunReader {
        var buffer: UnsafeMutableRawBufferPointer
        /// The run's bytes not yet in the buffer.
        var next: Int
        let end: Int
        /// The buffer's bytes in use, and where the first unread record starts in them.
        var filled = 0
        var at = 0
        /// The first unread record's prefix (valid while `hasRecord`).
        var prefix: UInt64 = 0
        var hasRecord = false
    }

    private func merge(_ body: (_ key: UnsafeRawBufferPointer, _ payload: UInt64) -> Void) {
        let bufferSize = 16 << 10
        var readers = runBounds.map { bounds in
            RunReader(
                buffer: UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 8),
                next: bounds.lowerBound, end: bounds.upperBound)
        }
        defer { for reader in readers { reader.buffer.deallocate() } }
        for number in readers.indices { advance(&readers[number]) }
        // A binary heap of reader numbers, the smallest first record on top.
        var heap = readers.indices.filter { readers[$0].hasRecord }
        func less(_ a: Int, _ b: Int) -> Bool {
            if readers[a].prefix != readers[b].prefix { return readers[a].prefix < readers[b].prefix }
            let left = Record(UnsafeRawBufferPointer(readers[a].buffer), at: readers[a].at).key
            let right = Record(UnsafeRawBufferPointer(readers[b].buffer), at: readers[b].at).key
            return SnapshotSection.compare(left, right) < 0
        }
        func siftDown(_ start: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                guard left < heap.count else { return }
                var smallest = left
                if left + 1 < heap.count, less(heap[left + 1], heap[left]) { smallest = left + 1 }
                guard less(heap[smallest], heap[parent]) else { return }
                heap.swapAt(parent, smallest)
                parent = smallest
            }
        }
        for start in stride(from: heap.count / 2 - 1, through: 0, by: -1) { siftDown(start) }
        while let top = heap.first {
            let record = Record(UnsafeRawBufferPointer(readers[top].buffer), at: readers[top].at)
            body(record.key, record.payload)
            readers[top].at += record.size
            advance(&readers[top])
            if !readers[top].hasRecord {
                heap[0] = heap[heap.count - 1]
                heap.removeLast()
            }
            if !heap.isEmpty { siftDown(0) }
        }
    }

    /// Brings the reader's next record whole into its buffer (reading more, and a larger buffer
    /// for a long key), or marks it done.
    private func advance(_ reader: inout RunReader) {
        let view = { (reader: RunReader) in UnsafeRawBufferPointer(rebasing: reader.buffer[0..<reader.filled]) }
        var size = Record.size(view(reader), at: reader.at)
        while size.map({ reader.at + $0 > reader.filled }) ?? true {
            guard reader.next < reader.end else {
                reader.hasRecord = false
                return
            }
            // The unread part moves to the front, then the buffer is filled behind it.
            let unread = reader.filled - reader.at
            if let base = reader.buffer.baseAddress, unread > 0, reader.at > 0 {
                memmove(base, base + reader.at, unread)
            }
            reader.filled = unread
            reader.at = 0
            if let size, size > reader.buffer.count {
                let larger = UnsafeMutableRawBufferPointer.allocate(byteCount: size, alignment: 8)
                larger.copyMemory(from: UnsafeRawBufferPointer(rebasing: reader.buffer[0..<unread]))
                reader.buffer.deallocate()
                reader.buffer = larger
            }
            let length = min(reader.buffer.count - reader.filled, reader.end - reader.next)
            runs.read(
                into: UnsafeMutableRawBufferPointer(rebasing: reader.buffer[reader.filled..<(reader.filled + length)]),
                at: reader.next)
            reader.next += length
            reader.filled += length
            size = Record.size(view(reader), at: reader.at)
        }
        reader.prefix = SnapshotSection.keyPrefix(Record(view(reader), at: reader.at).key)
        reader.hasRecord = true
    }
}
