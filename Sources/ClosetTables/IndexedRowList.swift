import ClosetCore

/// The rows an index walk picked (`Table.indexedRowList`), held as how the walk merged its
/// buckets: for each row, which of its group's bucket cursors gave it (a byte), with where
/// every cursor stood each `checkpointEvery` rows and the journal's rows apart. A row asked for
/// is found by standing the cursors at the checkpoint before it and stepping them as the walk
/// did, without comparing; it is decoded with the rows after it (a listing reads its rows in
/// order, once a pass), and only the last batch is kept. Ten million rows hold 10 MB of steps,
/// where the four bytes a row of where each lay held 40.
///
/// The snapshot it reads stays open while the list lives (a compaction renames a new file
/// over it, never writes it), so the rows are the ones the walk picked even after the store
/// has moved on. Unchecked `Sendable`: the batch and the replay are caches, and a listing is
/// read by the thread of the session that made it.
public final class IndexedRowList<Codec: TableCodec>: @unchecked Sendable {
    public typealias Row = Codec.Row
    /// Rows decoded together when one is asked for out of order.
    @usableFromInline static var batchSize: Int { 4096 }
    /// Rows between two records of where the cursors stood.
    @usableFromInline static var checkpointEvery: Int { 4096 }

    /// How a list reads its snapshot rows.
    public enum Reading: Sendable {
        /// Where each lies in the mapping, from where its frame starts, while the rows are
        /// `SnapshotRows.inPlaceWalkLimit` bytes at most; else through the file, batches read a
        /// span at a time (format 4's rows, whose entries say no frame start: `byOrdinal`).
        case bySize
        /// Through the file, whatever the size (as rows past the limit are read).
        case throughTheFile
        /// Where each lies in the mapping, found through the offsets column (format 4's way).
        case byOrdinal
    }

    @usableFromInline let walk: IndexWalk<Codec>
    /// How rows are read, decided: `.bySize` is never left here.
    @usableFromInline let reading: Reading

    /// For each row, which of its group's cursors gave it (0 for a journal row: unread).
    @usableFromInline var steps: [UInt8] = []
    /// Where each group with rows begins.
    @usableFromInline var groupStarts: [(position: Int, group: Int)] = []
    /// The journal's rows and where they stand in the list, in order.
    @usableFromInline var journalPositions: [Int] = []
    @usableFromInline var journalRows: [Row] = []
    /// Every `checkpointEvery`th row's group's cursors: where each resumes (`BucketCursor.place`).
    @usableFromInline var checkpoints: [[Int]] = []
    /// While recording: where each of the current group's cursors resumes.
    @usableFromInline var resumes: [Int] = []

    /// The cursors as they stand before the row at `position`, stepped on as rows are read.
    private var replay: (position: Int, run: Int, cursors: [BucketCursor], journalNext: Int)?
    /// The last batch decoded: the rows at `batchStart..<batchStart + batch.count`.
    private var batchStart = 0
    private var batch: [Row] = []

    @usableFromInline init(_ walk: IndexWalk<Codec>, reading: Reading, expecting count: Int) {
        self.walk = walk
        let base = walk.lazy.base
        self.reading =
            switch reading {
            case _ where !base.entriesSayWhereFramesStart: .byOrdinal
            case .bySize: base.rowsByteCount <= SnapshotRows.inPlaceWalkLimit ? .bySize : .throughTheFile
            case .throughTheFile, .byOrdinal: reading
            }
        steps.reserveCapacity(max(0, count))
    }

    /// The next row of the walk, as it picked it.
    @inlinable func record(_ pick: IndexPick<Row>) {
        let position = steps.count
        if groupStarts.last?.group != pick.group {
            groupStarts.append((position, pick.group))
            resumes = [Int](repeating: 0, count: walk.cursorCount(ofGroup: pick.group))
        }
        if position % Self.checkpointEvery == 0 { checkpoints.append(resumes) }
        if let row = pick.row {
            journalPositions.append(position)
            journalRows.append(row)
            steps.append(0)
        } else {
            steps.append(UInt8(pick.cursor))
            resumes[pick.cursor] = pick.place + 1
        }
    }

    public var count: Int { steps.count }

    /// The `position`th row picked.
    public func row(at position: Int) -> Row {
        precondition(position >= 0 && position < count, "a row of the list")
        if position < batchStart || position >= batchStart + batch.count { decodeBatch(from: position) }
        return batch[position - batchStart]
    }

