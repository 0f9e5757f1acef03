import ClosetCore
import ClosetTables
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Sections met while a snapshot is read (`StoreFormat.loadSnapshot` hands them over one by one).
private final class SectionList {
    var sections: [String: (rows: SnapshotRows, inPlace: Bool)] = [:]
}

/// Reading a store's files into its (empty) tables, once: the snapshot in place, the journal's
/// whole records, every format since 1, damage found and named. `DurableStore.readFiles`
/// reads again when a compaction replaced a file in between.
struct StoreReading {
    let path: String
    let tables: Tables
    let schemas: [AnyTableSchema]
    /// The marker names an older format than this build writes.
    let markerIsOld: Bool

    func damaged(_ what: String) -> StoreError { StoreFolder.damaged(path, what) }

    func read(_ file: String) throws(StoreError) -> (bytes: [UInt8], identity: FileIdentity)? {
        // The identity first: if the file changes after, the next refresh reads it again.
        guard let identity = FileIdentity.of(path + "/" + file) else { return nil }
        do {
            guard let bytes = try POSIXFile.readAll(path + "/" + file) else { return nil }
            return (bytes, identity)
        } catch {
            throw StoreError(error.description)
        }
    }

    /// Loads a snapshot; returns its generation and checksum. A format-3 or 4 snapshot is read
    /// in place from the mapping: its header and block checksums are checked now, each block
    /// the first time a statement reads it (`SnapshotBlocks`), and tables decode rows as they
    /// are asked for.
    func loadSnapshot(_ mapped: MappedFile, into view: inout StoreView) throws(StoreError) -> StoreFormat.SnapshotLink {
        guard let (header, blocks) = try openedSnapshot(mapped) else {
            return try loadLegacySnapshot(Array(mapped.memory), into: &view)
        }
        // Formats 3 and 4 (an older index): rewritten before the first commit.
        if header.format < StoreFormat.currentFormat { view.legacyFiles = true }
        guard header.generation <= StoreFormat.maximumGeneration else {
            throw damaged("its snapshot's generation \(header.generation) is out of range")
        }
        do {
            let sections = SectionList()
            view.compactedJournal = try StoreFormat.loadSnapshot(
                memory: mapped.memory, header: header, owner: mapped, blocks: blocks, into: tables
            ) { name, rows, inPlace in
                sections.sections[name] = (rows, inPlace)
            }
            view.baseSections = sections.sections
        } catch {
            // What opening reads (each section's lengths) is checked as it is read.
            if let failed = blocks.failed { throw damaged(Self.damagedBlocksMessage(blocks, [failed])) }
            throw damaged("its snapshot passes its checksum but cannot be read")
        }
        view.blocks = blocks
        view.snapshotRows = tables.all.reduce(0) { $0 + $1.count }
        return header.link
    }

    /// Puts the level below the snapshot (`DeltaFile`) under the tables' snapshot rows, when it
    /// sits on the snapshot just read; one that names an older snapshot was merged into it and
    /// is left unread. Returns why it does not follow the snapshot, if it does not (the caller
    /// reads the files again, as for a journal).
    func loadDelta(_ mapped: MappedFile, into view: inout StoreView) throws(StoreError) -> String? {
        defer { view.baseSections = [:] }
        guard let (header, blocks) = try openedSnapshot(mapped, file: "delta"),
            header.format == StoreFormat.currentFormat
        else { throw damaged("its delta is not a closet delta (\(mapped.memory.count) bytes)") }
        let contents: DeltaFile.Contents
        do {
            contents = try DeltaFile.read(memory: mapped.memory, header: header, owner: mapped, blocks: blocks)
        } catch {
            if let failed = blocks.failed { throw damaged(Self.damagedBlocksMessage(blocks, [failed], file: "delta")) }
            throw damaged("its delta passes its checksum but cannot be read")
        }
        guard let snapshot = view.snapshotLink, contents.snapshot == snapshot else {
            if let snapshot = view.snapshotLink, contents.snapshot.generation < snapshot.generation {
                view.staleDelta = header.generation
                return nil
            }
            return
                "its delta (generation \(header.generation)) sits on \(contents.snapshot), but the snapshot is \(view.snapshotLink.map(\.description) ?? "missing")"
        }
        guard header.generation > snapshot.generation, header.generation <= StoreFormat.maximumGeneration else {
            throw damaged("its delta's generation \(header.generation) is out of range")
        }
        do {
            try DeltaFile.attach(contents, generation: header.generation, base: view.baseSections, to: tables)
        } catch {
            if let failed = blocks.failed { throw damaged(Self.damagedBlocksMessage(blocks, [failed], file: "delta")) }
            throw damaged("its delta does not add up with its snapshot")
        }
        view.baseLink = snapshot
        view.snapshotLink = StoreFormat.SnapshotLink(
            generation: header.generation, checksum: header.checksum, ofDelta: true)
        view.compactedJournal = contents.compacted
        view.deltaBlocks = blocks
        view.deltaLength = mapped.memory.count
        view.snapshotRows = tables.all.reduce(0) { $0 + $1.count }
        return nil
    }

