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

    /// Takes the lock before a blob is written; returns why it cannot be written, if so (a
    /// conflict is left for the session: the statement runs again, and rewriting is harmless).
    func beginWritingBlob() -> String? {
        beginWriting()
        if case .failed(let message) = problem { return message }
        return nil
    }

    /// With the lock held and the files as this process last read them: cut a torn tail,
    /// start a journal where there is none (or one inside the snapshot), open it for
    /// appending, and once per process remove blobs no row refers to.
    func prepareForWriting() throws(StoreError) {
        do throws(POSIXFile.Failure) {
            if !needsUpgrade, view.journalSkipped {
                try checkGenerationLeft(after: view.generation)
                try startJournal(generation: view.generation + 1, follows: view.snapshotLink ?? .none)
            }
            if journal < 0 {
                journal = try POSIXFile.open(path + "/journal", flags: O_WRONLY)
                try rewriteFailingCommitPoints()
            }
            if let torn = view.tornTail, let size = view.journal?.size, size > view.validLength {
                // Said before the cut, so a cut that fails is still reported.
                report(tornTailNotice(torn, dropping: size - view.validLength))
                guard ftruncate(journal, off_t(view.validLength)) == 0 else {
                    throw POSIXFile.failure("cannot truncate", path + "/journal")
                }
                try POSIXFile.sync(journal, path: path + "/journal")
                view.tornTail = nil
                view.journal = Self.identity(path + "/journal")
            }
        } catch {
            throw StoreError(error.description)
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

    /// A commit point that fails its checksum (damage, or a write a crash cut) is written again
    /// with how far the journal's whole records reach (durable: a record is synced before its
    /// point), so one more damage cannot cost a commit.
    func rewriteFailingCommitPoints() throws(POSIXFile.Failure) {
        guard view.journalFormat == StoreFormat.journalFormat, journal >= 0 else { return }
        // The journal is open for writing only: its head is read through a descriptor of its own.
        let reader = try POSIXFile.open(path + "/journal", flags: O_RDONLY)
        defer { close(reader) }
        var head = [UInt8](repeating: 0, count: StoreFormat.recordsStart)
        let read = head.withUnsafeMutableBytes { pread(reader, $0.baseAddress, $0.count, 0) }
        guard read == head.count else { return }
        let failing = StoreFormat.failingCommitPoints(head, generation: view.generation)
        guard !failing.isEmpty else { return }
        let point = StoreFormat.commitPoint(
            StoreFormat.CommitPoint(transactions: view.transactions, end: view.validLength),
            generation: view.generation)
        for slot in failing {
            let offset = StoreFormat.journalHeaderSize + slot * StoreFormat.commitPointSize
            let written = point.withUnsafeBytes { pwrite(journal, $0.baseAddress, $0.count, off_t(offset)) }
            guard written == point.count else { throw POSIXFile.failure("cannot write", path + "/journal") }
        }
        try POSIXFile.sync(journal, path: path + "/journal")
        report("store '\(path)': a commit point of the journal failed its checksum; it was written again")
    }

    /// What a writer says when it cuts a torn tail. A format-4 journal's commit point reaches
    /// no further than the whole records (else the store is refused as cut short), so the tail
    /// was never reported as saved; an older journal cannot tell a crash's torn write from a
    /// journal cut short, and says so.
    func tornTailNotice(_ torn: (at: Int, reason: String), dropping count: Int) -> String {
        let headers =
            (try? POSIXFile.readAll(path + "/journal")).flatMap { $0 }.map { bytes in
                StoreFormat.recordHeaders(in: bytes, from: view.validLength)
            } ?? 0
        let started = "\(headers) record\(headers == 1 ? "" : "s") begun in them"
        let what =
            view.journalFormat == StoreFormat.journalFormat
            ? "a transaction that never finished committing (it was never reported as saved)"
            : "a transaction that never finished committing, or a journal cut short: commits reported as saved may be among them"
        return
            "store '\(path)': dropped \(count) bytes at the end of the journal from byte \(view.validLength) (\(torn.reason) at byte \(torn.at); \(started)): \(what)"
    }

    func releaseWriting() {
        if journal >= 0 {
            close(journal)
            journal = -1
        }
        lock.release()
    }

    func startJournal(generation: UInt64, follows: StoreFormat.SnapshotLink) throws(POSIXFile.Failure) {
        let journalPath = path + "/journal"
        let header = StoreFormat.JournalHeader(generation: generation, follows: follows)
        try POSIXFile.replace(journalPath, with: StoreFormat.journalHeader(header), directory: path)
        if journal >= 0 { close(journal) }
        journal = try POSIXFile.open(journalPath, flags: O_WRONLY)
        view.journalFormat = header.format
        view.journalSkipped = false
        view.skippedJournalGeneration = nil
        view.generation = generation
        view.follows = follows
        view.validLength = header.recordsStart
        view.transactions = 0
        view.journalChanges = 0
        view.nextSequence = 1
        view.tornTail = nil
        view.journal = Self.identity(journalPath)
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
        dropUnreferencedInlineBlobs(released: released)
        // A big first commit is written as the snapshot itself: not framed as a record first.
        let intoSnapshot = compaction.writesAsSnapshot(
            view, changes: tables.pendingChangeCount, upgrading: needsUpgrade)
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
        if let frames {
            try append(StoreFormat.record(frames, sequence: view.nextSequence))
            view.journalChanges += frames.order.count
        } else {
            try commitAsSnapshot()
        }
        tables.forgetPendingChanges()
        tables.removeReleased(released, from: files)
        if compaction.isDue(view) {
            let cost = CompactionPolicy.cost(view)
            do {
                try compact()
                compaction.succeeded()
            } catch {
                // Nothing is lost (the journal holds every commit); try again once it has grown.
                if compaction.failed(cost: cost, view) {
                    report(
                        "store '\(path)': could not write a new snapshot (\(error)); every commit is still in the journal, and this is tried again as it grows"
                    )
                }
            }
        }
    }

    /// A big first commit becomes the snapshot: written once, not journaled and then
    /// compacted. The snapshot's rename is the commit; if the snapshot cannot be written the
    /// record goes to the journal as usual.
    func commitAsSnapshot() throws(StoreError) {
        let generation = max(view.generation, 1)
        let link: StoreFormat.SnapshotLink
        do {
            try checkGenerationLeft(after: generation)
            link = try writeSnapshot(generation: generation, committed: false)
        } catch {
            report(
                "store '\(path)': could not write a new snapshot (\(error)); the commit went to the journal, and a snapshot is tried again as it grows"
            )
            compaction.snapshotCommitFailed(view)
            try append(StoreFormat.record(tables.framePendingOperations(), sequence: view.nextSequence))
            return
        }
        do {
            try startJournal(generation: generation + 1, follows: link)
        } catch {
            // Committed (the snapshot holds it; the old journal is inside it), but this
            // process cannot append after it: it stops writing.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
        }
    }

    func append(_ record: [UInt8]) throws(StoreError) {
        let journalPath = path + "/journal"
        do throws(POSIXFile.Failure) {
            guard lseek(journal, off_t(view.validLength), SEEK_SET) >= 0 else {
                throw POSIXFile.failure("cannot seek", journalPath)
            }
            try POSIXFile.writeAll(journal, record, path: journalPath)
            try POSIXFile.sync(journal, path: journalPath)
        } catch {
            // Cut the partial record off so the next commit does not land after garbage.
            if ftruncate(journal, off_t(view.validLength)) != 0 || fsync(journal) != 0 {
                broken = "the journal could not be repaired after a failed write; reopen the store"
            }
            throw StoreError(error.description)
        }
        view.validLength += record.count
        view.transactions += 1
        view.nextSequence &+= 1
        // The record is durable: record how far commits reach, in the point this count selects
        // (the other keeps the previous one). Not synced on its own: a point lost in a crash
        // only lags, and the next commit's sync writes it; one that fails is caught there too.
        if view.journalFormat == StoreFormat.journalFormat {
            let point = StoreFormat.commitPoint(
                StoreFormat.CommitPoint(transactions: view.transactions, end: view.validLength),
                generation: view.generation)
            let offset = StoreFormat.commitPointOffset(transactions: view.transactions)
            let written = point.withUnsafeBytes { pwrite(journal, $0.baseAddress, $0.count, off_t(offset)) }
            if written != point.count {
                broken =
                    "the journal's commit point could not be written (\(String(cString: strerror(errno)))); reopen the store"
            }
        }
        view.journal = Self.identity(journalPath)
    }

    /// A format-1 to 4 store is rewritten as format 5 before its first new commit: the
    /// committed state as a format-5 snapshot, a fresh journal following it, then the marker
    /// (older closets refuse the new files by their magic: `made by a newer closet`). A crash
    /// at any point leaves files this build reads; what is not committed yet is not in the
    /// snapshot.
    func upgrade() throws(StoreError) {
        do {
            let generation = max(view.generation, view.snapshotLink?.generation ?? 0, 1)
            try checkGenerationLeft(after: generation)
            let link = try writeSnapshot(generation: generation, committed: true)
            try startJournal(generation: generation + 1, follows: link)
            // Last: a store whose marker names this format always has both files.
            try POSIXFile.replace(
                path + "/" + StoreFolder.markerName, with: StoreFolder.markerContents, directory: path)
        } catch {
            throw StoreError(error.description)
        }
        markerIsOld = false
        legacyFiles = false
    }

    /// Writes the whole state as a new snapshot, then starts an empty journal following it.
    /// A crash in between leaves snapshot and old journal of the same generation: the journal
    /// is skipped. Readers are never blocked: both files are replaced by renames. `pending`
    /// includes what is not committed yet (a big first commit written as the snapshot).
    package func compact(pending: Bool = false) throws {
        let ownsLock = lock.isHeld
        if !ownsLock { try lock.acquire(timeout: busyTimeout) }
        defer { if !ownsLock { releaseWriting() } }
        if needsUpgrade {
            try upgrade()
            return
        }
        let generation = max(view.generation, 1)
        try checkGenerationLeft(after: generation)
        let link = try writeSnapshot(generation: generation, committed: !pending)
        do {
            try startJournal(generation: generation + 1, follows: link)
        } catch {
            // The old journal is inside the new snapshot now: a commit appended to it would
            // be skipped at the next open. This process writes no more.
            broken = "the journal could not be started after a snapshot (\(error)); reopen the store"
            throw error
        }
    }

    /// A store whose next generation would pass the limit is not written (no arithmetic on a
    /// generation may overflow, and a journal past the limit would not open): recovering it
    /// starts a new store at generation 1.
    func checkGenerationLeft(after generation: UInt64) throws(POSIXFile.Failure) {
        guard generation < Self.maximumGeneration else {
            throw POSIXFile.Failure(
                description:
                    "store '\(path)' has used its last generation (\(generation)); 'closet recover \(path)' copies it into a new store"
            )
        }
    }

    func writeSnapshot(generation: UInt64, committed: Bool) throws(POSIXFile.Failure)
        -> StoreFormat.SnapshotLink
    {
        try checkBlocksBeforeCopying()
        // Streamed to the file: the new snapshot is never whole in memory, and the old one's
        // pages a copy reads are given back as it goes (`SectionCopy`).
        let tables = tables.all
        let (header, length) = try StreamedFile.replace(path + "/snapshot", directory: path) {
            (writer, file) throws(POSIXFile.Failure) in
            try StoreFormat.writeSnapshot(tables, generation: generation, committed: committed, into: &writer) {
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
        view.snapshot = Self.identity(path + "/snapshot")
        return header.link
    }

    public var details: [(String, String)] {
        [
            ("snapshot", "\(view.snapshotLength) bytes"),
            (
                "journal",
                "\(view.validLength) bytes, \(view.transactions) transaction\(view.transactions == 1 ? "" : "s")"
            ),
            ("images", "\(files.names.count) files, \(files.totalBytes) bytes"),
        ] + inlineDetails
    }

    /// Pictures kept inline (`InlineBlobTable`), when there are any.
    private var inlineDetails: [(String, String)] {
        guard let rows = inlineBlobs?.rows, !rows.isEmpty else { return [] }
        return [("inline images", "\(rows.count), \(rows.reduce(0) { $0 + $1.bytes.count }) bytes")]
    }
}
