import ClosetCore

/// Which blocks of a mapped snapshot have passed their checksums. Opening checks only the
/// header and the block checksums themselves; a block's bytes are checked the first time
/// anything reads them (`SnapshotRows` asks before every read), so a statement pays for the
/// blocks it reads, not for the whole file. A block that fails is damage, found where it is
/// read: `UnreadableRow` (the shell says so and exits 3, writing nothing). `damagedBlocks()`
/// checks every block that was not checked yet, for `.check` and before a compaction copies
/// rows into a new snapshot.
public final class SnapshotBlocks {
    /// Where the checksummed body starts and ends in the file (bytes before it are the
    /// header, checked at open).
    let bodyStart: Int
    let bodyEnd: Int
    /// log2 of the block size; a format-3 body (one checksum) is one block of any size.
    let shift: Int
    /// Each block's stored checksum, little-endian: read where the snapshot's trailer lies in
    /// the mapping (`expectedOwner` keeps it mapped), or a copy this object owns. Copied into
    /// an array at every open, a 1.2 GB snapshot's 36,700 checksums cost a new process more
    /// than the statement it ran.
    let expected: UnsafeRawBufferPointer
    private let expectedOwner: AnyObject?
    public let blockCount: Int
    /// One bit per block: set once it passed. Raw memory the object owns: every read of a row
    /// or index entry asks it, and an array property of a class pays an exclusivity check
    /// per access (a sixth of a key search).
    let checked: UnsafeMutableBufferPointer<UInt64>
    /// CRC-32C of a range of the file read without the mapping, so a sweep of every block
    /// (`damagedBlocks`) does not make the pages part of this process's memory; nil if it
    /// cannot be read.
    let checksum: (Range<Int>) -> UInt32?
    /// CRC-32C of a range as mapped, for a block a read is about to touch: its pages are
    /// mapped by that read anyway (a fault maps the pages around it too), so reading them
    /// through the file as well would copy each block once more (the copy cost opening a store
    /// with a journal of a hundred keys more than their searches did).
    let mappedChecksum: (Range<Int>) -> UInt32?
    /// CRC-32C of bytes already read (`verify(_:read:)`); nil: such blocks are read again
    /// through `checksum`.
    let bytesChecksum: ((UnsafeRawBufferPointer) -> UInt32)?

    /// `expected`: each block's checksum, little-endian u32s in memory `owner` keeps valid
    /// (the mapping of the file).
    public convenience init(
        bodyStart: Int, bodyEnd: Int, blockShift: Int, expected: UnsafeRawBufferPointer, in owner: AnyObject,
        checksum: @escaping (Range<Int>) -> UInt32?, mappedChecksum: ((Range<Int>) -> UInt32?)? = nil,
        bytesChecksum: ((UnsafeRawBufferPointer) -> UInt32)? = nil
    ) {
        self.init(
            bodyStart: bodyStart, bodyEnd: bodyEnd, blockShift: blockShift, expected: expected, owner: owner,
            checksum: checksum, mappedChecksum: mappedChecksum, bytesChecksum: bytesChecksum)
    }

