/// What the transaction set needs of any table, typed or not: undo, the net change since the
/// last commit, replay, and snapshots. `Table<Codec>` and `RawTable` implement it.
public protocol StoredTable: AnyObject {
    var name: String { get }
    var count: Int { get }
    /// Undoes the most recent change (the transaction set pops its log in step).
    func undoLast()
    /// The net change of each key touched since the last commit, with the log position of
    /// its first touch (the set merges tables in that order).
    func pendingOperations() -> [(position: Int, operation: EncodedOperation)]
    /// Blob names rows stopped referring to since the last commit.
    func releasedBlobs() -> [String]
    func forgetChanges()
    /// Every row as a put, in table order; `committed` leaves out what is not committed yet.
    func snapshot(committed: Bool) -> [EncodedOperation]
    /// Applies a replayed change without logging it (opening a store is not a change).
    func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed)
    /// Loads one of a snapshot's rows (all distinct, so no lookup): the key and row lie in
    /// `bytes` at the given ranges.
    func loadSnapshotRow(_ bytes: [UInt8], key: Range<Int>, row: Range<Int>) throws(ByteReader.Malformed)
    /// Applies a format-1 operation read straight from its file (no length to skip by).
    func applyFormatOne(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed)
    /// Every blob any row refers to.
    var referencedBlobs: Set<String> { get }
    func reserveCapacity(_ capacity: Int)
}
