import ClosetCore

/// Memory whose pages can be given back and read again on demand: a file mapped read-only,
/// whose pages come back from the file. Rows read in place from such memory say so through
/// their owner (`SnapshotRows.releasePages`).
public protocol PageReleasing: AnyObject {
    /// Gives back the whole pages inside `range` (bytes of the mapping).
    func releasePages(_ range: Range<Int>)
}
