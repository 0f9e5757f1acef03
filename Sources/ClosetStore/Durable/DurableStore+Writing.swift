import CStoreSupport
import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Writing: the write lock taken at a transaction's first change, commits appended and
/// synced (or a big first one written as the snapshot), compaction, the format-3 rewrite.
extension DurableStore {
    // MARK: writing

    /// The problem the current statement ran into, once (the session rolls it back).
    public func takeWriteProblem() -> WriteProblem? {
        defer { problem = nil }
        return problem
    }

    /// A transaction's first change (or a blob about to be written): take the write lock.
    func beginWriting() {
        guard !lock.isHeld else { return }
        if let broken {
            problem = .failed(broken)
            return
        }
        do {
            try lock.acquire(timeout: busyTimeout)
        } catch {
            problem = .failed(StoreFolder.lockMessage(error, path: path, timeout: busyTimeout))
            return
        }
        if filesChanged {
            problem = .conflict
            return
        }
        do throws(StoreError) {
            try prepareForWriting()
        } catch {
            problem = .failed(error.description)
        }
    }

    /// With the lock held and the files as this process last read them: cut a torn tail,
    /// start a journal where there is none (or one inside the snapshot), open it for
    /// appending, and once per process remove blobs no row refers to.
    func prepareForWriting() throws(StoreError) {
        do throws(POSIXFile.Failure) {
            if !needsUpgrade, view.journalSkipped {
                try StoreFolder.checkGenerationLeft(path, after: view.generation)
                try journal.start(generation: view.generation + 1, follows: view.snapshotLink ?? .none, &view)
            }
            if !journal.isOpen { try journal.open(view, report: report) }
            try journal.cutTornTail(&view, report: report)
        } catch {
            throw StoreError(error.description)
        }
        // A delta already inside the snapshot (its removal was cut short) holds disk for nothing.
        if view.staleDelta != nil {
            unlink(path + "/" + DeltaFile.name)
            view.staleDelta = nil
            view.deltaFile = nil
        }
        if !leftoversRemoved {
            leftoversRemoved = true
            // A write that a crash cut short before its rename (a compaction's snapshot of tens of
            // megabytes): with the lock held, nobody is writing them.
            for name in StoreFolder.temporaryNames { unlink(path + "/" + name) }
            let entries = files.entries
            if !entries.isEmpty {
                files.removeTemporaryLeftovers(among: entries)
                files.removeUnreferenced(keeping: tables.referencedBlobs, among: entries)
            }
        }
    }

    func releaseWriting() {
        journal.closeFile()
        lock.release()
    }

    // MARK: transactions

    public var location: String { path }

    public func savepoint() -> Savepoint { tables.savepoint() }

    public func rollback(to savepoint: Savepoint) {
        tables.rollback(to: savepoint)
        if !tables.hasPendingChanges, lock.isHeld { releaseWriting() }
    }

