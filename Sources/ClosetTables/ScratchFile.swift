import ClosetCore

/// Room outside memory for what a transaction has not committed yet (`SpilledRows`): bytes
/// written and read back by position, gone when the process lets go of it (a crash leaves
/// nothing to clean up). A durable store gives an unnamed file in its folder; the memory store
/// gives none, and its tables keep every row in memory.
public protocol ScratchFile: AnyObject {
    /// Writes all of `bytes` at `offset`; false when they could not be (a full disk).
    func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool
    /// Fills `buffer` from `offset`; false when the bytes could not be read back.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) -> Bool
}

/// Where a transaction set's tables get scratch files: shared by the tables of one `Tables`,
/// set by the store that owns them.
public final class ScratchSpace {
    /// Makes a new scratch file; nil when there is no room outside memory.
    public var makeFile: (() -> ScratchFile?)?
    /// How many new rows a table holds decoded before it moves them to a scratch file (about
    /// 9 MB of wardrobe rows; tests make it small).
    public var rowsKeptInMemory = 1 << 16
    /// A transaction not expected to add more rows than this to the table (an import says how
    /// many it brings) keeps them all decoded until it does: moving them and making the index
    /// outside memory cost a seventh of a 100,000-row import, whose rows take about 35 MB held
    /// (tests make it 0).
    public var rowsHeldWhole = 1 << 18
    /// How many bytes of records an external sort (`ScratchSort`) gathers before it sorts them
    /// and writes them out as a run (tests make it small, for many runs).
    public var sortChunkBytes = 2 << 20

    public init() {}
}
