import CStoreSupport

/// How a statement-running process takes memory from the C library.
enum ProcessMemory {
    /// Blocks up to 32 MiB come from the heap rather than each from a mapping of its own. A
    /// seed script's table, key index and change log grow by doubling: glibc mapped each new
    /// block afresh (its threshold rises only as blocks are freed) and unmapped the old one, so
    /// every page was faulted in again at each doubling. Replaying 100,000 `add` statements
    /// took 21,700 page faults, and 17,800 this way (189 → 182 ms, paired). Not for `serve`:
    /// a long-running server keeps glibc's own policy of giving big blocks back.
    static func keepLargeBlocksOnHeap() {
        _ = closet_heap_for_blocks_below(32 << 20)
    }
}