    public func commit() throws(StoreError) {
        defer { if !tables.hasPendingChanges, lock.isHeld { releaseWriting() } }
        guard tables.hasPendingChanges else { return }
        if let broken { throw StoreError(broken) }
        let released = tables.releasedBlobs()
        InlineBlobTable.dropUnreferenced(released: released, in: tables)
        // A big first commit is written as the snapshot itself: not framed as a record first.
        // So is one whose rows wait in a scratch file when they make the store due to compact
        // (framing them would read them all back into memory).
        let spilled = tables.rowsInMemory.spilledRows
        let intoSnapshot =
            compaction.writesAsSnapshot(view, changes: tables.pendingChangeCount, upgrading: needsUpgrade)
            || (spilled > 0 && !needsUpgrade && compaction.isDue(view, appending: spilled, bytes: 0))
        // A transaction of millions of rows moved to a scratch file has left memory free (rows
        // moved out, an import's reading thread's arena): given back before the snapshot's index
        // is made, so the commit's peak is not added to it (a 10,000,000-row import peaked 5 MB
        // higher). Not for fewer: the pages given back are faulted in again as the commit reuses
        // them (a 100,000-row `run` took 2 % longer), and the peak is far below its bound there.
        if spilled >= Self.releasesMemoryPast { _ = closet_release_free_memory() }
        let frames = intoSnapshot ? nil : tables.framePendingOperations()
        if let frames, frames.order.isEmpty {
            tables.forgetPendingChanges()
            return
        }
        if !lock.isHeld { beginWriting() }
        if let problem = takeWriteProblem() {
            switch problem {
            case .conflict: throw StoreError("another process changed the store since this transaction began")
            case .failed(let message): throw StoreError(message)
            }
        }
        if needsUpgrade { try upgrade() }
        // The pictures this commit refers to are durable before it is.
        try files.syncWritten()
        var wroteSnapshot = false
        if let frames {
            let record = StoreFormat.record(frames, sequence: view.nextSequence, marksInserts: view.journalMarksInserts)
            // A commit after which the store would compact is that compaction (unless it is
            // made in the background).
            if !compactsInBackground, compaction.isDue(view, appending: frames.order.count, bytes: record.count) {
                wroteSnapshot = try commitAsSnapshot(else: record, changes: frames.order.count)
            } else {
                try journal.append(record, &view, broken: &broken)
                view.journalChanges += frames.order.count
            }
        } else {
            wroteSnapshot = try commitAsSnapshot()
        }
        tables.forgetPendingChanges()
        tables.removeReleased(released, from: files)
        if wroteSnapshot {
            if CompactionPolicy.readsNewSnapshot(tables.rowsInMemory) { readNewSnapshot() }
            return
        }
        if compactsInBackground {
            finishBackgroundCompaction(waiting: false)
            if background != nil || broken != nil { return }
        }
        if compaction.isDue(view) {
            if compactsInBackground, startBackgroundCompaction() { return }
            let cost = CompactionPolicy.cost(view)
            do {
                try compact(level: true)
                compaction.succeeded()
            } catch {
                // Nothing is lost (the journal holds every commit); try again once it has grown.
                if compaction.failed(cost: cost, view) {
                    report(
                        "store '\(path)': could not write a new snapshot (\(error)); every commit is still in the journal, and this is tried again as it grows"
                    )
                }
                return
            }
            if CompactionPolicy.readsNewSnapshot(tables.rowsInMemory) { readNewSnapshot() }
        }
    }

    /// After this process's compaction: the tables are read in place from the new snapshot. They
    /// were still read from the old one with every change since the store was opened beside it,
    /// so a long-lived process (`closet serve`, a prompt) held each change it had ever made, and
    /// each compaction went through them all again (80,000 adds at a prompt: 94 MB and 48 s,
    /// now 47 MB and 35 s).
    func readNewSnapshot() {
        do throws(StoreError) {
            try readFiles()
        } catch {
            // The rows were let go to be read again: nothing more is read or written from here.
            broken = "the new snapshot could not be read back (\(error)); reopen the store"
            report("store '\(path)': \(broken ?? "")")
        }
    }

    /// A commit written as the new snapshot, once (not journaled and then compacted): a big
    /// first commit, or one after which the store would compact (`record` its journal record,
    /// of `changes` changes). The snapshot's rename is the commit, as a compaction's is: the
    /// journal it replaces is recorded in it without this commit. If the snapshot cannot be
    /// written the record goes to the journal as usual. Returns whether the snapshot was.
    func commitAsSnapshot(else record: [UInt8]? = nil, changes: Int = 0) throws(StoreError) -> Bool {
        let generation = max(view.generation, 1)
        let link: StoreFormat.SnapshotLink
        do {
            try StoreFolder.checkGenerationLeft(path, after: generation)
            link =
                try writeDelta(generation: generation, committed: false)
                ?? writeSnapshot(generation: generation, committed: false)
        } catch {
            try journal.append(
                record
                    ?? StoreFormat.record(
                        tables.framePendingOperations(), sequence: view.nextSequence,
                        marksInserts: view.journalMarksInserts), &view, broken: &broken)
            view.journalChanges += changes
            // Tried again once the journal has grown, as after a compaction that failed.
            let first = record == nil || compaction.failed(cost: CompactionPolicy.cost(view), view)
            if record == nil { compaction.snapshotCommitFailed(view) }
            if first {
                report(
                    "store '\(path)': could not write a new snapshot (\(error)); the commit went to the journal, and a snapshot is tried again as it grows"
                )
            }
            return false
        }
        do {
            try journal.start(generation: generation + 1, follows: link, &view)
        } catch {
            // Committed (the snapshot holds it; the old journal is inside it), but this
            // process cannot append after it: it stops writing.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
        }
        compaction.succeeded()
        return true
    }

