import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reading a store's files: the snapshot in place, the journal's whole records, damage found
/// and named, and other processes' commits brought in between transactions.
extension DurableStore {
    /// Reads snapshot and journal into the (empty) tables. A journal that does not follow the
    /// snapshot read with it is read again: a compaction may have replaced one between the
    /// two reads. If it still does not, a file is missing or was swapped: damage.
    func readFiles() throws(StoreError) {
        var attempt = 0
        while true {
            tables.removeAllRows()
            let reading = StoreReading(path: path, tables: tables, schemas: schemas, markerIsOld: markerIsOld)
            var next = StoreView()
            if let identity = FileIdentity.of(path + "/snapshot") {
                let mapped: MappedFile?
                do {
                    mapped = try MappedFile.open(path + "/snapshot")
                } catch {
                    throw StoreError(error.description)
                }
                if let mapped {
                    next.snapshot = identity
                    next.snapshotLength = mapped.memory.count
                    next.snapshotLink = try reading.loadSnapshot(mapped, into: &next)
                }
            }
            if next.snapshotLink != nil, let identity = FileIdentity.of(path + "/" + DeltaFile.name) {
                let mapped: MappedFile?
                do {
                    mapped = try MappedFile.open(path + "/" + DeltaFile.name)
                } catch {
                    throw StoreError(error.description)
                }
                if let mapped, let mismatch = try reading.loadDelta(mapped, into: &next) {
                    attempt += 1
                    if attempt >= 2, lock.isHeld || attempt > 400 { throw reading.damaged(mismatch) }
                    usleep(UInt32(min(attempt, 10)) * 500)
                    continue
                }
                next.delta = mapped == nil || next.staleDelta != nil ? nil : identity
                next.deltaFile = identity
            }
            next.baseSections = [:]
            let journal = try reading.read("journal")
            next.journal = journal?.identity
            // A store whose marker names this format always has a snapshot (`create` and
            // `upgrade` write it before the marker, compaction replaces it by a rename).
            if !markerIsOld, next.snapshot == nil {
                throw reading.damaged(
                    journal == nil ? "its snapshot and its journal are missing" : "its snapshot is missing")
            }
            if let mismatch = try reading.loadJournal(journal?.bytes, into: &next) {
                // Compaction happens under the write lock: with the lock free (or ours), a
                // mismatch read twice is no compaction in progress. Otherwise wait it out.
                attempt += 1
                if attempt >= 2 {
                    if lock.isHeld || attempt > 400 { throw reading.damaged(mismatch) }
                    if (try? lock.acquire(timeout: 0)) != nil {
                        lock.release()
                        throw reading.damaged(mismatch)
                    }
                }
                usleep(UInt32(min(attempt, 10)) * 500)
                continue
            }
            try tables.checkLayouts()
            view = next
            return
        }
    }

    /// Whether the files changed since this process last read them.
    var filesChanged: Bool {
        FileIdentity.of(path + "/journal") != view.journal || FileIdentity.of(path + "/snapshot") != view.snapshot
            || FileIdentity.of(path + "/" + DeltaFile.name) != view.deltaFile
    }

    // MARK: other processes' commits

    public func abandon() { lock.release() }

    public func refresh() throws(StoreError) {
        if let broken { throw StoreError(broken) }
        guard !tables.hasPendingChanges, !lock.isHeld, filesChanged else { return }
        try catchUp()
    }

    /// Brings in what other processes committed: the new records only, when the journal just
    /// grew; everything again when it was replaced (a compaction) or the snapshot changed.
    func catchUp() throws(StoreError) {
        guard filesChanged else { return }
        do throws(StoreError) {
            if view.journalFormat >= 3, !view.journalSkipped, FileIdentity.of(path + "/snapshot") == view.snapshot,
                let current = FileIdentity.of(path + "/journal"), let known = view.journal,
                current.device == known.device, current.inode == known.inode, current.size >= view.validLength,
                let journal = try StoreReading(path: path, tables: tables, schemas: schemas, markerIsOld: markerIsOld)
                    .read("journal"),
                StoreFormat.readJournalHeader(journal.bytes)
                    == StoreFormat.JournalHeader(
                        generation: view.generation, follows: view.follows, format: view.journalFormat)
            {
                let tables = tables
                let records: StoreFormat.Records
                do {
                    var changes = 0
                    var applier = JournalApplier(tables, inserts: view.journalMarksInserts ? .trusted : .refused)
                    records = try StoreFormat.readRecords(
                        journal.bytes, from: view.validLength, sequence: view.nextSequence
                    ) { count, reader throws(ByteReader.Malformed) in
                        changes += count
                        try applier.apply(count, from: &reader)
                    }
                    view.journalChanges += changes
                } catch {
                    throw StoreFolder.damaged(
                        path,
                        "byte \(error.offset) of its journal starts a committed transaction this build cannot read")
                }
                if case .damaged(let at, let reason) = records.end {
                    throw StoreFolder.damaged(path, "at byte \(at) of its journal: \(reason)")
                }
                view.journal = journal.identity
                view.validLength = records.validLength
                view.transactions += records.transactions
                view.nextSequence = records.nextSequence
                if case .tornTail(let at, let reason) = records.end {
                    view.tornTail = (at, reason)
                } else {
                    view.tornTail = nil
                }
                return
            }
            try readFiles()
        } catch {
            // Half-applied: nothing read from this process's tables can be trusted now.
            broken = error.description
            throw error
        }
    }
}
