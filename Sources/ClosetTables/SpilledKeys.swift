import ClosetCore

/// Which keys the rows moved to a scratch file have (`SpilledRows`), in about two bytes a row
/// where a dictionary of every key took 63 for a wardrobe row. Each move's keys go to a scratch
/// file of their own as a run of entries (hash u64 | row's place u32) sorted by hash, with
/// every 256th hash kept in memory to find a hash's block; a Bloom filter over every hash
/// tells a key never moved (each of an import's new keys) without reading anything. A key the
/// filter lets through is looked for in each run, newest first, and checked against the row's
/// own key, so a false "maybe" or two keys of one hash cost a read and never an answer.
///
/// Hashes are Swift's (`Hashable`), seeded per process: nothing here outlives the process.
@usableFromInline struct SpilledKeys {
    /// One move's keys in the file.
    struct Run {
        var start: Int
        var count: Int
        /// Entries for rows at or past this place are stale: those rows were undone (and the
        /// places may hold newer rows, found in a later run).
        var limit: Int
        /// The hash of every `sampleEvery`th entry.
        var samples: [UInt64]
    }

    static let entrySize = 12
    static let sampleEvery = 256
    /// The filter's bits per key: about one key in seven hundred not there is taken for a
    /// maybe (a blocked filter of six probes; `KeyFilter` places them).
    static let bitsPerKey = 16

    let file: ScratchFile
    var runs: [Run] = []
    var length = 0
    var filter: [UInt64]
    var filterBlocks: Int
    /// The keys the filter was made for, and how many it holds (undone ones included).
    var capacity: Int
    var filtered = 0

    /// `expecting`: the keys to make the filter for at first (it is made again, larger, if
    /// more come).
    @usableFromInline init(file: ScratchFile, expecting: Int) {
        self.file = file
        capacity = max(expecting, 1 << 16)
        (filterBlocks, filter) = Self.filter(capacity: capacity)
    }

    /// A filter's blocks and its words, empty, for `capacity` keys.
    private static func filter(capacity: Int) -> (blocks: Int, words: [UInt64]) {
        let blocks = max(1, capacity * Self.bitsPerKey / KeyFilter.blockBits)
        return (blocks, [UInt64](repeating: 0, count: blocks * KeyFilter.blockWords))
    }

    private mutating func addToFilter(_ hash: UInt64) {
        let (block, bits) = KeyFilter.place(hash, blockCount: filterBlocks)
        for probe in 0..<KeyFilter.probes {
            let bit = KeyFilter.bit(bits, probe)
            filter[block * KeyFilter.blockWords + bit >> 6] |= 1 << UInt64(bit & 63)
        }
        filtered += 1
    }

    /// Whether a key of this hash may have moved (false: it certainly has not).
    @usableFromInline func mayContain(_ hash: UInt64) -> Bool {
        let (block, bits) = KeyFilter.place(hash, blockCount: filterBlocks)
        // One block, one cache line: the look costs a miss in memory (about 0.2 µs a key on a
        // million-row import), not six.
        return filter.withUnsafeBufferPointer { words in
            let first = block * KeyFilter.blockWords
            for probe in 0..<KeyFilter.probes {
                let bit = KeyFilter.bit(bits, probe)
                if words[first + bit >> 6] & (1 << UInt64(bit & 63)) == 0 { return false }
            }
            return true
        }
    }