    /// A format-1 to 4 store is rewritten as format 5 before its first new commit: the
    /// committed state as a format-5 snapshot, a fresh journal following it, then the marker
    /// (older closets refuse the new files by their magic: `made by a newer closet`). A crash
    /// at any point leaves files this build reads; what is not committed yet is not in the
    /// snapshot.
    func upgrade() throws(StoreError) {
        do {
            let generation = max(view.generation, view.snapshotLink?.generation ?? 0, 1)
            try StoreFolder.checkGenerationLeft(path, after: generation)
            let link = try writeSnapshot(generation: generation, committed: true)
            try journal.start(generation: generation + 1, follows: link, &view)
            // Last: a store whose marker names this format always has both files.
            try POSIXFile.replace(
                path + "/" + StoreFolder.markerName, with: StoreFolder.markerContents, directory: path)
        } catch {
            throw StoreError(error.description)
        }
        markerIsOld = false
        view.legacyFiles = false
    }

    /// How many rows a transaction moves to a scratch file before its commit gives the free
    /// heap back first.
    static let releasesMemoryPast = 1 << 20

    /// Writes the whole state as a new snapshot, then starts an empty journal following it.
    /// A crash in between leaves snapshot and old journal of the same generation: the journal
    /// is skipped. Readers are never blocked: both files are replaced by renames. `pending`
    /// includes what is not committed yet (a big first commit written as the snapshot).
    /// `level`: the rows changed since the snapshot may be written as the level below it
    /// (`writeDelta`) instead, as a commit's compaction does; asked for (`compact()`, recovery),
    /// the whole snapshot is written and any level merged into it.
    package func compact(pending: Bool = false, level: Bool = false) throws {
        let ownsLock = lock.isHeld
        if !ownsLock { try lock.acquire(timeout: busyTimeout) }
        defer { if !ownsLock { releaseWriting() } }
        if needsUpgrade {
            try upgrade()
            return
        }
        let generation = max(view.generation, 1)
        try StoreFolder.checkGenerationLeft(path, after: generation)
        let link =
            try (level ? writeDelta(generation: generation, committed: !pending) : nil)
            ?? writeSnapshot(generation: generation, committed: !pending)
        do {
            try journal.start(generation: generation + 1, follows: link, &view)
        } catch {
            // The old journal is inside the new snapshot now: a commit appended to it would
            // be skipped at the next open. This process writes no more.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
            throw error
        }
    }

    func writeSnapshot(generation: UInt64, committed: Bool) throws(POSIXFile.Failure)
        -> StoreFormat.SnapshotLink
    {
        // This snapshot holds everything: one made in the background is not needed.
        abandonBackgroundCompaction()
        // A block that fails must not be laundered into a file whose checksums pass.
        try checkBlocks(view.blocks, file: "snapshot")
        try checkBlocks(view.deltaBlocks, file: DeltaFile.name)
        // Streamed to the file: the new snapshot is never whole in memory, and the old one's
        // pages a copy reads are given back as it goes (`SectionCopy`).
        let tables = tables.all
        // The journal this snapshot holds, so a copy of it put back later is told from the crash's.
        let compacted = CompactedJournal(view, generation: generation)
        let (header, length) = try StreamedFile.replace(
            path + "/snapshot", directory: path, blocks: (StoreFormat.snapshotHeaderSize, StoreFormat.blockSize)
        ) {
            (writer, file) throws(POSIXFile.Failure) in
            try StoreFormat.writeSnapshot(
                tables, generation: generation, committed: committed, compacted: compacted, into: &writer
            ) {
                (writer, range) throws(POSIXFile.Failure) in
                writer.drain()
                return try file.blockChecksums(range, size: StoreFormat.blockSize)
            }
        }
        // Every block of the old mapping passed before the copy: what tables still read from
        // it (a section copied as bytes leaves its table read in place) needs no more checks.
        view.blocks = nil
        view.snapshotRows = tables.reduce(0) { $0 + $1.count }
        view.snapshotLength = length
        view.snapshotLink = header.link
        view.snapshot = FileIdentity.of(path + "/snapshot")
        // The level below the old snapshot is inside the new one: a delta left (a stop before
        // this) names an older snapshot and is never read.
        try removeDelta()
        return header.link
    }