    /// The same with the checksums given as values (copied into memory this object owns).
    public convenience init(
        bodyStart: Int, bodyEnd: Int, blockShift: Int, expected: [UInt32], checksum: @escaping (Range<Int>) -> UInt32?,
        mappedChecksum: ((Range<Int>) -> UInt32?)? = nil, bytesChecksum: ((UnsafeRawBufferPointer) -> UInt32)? = nil
    ) {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: 4 * expected.count, alignment: 4)
        for (index, sum) in expected.enumerated() {
            copy.storeBytes(of: sum.littleEndian, toByteOffset: 4 * index, as: UInt32.self)
        }
        self.init(
            bodyStart: bodyStart, bodyEnd: bodyEnd, blockShift: blockShift, expected: UnsafeRawBufferPointer(copy),
            owner: nil, checksum: checksum, mappedChecksum: mappedChecksum, bytesChecksum: bytesChecksum)
    }

    /// `owner` nil: this object owns `expected` and frees it.
    private init(
        bodyStart: Int, bodyEnd: Int, blockShift: Int, expected: UnsafeRawBufferPointer, owner: AnyObject?,
        checksum: @escaping (Range<Int>) -> UInt32?, mappedChecksum: ((Range<Int>) -> UInt32?)?,
        bytesChecksum: ((UnsafeRawBufferPointer) -> UInt32)?
    ) {
        self.bodyStart = bodyStart
        self.bodyEnd = bodyEnd
        shift = blockShift
        self.expected = expected
        expectedOwner = owner
        blockCount = expected.count / 4
        checked = .allocate(capacity: (blockCount + 63) / 64)
        checked.initialize(repeating: 0)
        self.checksum = checksum
        self.mappedChecksum = mappedChecksum ?? checksum
        self.bytesChecksum = bytesChecksum
    }

    deinit {
        checked.deallocate()
        if expectedOwner == nil { expected.deallocate() }
    }

    /// Block `index`'s stored checksum.
    @inline(__always) func expectedSum(_ index: Int) -> UInt32 {
        UInt32(littleEndian: expected.loadUnaligned(fromByteOffset: 4 * index, as: UInt32.self))
    }

    /// The bytes of block `index` in the file.
    public func block(_ index: Int) -> Range<Int> {
        let start = bodyStart + index << shift
        return start..<min(bodyEnd, shift >= 62 ? bodyEnd : start + 1 << shift)
    }

    /// Checks the blocks holding `count` bytes at `start` (once each); stops on damage.
    @inline(__always) public func verify(_ start: Int, _ count: Int) {
        let first = (start &- bodyStart) >> shift
        if count > 0, first == (start &+ count &- 1 &- bodyStart) >> shift, first >= 0, first < blockCount,
            isChecked(first)
        {
            return
        }
        verifySlowly(start, count)
    }

    @inline(__always) public func verify(_ range: Range<Int>) { verify(range.lowerBound, range.count) }

    @inline(never) func verifySlowly(_ start: Int, _ count: Int) {
        // Bytes outside the body (the header) were checked at open.
        let low = max(start, bodyStart)
        let high = min(start + count, bodyEnd)
        guard low < high else { return }
        for index in ((low - bodyStart) >> shift)...((high - 1 - bodyStart) >> shift)
        where !passes(index, through: mappedChecksum) {
            let range = block(index)
            UnreadableRow.found("its snapshot fails its checksum in bytes \(range.lowerBound)-\(range.upperBound - 1)")
        }
    }

    /// The block that holds all of `range`, when it has not been checked yet and its checksum
    /// can be taken from bytes read (nil: checked, or the range spans blocks or lies outside
    /// the body).
    public func uncheckedBlock(holding range: Range<Int>) -> Range<Int>? {
        // A format-3 body is one block of any size: never read whole for a row.
        guard bytesChecksum != nil, shift <= 20, !range.isEmpty, range.lowerBound >= bodyStart,
            range.upperBound <= bodyEnd
        else { return nil }
        let index = (range.lowerBound - bodyStart) >> shift
        guard index == (range.upperBound - 1 - bodyStart) >> shift, index < blockCount,
            !isChecked(index)
        else { return nil }
        return block(index)
    }

    /// Checks the blocks holding `bytes`, just read through the file from `start`: a block
    /// wholly inside them from those very bytes, one partly inside through the file. So a read
    /// of the whole file a megabyte at a time (a dump, a search) checks what it read without
    /// touching the mapping, whose pages would stay part of this process's memory.
    public func verify(_ start: Int, read bytes: UnsafeRawBufferPointer) {
        let low = max(start, bodyStart)
        let high = min(start + bytes.count, bodyEnd)
        guard low < high else { return }
        for index in ((low - bodyStart) >> shift)...((high - 1 - bodyStart) >> shift) {
            let range = block(index)
            let inside = range.lowerBound >= start && range.upperBound <= start + bytes.count
            let sum: (Range<Int>) -> UInt32? =
                if let bytesChecksum, inside {
                    { range in
                        bytesChecksum(
                            UnsafeRawBufferPointer(
                                rebasing: bytes[(range.lowerBound - start)..<(range.upperBound - start)]))
                    }
                } else {
                    checksum
                }
            if !passes(index, through: sum) {
                UnreadableRow.found(
                    "its snapshot fails its checksum in bytes \(range.lowerBound)-\(range.upperBound - 1)")
            }
        }
    }

    /// Whether the blocks holding `count` bytes at `start` pass, without stopping (opening
    /// reads each section's lengths this way, so damage there is an error opening reports);
    /// the first block that fails is kept in `failed`.
    public func holds(_ start: Int, _ count: Int) -> Bool {
        let low = max(start, bodyStart)
        let high = min(start + count, bodyEnd)
        guard low < high else { return true }
        for index in ((low - bodyStart) >> shift)...((high - 1 - bodyStart) >> shift)
        where !passes(index, through: mappedChecksum) {
            failed = failed ?? index
            return false
        }
        return true
    }

    /// The first block `holds` found failing.
    public private(set) var failed: Int?

    /// Whether block `index` has passed already.
    @inline(__always) func isChecked(_ index: Int) -> Bool { checked[index >> 6] & (1 << UInt64(index & 63)) != 0 }

    /// Whether block `index` passes (checked now, by `sum`, unless it was before).
    func passes(_ index: Int, through sum: (Range<Int>) -> UInt32?) -> Bool {
        if isChecked(index) { return true }
        guard let found = sum(block(index)), found == expectedSum(index) else { return false }
        checked[index >> 6] |= 1 << UInt64(index & 63)
        return true
    }

    /// Every block that fails its checksum, checking each not checked yet.
    public func damagedBlocks() -> [Int] { (0..<blockCount).filter { !passes($0, through: checksum) } }

    /// How many blocks have been checked so far (tests, `.check`).
    public var checkedCount: Int { checked.reduce(0) { $0 + $1.nonzeroBitCount } }
}