    /// The header of a format-3 or 4 snapshot that passes its checksum, with its blocks to
    /// check as they are read; nil for an older format (or a file that is no snapshot). `file`
    /// names it in what damage says (a delta is laid out as a snapshot).
    func openedSnapshot(
        _ mapped: MappedFile, file: String = "snapshot"
    ) throws(StoreError) -> (StoreFormat.SnapshotHeader, SnapshotBlocks)? {
        let memory = mapped.memory
        do throws(StoreFormat.SnapshotProblem) {
            guard let header = try StoreFormat.snapshotHeader(memory: memory) else { return nil }
            let checksum = { (range: Range<Int>) in mapped.blockChecksums(range, size: range.count)?.first }
            let mappedChecksum = { (range: Range<Int>) in mapped.mappedChecksum(range) }
            let bytesChecksum = { (bytes: UnsafeRawBufferPointer) in StoreChecksum.crc32c(bytes) }
            let (start, end, shift) = (StoreFormat.snapshotHeaderSize, header.bodyEnd, StoreFormat.blockShift(header))
            // The checksums read where they lie (a format-3 body has one, in the header).
            let blocks =
                header.format == 3
                ? SnapshotBlocks(
                    bodyStart: start, bodyEnd: end, blockShift: shift, expected: [header.bodyChecksum],
                    checksum: checksum, mappedChecksum: mappedChecksum, bytesChecksum: bytesChecksum)
                : SnapshotBlocks(
                    bodyStart: start, bodyEnd: end, blockShift: shift,
                    expected: try StoreFormat.blockChecksumBytes(memory: memory, header: header), in: mapped,
                    checksum: checksum, mappedChecksum: mappedChecksum, bytesChecksum: bytesChecksum)
            return (header, blocks)
        } catch {
            switch error {
            case .header: throw damaged("the header of its \(file) (bytes 0-31) fails its checksum")
            case .length: throw damaged("its \(file) is cut short or has bytes added (length \(memory.count))")
            case .blockChecksums: throw damaged("the block checksums at the end of its \(file) fail their checksum")
            case .blocks: throw damaged("its \(file) fails its checksum")
            }
        }
    }

    /// Says which blocks fail, as a statement that reads one would (`.check`, compaction).
    static func damagedBlocksMessage(_ blocks: SnapshotBlocks, _ damaged: [Int], file: String = "snapshot") -> String {
        let ranges = damaged.prefix(3).map { "\(blocks.block($0).lowerBound)-\(blocks.block($0).upperBound - 1)" }
        let more = damaged.count > 3 ? " and \(damaged.count - 3) more block\(damaged.count == 4 ? "" : "s")" : ""
        return "its \(file) fails its checksum in bytes \(ranges.joined(separator: ", "))\(more)"
    }

    /// Formats 1 and 2, or a file that is no snapshot at all.
    func loadLegacySnapshot(_ bytes: [UInt8], into view: inout StoreView) throws(StoreError) -> StoreFormat.SnapshotLink
    {
        switch JournalFormat.layout(bytes, journal: false) {
        case .formatOne, .formatTwo:
            view.legacyFiles = true
            do {
                let generation = try JournalFormat.readSnapshot(bytes, tables: tables, formatOne: schemas)
                return StoreFormat.SnapshotLink(generation: generation, checksum: 0)
            } catch {
                switch error {
                case .damaged: throw damaged("its snapshot fails its checksum")
                case .newer: throw StoreError(StoreFolder.newer(path, format: "a newer snapshot").description)
                }
            }
        case .newer:
            throw StoreError(StoreFolder.newer(path, format: "a newer snapshot").description)
        case nil:
            throw damaged("its snapshot is not a closet snapshot")
        }
    }

