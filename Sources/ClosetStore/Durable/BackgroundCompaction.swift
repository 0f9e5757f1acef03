import CStoreSupport
import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A compaction made on a thread of its own while the writer goes on committing (`closet
/// serve`'s writes): the snapshot and the journal's commits up to a point are read into tables
/// of its own, as another process would read them, and written as a new snapshot into a file
/// that has no name yet. The writer names it later, with the lock held, and starts the new
/// journal with the commits made meanwhile (`DurableStore.finishBackgroundCompaction`), so no
/// commit waits for the rewrite and no reader is ever blocked.
final class BackgroundCompaction: @unchecked Sendable {
    /// What the snapshot is made from: the files as the writer read them, and how far the
    /// journal's commits reached when it began.
    struct Point: Sendable {
        var snapshot: FileIdentity
        /// The delta read with it, if any (`DeltaFile`).
        var delta: FileIdentity?
        /// What the journal follows: the delta's link when there is one, else the snapshot's.
        var snapshotLink: StoreFormat.SnapshotLink
        /// The journal's generation: the new snapshot's.
        var generation: UInt64
        var journalHeaderChecksum: UInt32
        var transactions: Int
        var end: Int
        /// The journal's changes then (those after it are carried into the new journal).
        var changes: Int

        var compacted: CompactedJournal {
            CompactedJournal(
                generation: generation, headerChecksum: journalHeaderChecksum, transactions: transactions, end: end)
        }
    }

    /// A snapshot (or a delta, when `base` names the snapshot it sits on) written and synced, in
    /// a file with no name (`descriptor`).
    struct Written {
        var descriptor: Int32
        var link: StoreFormat.SnapshotLink
        var length: Int
        var rows: Int
        /// For a delta, the snapshot it sits on.
        var base: StoreFormat.SnapshotLink?
    }

    enum Outcome {
        case written(Written)
        case failed(String)
        /// Damage met deep inside the copy (a section that passes its checksums but does not add
        /// up), which cannot unwind: the thread stopped there.
        case damaged(String)
    }

    /// The new snapshot goes to the disk a megabyte at a time as it is written: the commits'
    /// journal syncs meanwhile wait behind at most that much (ext4's ordered mode makes a sync
    /// wait for data written before it), not behind the whole snapshot at its final sync.
    static let writeBehind = 1 << 20

    let point: Point
    private let condition = NSCondition()
    private var outcome: Outcome?

    init(path: String, schemas: [AnyTableSchema], point: Point, starting: (@Sendable () -> Void)? = nil) {
        self.point = point
        let thread = Thread { [self] in
            // Damage cannot unwind from where it is met: without this the process's handler
            // would stop a server serving others. The compaction fails instead, and this thread
            // waits forever, touching nothing again (as a server's worker does).
            UnreadableRow.threadHandler = { [self] what in
                finish(.damaged(what))
                while true { sleep(3600) }
            }
            starting?()
            finish(Self.make(path: path, schemas: schemas, point: point))
        }
        // Decoding and writing a table's section go as deep as on the main thread.
        thread.stackSize = 8 << 20
        thread.start()
    }

    deinit {
        if case .written(let written)? = outcome { close(written.descriptor) }
    }

    private func finish(_ made: Outcome) {
        condition.lock()
        outcome = made
        condition.broadcast()
        condition.unlock()
    }

    var isFinished: Bool {
        condition.lock()
        defer { condition.unlock() }
        return outcome != nil
    }

    /// The outcome, once the thread is done (waiting for it).
    func wait() -> Outcome {
        condition.lock()
        defer { condition.unlock() }
        while outcome == nil { condition.wait() }
        return outcome ?? .failed("no outcome")
    }

    private static func make(path: String, schemas: [AnyTableSchema], point: Point) -> Outcome {
        let tables = Tables(InlineBlobTable.withPacks(schemas))
        let reading = StoreReading(path: path, tables: tables, schemas: schemas, markerIsOld: false)
        let changed = Outcome.failed("the store's files changed while it was compacted")
        do {
            guard let mapped = try MappedFile.open(path + "/snapshot"),
                FileIdentity.of(path + "/snapshot") == point.snapshot
            else { return changed }
            var view = StoreView()
            view.snapshotLink = try reading.loadSnapshot(mapped, into: &view)
            if let delta = point.delta {
                guard let mappedDelta = try MappedFile.open(path + "/" + DeltaFile.name),
                    FileIdentity.of(path + "/" + DeltaFile.name) == delta,
                    try reading.loadDelta(mappedDelta, into: &view) == nil, view.baseLink != nil
                else { return changed }
            }
            view.baseSections = [:]
            guard view.snapshotLink == point.snapshotLink,
                let bytes = try POSIXFile.readAll(path + "/journal"), bytes.count >= point.end,
                let header = StoreFormat.readJournalHeader(bytes), header.generation == point.generation,
                header.follows == point.snapshotLink, header.hasCommitPoints,
                CompactedJournal.headerChecksum(bytes) == point.journalHeaderChecksum
            else { return changed }
            var applier = JournalApplier(tables, inserts: header.marksInserts ? .trusted : .refused)
            let records = try StoreFormat.readRecords(
                Array(bytes[..<point.end]), from: StoreFormat.recordsStart, sequence: 1
            ) { count, reader throws(ByteReader.Malformed) in
                try applier.apply(count, from: &reader)
            }
            guard records.end == .clean, records.transactions == point.transactions, records.validLength == point.end
            else { return changed }
            // The rows changed since the snapshot, when few beside it (`DeltaFile`); else the
            // whole snapshot.
            let base = view.baseLink ?? view.snapshotLink
            let delta = base.flatMap { base in
                DeltaFile.sections(
                    tables.all, generation: point.generation, committed: true, base: base,
                    compacted: point.compacted, snapshotRows: view.snapshotRows)
            }
            // A block that fails must not be laundered into a file whose checksums pass (the
            // snapshot's rows are copied only into a whole snapshot).
            for (blocks, file) in [(delta == nil ? view.blocks : nil, "snapshot"), (view.deltaBlocks, DeltaFile.name)] {
                if let blocks, case let damaged = blocks.damagedBlocks(), !damaged.isEmpty {
                    return .failed(
                        StoreFolder.damaged(path, StoreReading.damagedBlocksMessage(blocks, damaged, file: file))
                            .description)
                }
            }
            let descriptor = closet_open_unnamed(path)
            guard descriptor >= 0 else { return .failed(POSIXFile.failure("cannot make a file in", path).description) }
            do throws(POSIXFile.Failure) {
                let (header, length) = try StreamedFile.write(
                    into: descriptor, path: path + "/" + (delta == nil ? "snapshot" : DeltaFile.name),
                    blocks: (StoreFormat.snapshotHeaderSize, StoreFormat.blockSize), writeBehind: Self.writeBehind
                ) { (writer, file) throws(POSIXFile.Failure) in
                    let checksums = { (writer: inout ByteWriter, range: Range<Int>) throws(POSIXFile.Failure) in
                        writer.drain()
                        return try file.blockChecksums(range, size: StoreFormat.blockSize)
                    }
                    if let delta {
                        return try StoreFormat.writeFile(
                            delta, generation: point.generation, into: &writer, blockChecksums: checksums)
                    }
                    return try StoreFormat.writeSnapshot(
                        tables.all, generation: point.generation, committed: true, compacted: point.compacted,
                        into: &writer, blockChecksums: checksums)
                }
                let rows = tables.all.reduce(0) { $0 + $1.count }
                guard delta != nil else {
                    return .written(Written(descriptor: descriptor, link: header.link, length: length, rows: rows))
                }
                var link = header.link
                link.ofDelta = true
                return .written(
                    Written(
                        descriptor: descriptor, link: link, length: length, rows: rows, base: base))
            } catch {
                close(descriptor)
                return .failed(error.description)
            }
        } catch {
            return .failed("\(error)")
        }
    }
}
