import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A store's journal open for appending, while the write lock is held: started after a
/// snapshot, a torn tail cut, commit records appended and synced with their commit points,
/// a failing commit point written again.
final class JournalWriter {
    /// The store's folder.
    let path: String
    private var descriptor: Int32 = -1

    init(folder: String) { path = folder }

    deinit { closeFile() }

    var isOpen: Bool { descriptor >= 0 }

    /// Opens the journal the view read, and writes again a commit point that fails.
    func open(_ view: StoreView, report: (String) -> Void) throws(POSIXFile.Failure) {
        descriptor = try POSIXFile.open(path + "/journal", flags: O_WRONLY)
        try rewriteFailingCommitPoints(view, report: report)
    }

    func closeFile() {
        guard descriptor >= 0 else { return }
        close(descriptor)
        descriptor = -1
    }

    /// Cuts a torn tail the view found (a commit a crash cut short), saying so first, so a
    /// cut that fails is still reported.
    func cutTornTail(_ view: inout StoreView, report: (String) -> Void) throws(POSIXFile.Failure) {
        guard let torn = view.tornTail, let size = view.journal?.size, size > view.validLength else { return }
        report(tornTailNotice(torn, dropping: size - view.validLength, view))
        guard ftruncate(descriptor, off_t(view.validLength)) == 0 else {
            throw POSIXFile.failure("cannot truncate", path + "/journal")
        }
        try POSIXFile.sync(descriptor, path: path + "/journal")
        view.tornTail = nil
        view.journal = FileIdentity.of(path + "/journal")
    }

    /// Starts a new journal (replacing the old by a rename) and opens it. `carrying`: whole
    /// records numbered from 1 (`StoreFormat.renumbered`), `transactions` of them, holding
    /// `changes`: the commits made while a compaction ran in the background, after its point.
    func start(
        generation: UInt64, follows: StoreFormat.SnapshotLink, carrying records: [UInt8] = [], transactions: Int = 0,
        changes: Int = 0, _ view: inout StoreView
    ) throws(POSIXFile.Failure) {
        let journalPath = path + "/journal"
        let header = StoreFormat.JournalHeader(generation: generation, follows: follows)
        var bytes = StoreFormat.journalHeader(header)
        if transactions > 0 {
            // Both points at the records carried: the next commit's point goes in its slot, the
            // other keeps these.
            let point = StoreFormat.commitPoint(
                StoreFormat.CommitPoint(transactions: transactions, end: bytes.count + records.count),
                generation: generation)
            bytes.replaceSubrange(StoreFormat.journalHeaderSize..<StoreFormat.recordsStart, with: point + point)
            bytes += records
        }
        try POSIXFile.replace(journalPath, with: bytes, directory: path)
        closeFile()
        descriptor = try POSIXFile.open(journalPath, flags: O_WRONLY)
        view.journalFormat = header.format
        view.journalSkipped = false
        view.skippedJournalGeneration = nil
        view.generation = generation
        view.follows = follows
        view.validLength = bytes.count
        view.transactions = transactions
        view.journalChanges = changes
        view.transactionsInsideSnapshot = 0
        view.nextSequence = UInt32(truncatingIfNeeded: transactions + 1)
        view.tornTail = nil
        view.journal = FileIdentity.of(journalPath)
    }

    /// Appends a commit's record and syncs it, then records how far commits reach. A failure
    /// that leaves the file untrustworthy sets `broken`.
    func append(_ record: [UInt8], _ view: inout StoreView, broken: inout String?) throws(StoreError) {
        let journalPath = path + "/journal"
        do throws(POSIXFile.Failure) {
            guard lseek(descriptor, off_t(view.validLength), SEEK_SET) >= 0 else {
                throw POSIXFile.failure("cannot seek", journalPath)
            }
            try POSIXFile.writeAll(descriptor, record, path: journalPath)
            try POSIXFile.sync(descriptor, path: journalPath)
        } catch {
            // Cut the partial record off so the next commit does not land after garbage.
            if ftruncate(descriptor, off_t(view.validLength)) != 0 || fsync(descriptor) != 0 {
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
        if view.journalHasCommitPoints {
            let point = StoreFormat.commitPoint(
                StoreFormat.CommitPoint(transactions: view.transactions, end: view.validLength),
                generation: view.generation)
            let offset = StoreFormat.commitPointOffset(transactions: view.transactions)
            let written = point.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if written != point.count {
                broken =
                    "the journal's commit point could not be written (\(String(cString: strerror(errno)))); reopen the store"
            }
        }
        view.journal = FileIdentity.of(journalPath)
    }

    /// A commit point that fails its checksum (damage, or a write a crash cut) is written again
    /// with how far the journal's whole records reach (durable: a record is synced before its
    /// point), so one more damage cannot cost a commit.
    private func rewriteFailingCommitPoints(_ view: StoreView, report: (String) -> Void) throws(POSIXFile.Failure) {
        guard view.journalHasCommitPoints, descriptor >= 0 else { return }
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
            let written = point.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            guard written == point.count else { throw POSIXFile.failure("cannot write", path + "/journal") }
        }
        try POSIXFile.sync(descriptor, path: path + "/journal")
        report("store '\(path)': a commit point of the journal failed its checksum; it was written again")
    }

    /// What a writer says when it cuts a torn tail. A format-4 journal's commit point reaches
    /// no further than the whole records (else the store is refused as cut short), so the tail
    /// was never reported as saved; an older journal cannot tell a crash's torn write from a
    /// journal cut short, and says so.
    private func tornTailNotice(_ torn: (at: Int, reason: String), dropping count: Int, _ view: StoreView) -> String {
        let headers =
            (try? POSIXFile.readAll(path + "/journal")).flatMap { $0 }.map { bytes in
                StoreFormat.recordHeaders(in: bytes, from: view.validLength)
            } ?? 0
        let started = "\(headers) record\(headers == 1 ? "" : "s") begun in them"
        let what =
            view.journalHasCommitPoints
            ? "a transaction that never finished committing (it was never reported as saved)"
            : "a transaction that never finished committing, or a journal cut short: commits reported as saved may be among them"
        return
            "store '\(path)': dropped \(count) bytes at the end of the journal from byte \(view.validLength) (\(torn.reason) at byte \(torn.at); \(started)): \(what)"
    }
}