    /// Rows from `first` on, read as `reading` says. A batch's rows lie all over the file (the
    /// list is in index order, the rows in insertion order): past `inPlaceWalkLimit` they are
    /// read through the file where the index said each starts, since the mapping's pages a
    /// listing touched stayed part of the process (the whole file at a million rows).
    private func decodeBatch(from first: Int) {
        let readingOn = reading == .throughTheFile && first == batchStart + batch.count
        // Read on through the file: enough rows that each 64 KB span holds several of them, so
        // the batch is read a span at a time (once over the file a batch) rather than a `pread`
        // a row (a million of them cost a listing a third of its time).
        let size = readingOn ? walk.lazy.base.spanBatch : Self.batchSize
        let picks = self.picks(first..<min(count, first + size))
        let rows = walk.lazy
        // A row of the level below the snapshot (few) read on its own.
        func decodeDelta(_ ordinal: Int) -> Row {
            rows.decode(baseRow: rows.delta?.rows.rowBytes(ordinal) ?? [])
        }
        switch reading {
        case .bySize:
            // Rows of a few megabytes, where they lie (`SnapshotRows.inPlaceWalkLimit`).
            batch = picks.map { pick in
                if let journal = pick.journal { return journalRows[journal] }
                if pick.inDelta { return decodeDelta(pick.ordinal) }
                // Only format 5 reads `.bySize` (`init`): its entries say where each frame starts.
                return rows.decodeInPlace(offset: pick.offset ?? -1)
            }
        case .throughTheFile:
            // The batch's snapshot rows read together, in the order they are met.
            var read = rows.base.rowsBytes(at: picks.compactMap { $0.journal == nil && !$0.inDelta ? $0.offset : nil })
                .makeIterator()
            batch = picks.map { pick in
                if let journal = pick.journal { return journalRows[journal] }
                if pick.inDelta { return decodeDelta(pick.ordinal) }
                return rows.decode(baseRow: read.next() ?? [])
            }
        case .byOrdinal:
            batch = picks.map { pick in
                if let journal = pick.journal { return journalRows[journal] }
                if pick.inDelta { return decodeDelta(pick.ordinal) }
                return rows.decodeInPlace(ordinal: pick.ordinal)
            }
        }
        batchStart = first
    }

    /// Which rows stand at `positions`: a journal row by its number, a snapshot row (or one of
    /// the level below) by its ordinal and where its frame starts.
    private func picks(_ positions: Range<Int>) -> [(journal: Int?, ordinal: Int, offset: Int?, inDelta: Bool)] {
        if replay?.position != positions.lowerBound { standCursors(before: positions.lowerBound) }
        guard var (position, run, cursors, journalNext) = replay else { return [] }
        defer { replay = (position, run, cursors, journalNext) }
        return positions.map { _ in
            defer { position += 1 }
            if run + 1 < groupStarts.count, groupStarts[run + 1].position == position {
                run += 1
                cursors = walk.cursors(ofGroup: groupStarts[run].group)
            }
            if journalNext < journalPositions.count, journalPositions[journalNext] == position {
                journalNext += 1
                return (journalNext - 1, 0, nil, false)
            }
            let cursor = Int(steps[position])
            // The walk took this row from this cursor: it stands on it as it did then.
            guard let head = cursors[cursor].head else { preconditionFailure("a cursor the walk stepped") }
            cursors[cursor].advance()
            return (nil, head.ordinal, head.offset, cursor >= walk.groups[groupStarts[run].group].count)
        }
    }

    /// Stands the cursors where the walk had them before the row at `position`: at the
    /// checkpoint before it, then stepped on to it.
    private func standCursors(before position: Int) {
        let checkpoint = position / Self.checkpointEvery
        let start = checkpoint * Self.checkpointEvery
        // The group of the row at `start`: the last to begin at or before it.
        var (low, high) = (0, groupStarts.count)
        while low < high {
            let middle = (low + high) / 2
            if groupStarts[middle].position <= start { low = middle + 1 } else { high = middle }
        }
        let run = low - 1
        var cursors = walk.cursors(ofGroup: groupStarts[run].group)
        for (number, place) in checkpoints[checkpoint].enumerated() { cursors[number].resume(at: place) }
        (low, high) = (0, journalPositions.count)
        while low < high {
            let middle = (low + high) / 2
            if journalPositions[middle] < start { low = middle + 1 } else { high = middle }
        }
        replay = (start, run, cursors, low)
        _ = picks(start..<position)
    }
}