    /// Adds a move's keys: each one's hash and row place (sorted here). False, and nothing
    /// kept, when the file cannot take them.
    @usableFromInline mutating func add(_ entries: [(key: UInt64, value: Int)]) -> Bool {
        restoreFilter()
        var entries = entries
        RadixSort.sortByKey(&entries)
        var bytes = [UInt8](repeating: 0, count: entries.count * Self.entrySize)
        var samples: [UInt64] = []
        samples.reserveCapacity(entries.count / Self.sampleEvery + 1)
        bytes.withUnsafeMutableBytes { bytes in
            for (number, entry) in entries.enumerated() {
                bytes.storeBytes(of: entry.key, toByteOffset: number * Self.entrySize, as: UInt64.self)
                bytes.storeBytes(
                    of: UInt32(truncatingIfNeeded: entry.value), toByteOffset: number * Self.entrySize + 8,
                    as: UInt32.self)
                if number % Self.sampleEvery == 0 { samples.append(entry.key) }
            }
        }
        guard bytes.withUnsafeBytes({ file.write($0, at: length) }) else { return false }
        let lowest = entries.lazy.map(\.value).min() ?? 0
        runs.append(Run(start: length, count: entries.count, limit: lowest + entries.count, samples: samples))
        length += bytes.count
        if filtered + entries.count > capacity {
            rebuildFilter(capacity: max(capacity * 2, filtered + entries.count))
        } else {
            for entry in entries { addToFilter(entry.key) }
        }
        return true
    }

    /// Lets the filter go (two bytes a row): a commit that writes the rows out asks nothing of
    /// it. It is made again from the runs when asked again (`restoreFilter`: the commit failed).
    @usableFromInline mutating func releaseFilter() {
        filter = []
        filterBlocks = 0
    }

    /// The filter made again if it was let go.
    @usableFromInline mutating func restoreFilter() {
        if filter.isEmpty { rebuildFilter(capacity: capacity) }
    }

    /// A larger filter, from every run's hashes read back.
    private mutating func rebuildFilter(capacity: Int) {
        self.capacity = capacity
        (filterBlocks, filter) = Self.filter(capacity: capacity)
        filtered = 0
        for run in runs {
            var first = 0
            while first < run.count {
                let block = read(run, first..<min(run.count, first + 1 << 16))
                for entry in block { addToFilter(entry.hash) }
                first += block.count
            }
        }
    }

    /// Entries `range` of `run`.
    private func read(_ run: Run, _ range: Range<Int>) -> [(hash: UInt64, place: Int)] {
        var bytes = [UInt8](repeating: 0, count: range.count * Self.entrySize)
        let read = bytes.withUnsafeMutableBytes {
            file.read(into: $0, at: run.start + range.lowerBound * Self.entrySize)
        }
        guard read else { UnreadableRow.found("the keys of rows held in a scratch file could not be read back") }
        return bytes.withUnsafeBytes { bytes in
            (0..<range.count).map { number in
                (
                    bytes.loadUnaligned(fromByteOffset: number * Self.entrySize, as: UInt64.self),
                    Int(bytes.loadUnaligned(fromByteOffset: number * Self.entrySize + 8, as: UInt32.self))
                )
            }
        }
    }

    /// The place of the row whose key has this hash and passes `isKey` (the caller compares
    /// the row's own key), or nil.
    @usableFromInline func place(of hash: UInt64, where isKey: (Int) -> Bool) -> Int? {
        guard mayContain(hash) else { return nil }
        for run in runs.reversed() {
            // The first sample not below the hash: entries of that hash start in the block before.
            var low = 0
            var high = run.samples.count
            while low < high {
                let middle = (low + high) / 2
                if run.samples[middle] < hash { low = middle + 1 } else { high = middle }
            }
            var first = max(0, low - 1) * Self.sampleEvery
            scan: while first < run.count {
                let block = read(run, first..<min(run.count, first + Self.sampleEvery))
                for entry in block {
                    if entry.hash > hash { break scan }
                    if entry.hash == hash, entry.place < run.limit, isKey(entry.place) { return entry.place }
                }
                first += block.count
            }
        }
        return nil
    }

    /// Rows from `place` on were undone: no run's entry for them is current any more.
    @usableFromInline mutating func removed(from place: Int) {
        for index in runs.indices.reversed() {
            guard runs[index].limit > place else { break }
            runs[index].limit = place
        }
    }
}