    /// Loads the journal's whole records into the tables, filling in `view`. Returns why the
    /// journal does not follow the snapshot, if it does not (the caller reads both again).
    func loadJournal(_ bytes: [UInt8]?, into view: inout StoreView) throws(StoreError) -> String? {
        let snapshot = view.snapshotLink
        guard let bytes else {
            // No journal: a format-1/2 store whose journal was never started, or an upgrade to
            // format 5 cut after its snapshot (the old marker is still there, the snapshot is
            // new). Beside any other format-3, 4 or 5 snapshot it was deleted.
            let upgradeCut = markerIsOld && !view.legacyFiles
            if let snapshot, snapshot.checksum != 0, !upgradeCut {
                return "its journal is missing (the snapshot is generation \(snapshot.generation))"
            }
            view.generation = snapshot?.generation ?? 0
            return nil
        }
        if StoreFormat.journalLayout(magic: bytes.prefix(8)) != nil {
            guard let header = StoreFormat.readJournalHeader(bytes) else {
                if bytes.count < StoreFormat.journalHeaderSize {
                    throw damaged("its journal is cut short (\(bytes.count) bytes)")
                }
                throw damaged("the header of its journal (bytes 0-35) fails its checksum")
            }
            guard header.generation <= StoreFormat.maximumGeneration,
                header.follows.generation <= StoreFormat.maximumGeneration
            else { throw damaged("its journal's generation \(header.generation) is out of range") }
            view.journalFormat = header.format
            view.generation = header.generation
            view.follows = header.follows
            // The records already inside the snapshot, when only the journal's last ones are not.
            var carried: (start: Int, transactions: Int)?
            if let snapshot, header.generation <= snapshot.generation {
                // Already inside the snapshot: a compaction cut between its two renames leaves
                // the journal it compacted, of the snapshot's own generation. An older one was
                // put back (one file restored from an older copy): the commits after the
                // snapshot are gone with the journal it replaced, which is damage, not a state.
                guard header.generation == snapshot.generation else {
                    return
                        "its journal (generation \(header.generation)) is older than its snapshot (generation \(snapshot.generation)): a journal put back from an older copy, without what was committed after the snapshot"
                }
                // The snapshot says which journal it was made from and how far: a copy of that
                // journal from before its last commits, or another store's, is not the crash's.
                // One that holds more was compacted in the background while commits went on:
                // those after the point are read below.
                if let compacted = view.compactedJournal, compacted.generation == header.generation,
                    header.hasCommitPoints
                {
                    if let start = compacted.carriedStart(journal: bytes) {
                        carried = (start, compacted.transactions)
                    } else if let mismatch = compacted.mismatch(journal: bytes) {
                        return mismatch
                    }
                }
                if carried == nil {
                    view.generation = snapshot.generation
                    view.skippedJournalGeneration = header.generation
                    return nil
                }
            }
            guard carried != nil || header.follows == (snapshot ?? .none) else {
                let found = snapshot.map { "generation \($0.generation) (checksum \(StoreFormat.hex($0.checksum)))" }
                return
                    "its journal (generation \(header.generation)) follows \(header.follows), but the snapshot is \(found ?? "missing")"
            }
            // Formats 4 and 5: how far its commits reach (checked against the records below).
            var committed: StoreFormat.CommitPoint?
            if header.hasCommitPoints {
                guard bytes.count >= StoreFormat.recordsStart else {
                    throw damaged("its journal is cut short (\(bytes.count) bytes)")
                }
                guard let point = StoreFormat.readCommitPoint(bytes, generation: header.generation) else {
                    throw damaged("both commit points of its journal (bytes 36-83) fail their checksums")
                }
                committed = point
            } else {
                view.legacyFiles = true
            }
            view.journalSkipped = false
            let tables = tables
            var records: StoreFormat.Records
            do {
                var changes = 0
                var applier = JournalApplier(tables, inserts: header.marksInserts ? .trusted : .refused)
                records = try StoreFormat.readRecords(
                    bytes, from: carried?.start ?? header.recordsStart,
                    sequence: UInt32(truncatingIfNeeded: (carried?.transactions ?? 0) + 1)
                ) {
                    count, reader throws(ByteReader.Malformed) in
                    changes += count
                    try applier.apply(count, from: &reader)
                }
                records.transactions += carried?.transactions ?? 0
                view.journalChanges = changes
                view.transactionsInsideSnapshot = carried?.transactions ?? 0
            } catch {
                throw damaged(
                    "byte \(error.offset) of its journal starts a committed transaction this build cannot read")
            }
            if case .damaged(let at, let reason) = records.end {
                throw damaged("at byte \(at) of its journal: \(reason)")
            }
            if let committed, records.validLength < committed.end || records.transactions < committed.transactions {
                // Returned, not thrown: read again first, as a writer may have recorded a
                // commit after this read began.
                if case .tornTail(let at, let reason) = records.end, at < committed.end {
                    return
                        "at byte \(at) of its journal: \(reason), in a transaction that was committed (its commit point reaches byte \(committed.end))"
                }
                let missing = committed.transactions - records.transactions
                return
                    "its journal is cut short: \(committed.transactions) committed transaction\(committed.transactions == 1 ? "" : "s") end at byte \(committed.end), but its whole records end at byte \(records.validLength) (\(max(missing, 0)) transaction\(missing == 1 ? "" : "s") missing)"
            }
            view.validLength = records.validLength
            view.transactions = records.transactions
            view.nextSequence = records.nextSequence
            switch records.end {
            case .clean: break
            case .tornTail(let at, let reason): view.tornTail = (at, reason)
            case .damaged(let at, let reason): throw damaged("at byte \(at) of its journal: \(reason)")
            }
            return nil
        }
        // A format-3 journal whose magic lost a bit reads as an older format, whose records
        // would then all look torn: its header's checksum, taken with the right magic, tells.
        if bytes.count >= StoreFormat.journalHeaderSize {
            for (magic, _, _) in StoreFormat.journalLayouts
            where StoreFormat.readJournalHeader(magic + bytes[8..<StoreFormat.journalHeaderSize]) != nil {
                throw damaged("the magic of its journal (bytes 0-7) is damaged")
            }
        }
        return try loadLegacyJournal(bytes, into: &view)
    }