    /// A delta beside the snapshot, once merged into it: removed (the folder synced), and the
    /// view says there is none.
    func removeDelta() throws(POSIXFile.Failure) {
        if view.delta != nil || view.staleDelta != nil || FileIdentity.of(path + "/" + DeltaFile.name) != nil {
            guard unlink(path + "/" + DeltaFile.name) == 0 || errno == ENOENT else {
                throw POSIXFile.failure("cannot remove", path + "/" + DeltaFile.name)
            }
            try POSIXFile.syncDirectory(path)
        }
        view.delta = nil
        view.deltaFile = nil
        view.deltaBlocks = nil
        view.deltaLength = 0
        view.baseLink = nil
        view.staleDelta = nil
    }

    /// Throws the damage `blocks` hold, if any (every block read).
    func checkBlocks(_ blocks: SnapshotBlocks?, file: String) throws(POSIXFile.Failure) {
        if let blocks, case let damaged = blocks.damagedBlocks(), !damaged.isEmpty {
            throw POSIXFile.Failure(
                description: StoreFolder.damaged(path, StoreReading.damagedBlocksMessage(blocks, damaged, file: file))
                    .description)
        }
    }

    /// Writes the level below the snapshot (`DeltaFile`) instead of the whole snapshot, when every
    /// table can say what changed since it and that stays small beside it
    /// (`CompactionPolicy.writesDelta`): the rows changed since the snapshot (the old delta's and
    /// the journal's), replacing the delta by a rename. Returns its link, which the next
    /// journal follows; nil when the whole snapshot is to be written (nothing written then).
    func writeDelta(generation: UInt64, committed: Bool) throws(POSIXFile.Failure) -> StoreFormat.SnapshotLink? {
        guard !needsUpgrade, view.snapshot != nil, let base = view.baseLink ?? view.snapshotLink, !base.ofDelta,
            base.checksum != 0, generation > base.generation
        else { return nil }
        // The old delta's rows are copied: a block of it that fails is not laundered (and is
        // found here, before any of its rows is read).
        try checkBlocks(view.deltaBlocks, file: DeltaFile.name)
        let tables = tables.all
        guard
            let sections = DeltaFile.sections(
                tables, generation: generation, committed: committed, base: base,
                compacted: CompactedJournal(view, generation: generation), snapshotRows: view.snapshotRows)
        else { return nil }
        abandonBackgroundCompaction()
        let (header, length) = try StreamedFile.replace(
            path + "/" + DeltaFile.name, directory: path,
            blocks: (StoreFormat.snapshotHeaderSize, StoreFormat.blockSize)
        ) { (writer, file) throws(POSIXFile.Failure) in
            try StoreFormat.writeFile(sections, generation: generation, into: &writer) {
                (writer, range) throws(POSIXFile.Failure) in
                writer.drain()
                return try file.blockChecksums(range, size: StoreFormat.blockSize)
            }
        }
        let link = StoreFormat.SnapshotLink(generation: header.generation, checksum: header.checksum, ofDelta: true)
        view.deltaBlocks = nil
        view.delta = FileIdentity.of(path + "/" + DeltaFile.name)
        view.deltaFile = view.delta
        view.deltaLength = length
        view.baseLink = base
        view.staleDelta = nil
        view.snapshotRows = tables.reduce(0) { $0 + $1.count }
        view.snapshotLink = link
        return link
    }

    public var details: [Field] {
        var details = [
            Field("snapshot", .object([Field("bytes", .integer(view.snapshotLength))])),
            Field(
                "journal",
                .object([
                    Field("bytes", .integer(view.validLength)), Field("transactions", .integer(view.transactions)),
                ])),
            Field(
                "images",
                .object([Field("files", .integer(files.names.count)), Field("bytes", .integer(files.totalBytes))])),
        ]
        // Pictures kept inline (`InlineBlobTable`), when there are any.
        if let rows = inlineBlobs?.rows, !rows.isEmpty {
            details.append(
                Field(
                    "inline images",
                    .object([
                        Field("pictures", .integer(rows.count)),
                        Field("bytes", .integer(rows.reduce(0) { $0 + $1.bytes.count })),
                    ])))
        }
        return details
    }
}
