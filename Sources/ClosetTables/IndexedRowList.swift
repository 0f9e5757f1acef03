import ClosetCore

/// The rows an index walk picked (`Table.indexedRowList`), held as where they lie: a snapshot
/// row by where its frame starts (four bytes; its ordinal where the index does not say), a
/// journal row as it is. Each is decoded when asked for, with the rows after it (a listing
/// reads its rows in order, once a pass), and only the last batch is kept: a listing of a
/// million rows held them all, and now holds a few megabytes.
///
/// The snapshot it reads stays open while the list lives (a compaction renames a new file
/// over it, never writes it), so the rows are the ones the walk picked even after the store
/// has moved on. Unchecked `Sendable`: the batch is a cache, and a listing is read by the
/// thread of the session that made it.
public final class IndexedRowList<Codec: TableCodec>: @unchecked Sendable {
    public typealias Row = Codec.Row
    /// Marks a pick that is a journal row (`journalRows[pick & ~journalFlag]`).
    @usableFromInline static var journalFlag: UInt32 { 1 << 31 }
    /// Rows decoded together when one is asked for.
    @usableFromInline static var batchSize: Int { 4096 }

    @usableFromInline let rows: LazyRows<Codec>
    @usableFromInline let picks: [UInt32]
    @usableFromInline let journalRows: [Row]
    /// The last batch decoded: the rows at `batchStart..<batchStart + batch.count`.
    @usableFromInline var batchStart = 0
    @usableFromInline var batch: [Row] = []

    /// Whether a snapshot pick is where its frame starts (read through the file), else its
    /// ordinal (read where it lies in the mapping: format 4, or rows past 2 GB).
    @usableFromInline let byFrame: Bool

    @usableFromInline init(_ rows: LazyRows<Codec>, picks: [UInt32], journalRows: [Row], byFrame: Bool) {
        self.rows = rows
        self.picks = picks
        self.journalRows = journalRows
        self.byFrame = byFrame
    }

    public var count: Int { picks.count }

    /// The `position`th row picked.
    public func row(at position: Int) -> Row {
        precondition(position >= 0 && position < picks.count, "a row of the list")
        if position < batchStart || position >= batchStart + batch.count { decodeBatch(from: position) }
        return batch[position - batchStart]
    }

    /// Rows from `first` on. A batch's rows lie all over the file (the list is in index order,
    /// the rows in insertion order): they are read through the file where the index said where
    /// each starts (the mapping's pages a listing touched stayed part of the process: the whole
    /// file at a million rows), else where each lies in the mapping.
    private func decodeBatch(from first: Int) {
        let readingOn = byFrame && first == batchStart + batch.count
        // Read on through the file: enough rows that each 64 KB span holds several of them, so
        // the batch is read a span at a time (once over the file a batch) rather than a `pread`
        // a row (a million of them cost a listing a third of its time).
        let size = readingOn ? rows.base.spanBatch : Self.batchSize
        let positions = first..<min(picks.count, first + size)
        // The batch's snapshot rows read together, in the order they are met.
        let snapshotPicks =
            byFrame ? positions.compactMap { picks[$0] & Self.journalFlag == 0 ? Int(picks[$0]) : nil } : []
        var read = (snapshotPicks.isEmpty ? [] : rows.base.rowsBytes(at: snapshotPicks)).makeIterator()
        batch = positions.map { position in
            let pick = picks[position]
            if pick & Self.journalFlag != 0 { return journalRows[Int(pick & ~Self.journalFlag)] }
            if byFrame { return rows.decode(baseRow: read.next() ?? []) }
            return rows.base.withRowInPlace(Int(pick)) { rows.decode(baseRow: [UInt8]($0)) }
        }
        batchStart = first
    }
}