    /// Formats 1 and 2: a header of magic and generation, records of length, CRC-32 and payload.
    func loadLegacyJournal(_ bytes: [UInt8], into view: inout StoreView) throws(StoreError) -> String? {
        guard bytes.count >= JournalFormat.journalHeaderSize else {
            // Beside a format-3 snapshot the journal was one too: cut short, not never started.
            if let snapshot = view.snapshotLink, snapshot.checksum != 0 {
                throw damaged("its journal is cut short (\(bytes.count) bytes)")
            }
            view.generation = view.snapshotLink?.generation ?? 0
            return nil
        }
        let layout = JournalFormat.layout(bytes, journal: true)
        if layout == .newer { throw StoreError(StoreFolder.newer(path, format: "a newer journal").description) }
        var header = ByteReader(bytes, from: 8, to: 16)
        let generation = (try? header.u64()) ?? 0
        if let snapshot = view.snapshotLink, layout != nil, generation <= snapshot.generation {
            view.generation = snapshot.generation
            return nil
        }
        let tables = tables
        let schemas = schemas
        let read: JournalFormat.JournalContents?
        do {
            var applier = JournalApplier(tables, inserts: .refused)
            read = try JournalFormat.readJournal(bytes) { layout, count, reader throws(ByteReader.Malformed) in
                switch layout {
                case .formatOne:
                    for _ in 0..<count {
                        guard let (table, put) = tables.table(formatOneTag: try reader.u8(), schemas: schemas) else {
                            throw ByteReader.Malformed()
                        }
                        try table.applyFormatOne(put: put, from: &reader)
                    }
                case .formatTwo:
                    try applier.apply(count, from: &reader)
                case .newer:
                    throw ByteReader.Malformed()
                }
            }
        } catch {
            throw damaged("byte \(error.offset) of its journal starts a committed transaction this build cannot read")
        }
        guard let contents = read else { throw damaged("its journal has no valid header") }
        guard contents.generation <= StoreFormat.maximumGeneration else {
            throw damaged("its journal's generation \(contents.generation) is out of range")
        }
        view.legacyFiles = true
        view.journalFormat = contents.layout == .formatOne ? 1 : 2
        view.journalSkipped = false
        view.generation = contents.generation
        view.transactions = contents.transactions
        view.validLength = contents.validLength
        if let damage = contents.damage {
            if let later = JournalFormat.validRecord(after: contents.validLength, in: bytes) {
                throw damaged(
                    "at byte \(contents.validLength) of its journal: \(damage), with an intact transaction at byte \(later) after it"
                )
            }
            view.tornTail = (contents.validLength, damage)
        }
        return nil
    }
}
