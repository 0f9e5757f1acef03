import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Compactions made in the background (`BackgroundCompaction`): started by the commit that
/// makes the store due, named by a later commit (or when the process stops serving), with the
/// commits made meanwhile carried into the new journal.
///
/// Crash safety: the new snapshot is synced before it is named, and named by a rename, as a
/// compaction's is. Between that rename and the new journal's, the store is the new snapshot
/// and the old journal, whose commits after the snapshot's point are read after it
/// (`CompactedJournal.carriedStart`): every step leaves a store that opens with every commit.
extension DurableStore {
    /// Starts compacting in the background from the files as read now; false when this store's
    /// state cannot be compacted so (it is done in the foreground then).
    func startBackgroundCompaction() -> Bool {
        guard background == nil, !needsUpgrade, !view.journalSkipped, view.transactionsInsideSnapshot == 0,
            view.journalHasCommitPoints, let snapshot = view.snapshot,
            let link = view.snapshotLink, view.follows == link,
            let compacted = CompactedJournal(view, generation: view.generation),
            (try? StoreFolder.checkGenerationLeft(path, after: view.generation)) != nil
        else { return false }
        background = BackgroundCompaction(
            path: path, schemas: schemas,
            point: BackgroundCompaction.Point(
                snapshot: snapshot, delta: view.delta, snapshotLink: link, generation: view.generation,
                journalHeaderChecksum: compacted.headerChecksum, transactions: view.transactions,
                end: view.validLength, changes: view.journalChanges),
            starting: backgroundThreadStarts)
        return true
    }

    /// With the write lock held and the files as this process last read them: names the
    /// background compaction's snapshot if it is done (or, `waiting`, once it is).
    func finishBackgroundCompaction(waiting: Bool) {
        guard let running = background, waiting || running.isFinished else { return }
        background = nil
        switch running.wait() {
        case .failed(let reason):
            if compaction.failed(cost: CompactionPolicy.cost(view), view) {
                report(
                    "store '\(path)': could not write a new snapshot (\(reason)); every commit is still in the journal, and this is tried again as it grows"
                )
            }
        case .damaged(let what):
            // Nothing is lost (the journal holds every commit); compacting in this thread from
            // now on meets the damage where a statement or request reports it.
            compactsInBackground = false
            report(
                "store '\(path)': a compaction in the background found the store damaged (\(what)); every commit is still in the journal; 'closet check \(path)' says what else is"
            )
        case .written(let written):
            do throws(POSIXFile.Failure) {
                guard try adopt(written, from: running.point) else { return }
            } catch {
                // Nothing is lost: the journal holds every commit. A folder where a file with
                // no name cannot be named compacts in the foreground from now on.
                compactsInBackground = false
                if compaction.failed(cost: CompactionPolicy.cost(view), view) {
                    report(
                        "store '\(path)': could not write a new snapshot (\(error)); every commit is still in the journal, and this is tried again as it grows"
                    )
                }
                return
            }
            compaction.succeeded()
            if CompactionPolicy.readsNewSnapshot(tables.rowsInMemory) { readNewSnapshot() }
        }
    }

    /// Lets a background compaction finish and drops what it made: the caller writes a
    /// snapshot of its own (a commit written as the snapshot, an upgrade, `compact`).
    func abandonBackgroundCompaction() {
        guard let running = background else { return }
        background = nil
        _ = running.wait()
    }

    public func compactInBackground() { compactsInBackground = true }

    /// When the session ends or moves to another store: a compaction running in the background
    /// is waited for and named, under the write lock.
    public func finishBackgroundWork() {
        guard background != nil else { return }
        let ownsLock = lock.isHeld
        if !ownsLock {
            guard (try? lock.acquire(timeout: busyTimeout)) != nil else {
                abandonBackgroundCompaction()
                return
            }
        }
        defer { if !ownsLock { releaseWriting() } }
        // Another process compacted since: what was made describes older files.
        if filesChanged || broken != nil {
            abandonBackgroundCompaction()
            return
        }
        finishBackgroundCompaction(waiting: true)
    }

    /// Names `written` as the snapshot and starts the journal after it, carrying the commits
    /// since `point`. Returns false when the files moved on without it (another process
    /// compacted): it is dropped.
    private func adopt(_ written: BackgroundCompaction.Written, from point: BackgroundCompaction.Point)
        throws(POSIXFile.Failure) -> Bool
    {
        guard view.snapshot == point.snapshot, view.delta == point.delta, view.snapshotLink == point.snapshotLink,
            view.generation == point.generation, !view.journalSkipped, view.transactionsInsideSnapshot == 0,
            view.transactions >= point.transactions, view.validLength >= point.end
        else { return false }
        guard let bytes = try POSIXFile.readAll(path + "/journal"), bytes.count >= view.validLength,
            let carried = StoreFormat.renumbered(bytes, point.end..<view.validLength),
            carried.count == view.transactions - point.transactions
        else { return false }
        try StoreFolder.checkGenerationLeft(path, after: point.generation)
        // Named through the process's own link to it; the names `snapshot.tmp` and `delta.tmp`
        // are a compaction's, and this process holds the lock.
        let name = path + "/" + (written.base == nil ? "snapshot" : DeltaFile.name)
        let temporary = name + ".tmp"
        unlink(temporary)
        guard linkat(AT_FDCWD, "/proc/self/fd/\(written.descriptor)", AT_FDCWD, temporary, AT_SYMLINK_FOLLOW) == 0
        else { throw POSIXFile.failure("cannot name the new snapshot", temporary) }
        guard rename(temporary, name) == 0 else {
            let failure = POSIXFile.failure("cannot rename", temporary)
            unlink(temporary)
            throw failure
        }
        try POSIXFile.syncDirectory(path)
        // The store is now the new snapshot (or delta), and the old journal's commits after its point.
        view.snapshotRows = written.rows
        view.snapshotLink = written.link
        if let base = written.base {
            view.deltaBlocks = nil
            view.delta = FileIdentity.of(name)
            view.deltaFile = view.delta
            view.deltaLength = written.length
            view.baseLink = base
            view.staleDelta = nil
        } else {
            view.blocks = nil
            view.snapshotLength = written.length
            view.snapshot = FileIdentity.of(name)
            // The delta under the old snapshot is inside the new one.
            try removeDelta()
        }
        view.compactedJournal = point.compacted
        view.transactionsInsideSnapshot = point.transactions
        view.journalChanges -= point.changes
        do {
            try journal.start(
                generation: point.generation + 1, follows: written.link, carrying: carried.records,
                transactions: carried.count, changes: view.journalChanges, &view)
        } catch {
            // The store opens whole (the old journal's last commits are read after the new
            // snapshot), but whether this process's descriptor still names the journal cannot
            // be told: it writes no more, as after a compaction.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
            report("store '\(path)': \(broken ?? "")")
        }
        return true
    }
}
