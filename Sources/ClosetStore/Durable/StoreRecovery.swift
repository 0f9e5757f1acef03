import ClosetCore
import ClosetTables
import Foundation

/// `closet recover <store> [<new store>]`: copies everything intact of a damaged store into a
/// new one, leaving the damaged store untouched, and says honestly what it could not keep.
///
/// - The snapshot is salvaged block by block (formats 4 and 5 checksum each 32 KiB block of its
///   body): every row whose bytes lie in intact blocks and that decodes is kept, the rest are
///   counted as lost; a row's place is found from its neighbour's length or, past a damaged
///   stretch, from the section's row offsets. Older snapshots are kept whole or not at all.
/// - The journal is replayed only if it is newer than the snapshot (an older one is already
///   inside it), every record that passes its checksums and decodes, skipping damaged stretches.
/// - A journal that follows another snapshot than the one found (an older snapshot put back,
///   a newer one lost), a journal cut short before its commit point, or lost rows are warnings:
///   the summary lists them and `closet recover` exits 1, because the new store then lacks
///   something the damaged one once held.
/// - The marker is not needed: a folder with a snapshot or a journal is read.
package enum StoreRecovery {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What was kept and what was not, one line each for the person who asked; `warnings`
    /// are what the new store may lack.
    package struct Report: Sendable {
        package var lines: [String] = []
        package var warnings: [String] = []
    }

    package static func recover(
        from source: String, to target: String, tables schemas: [AnyTableSchema]
    ) throws(Failure) -> Report {
        var report = Report()
        var isDirectory: ObjCBool = false
        let manager = FileManager.default
        guard manager.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue,
            ["snapshot", "journal", StoreFolder.markerName].contains(where: {
                manager.fileExists(atPath: source + "/" + $0)
            })
        else { throw Failure(description: "'\(source)' is not a closet store (no marker, snapshot or journal)") }
        if manager.fileExists(atPath: target), !((try? manager.contentsOfDirectory(atPath: target)) ?? [""]).isEmpty {
            throw Failure(description: "'\(target)' already exists and is not empty; name a new folder")
        }
        if !manager.fileExists(atPath: source + "/" + StoreFolder.markerName) {
            report.lines.append("marker: missing (read as a closet store all the same)")
        }
        // The store's own table too: inline pictures are salvaged as rows, decoded and checked.
        let storeSchemas = InlineBlobTable.withPacks(schemas)
        let salvaged = Tables(storeSchemas)
        func readAll(_ name: String) throws(Failure) -> [UInt8]? {
            do {
                return try POSIXFile.readAll(source + "/" + name)
            } catch {
                throw Failure(description: error.description)
            }
        }

        var snapshotLink: StoreFormat.SnapshotLink?
        var compacted: CompactedJournal?
        if let snapshot = try readAll("snapshot") {
            snapshotLink = salvageSnapshot(snapshot, into: salvaged, schemas: storeSchemas, report: &report)
            if let header = try? snapshot.withUnsafeBytes({
                try StoreFormat.snapshotHeader(memory: $0, checkingLength: false)
            }) {
                compacted = CompactedJournal(snapshot: snapshot, header: header)
            }
        } else {
            report.lines.append("snapshot: none")
        }
        if let delta = try readAll(DeltaFile.name), let base = snapshotLink, let snapshot = try readAll("snapshot") {
            if let (link, deltaCompacted) = salvageDelta(
                delta, over: snapshot, base, snapshotKept: report.lines.last?.hasPrefix("snapshot: kept") == true,
                into: salvaged, report: &report)
            {
                (snapshotLink, compacted) = (link, deltaCompacted)
            }
        }
        if let journal = try readAll("journal") {
            salvageJournal(
                journal, after: snapshotLink, compacted: compacted, into: salvaged, schemas: storeSchemas,
                report: &report)
        } else {
            report.lines.append("journal: none")
            if let snapshotLink, snapshotLink.checksum != 0 {
                report.warnings.append(
                    "the journal is missing: what was committed after snapshot generation \(snapshotLink.generation) is lost"
                )
            }
        }

        // The new store: made empty, then the salvaged rows written as its snapshot.
        let store: DurableStore
        do {
            store = try DurableStore(path: target, tables: schemas) { _ in }
        } catch {
            throw Failure(description: error.description)
        }
        var rows = 0
        for table in salvaged.all {
            for operation in table.snapshot(committed: false) {
                try? store.tables.apply(operation)
                rows += 1
            }
        }
        let images = BlobFiles.existing(directory: source + "/images")
        var copied = 0
        // Each picture a kept row names that is not kept with it: `<name> missing|damaged`.
        var lost: [String] = []
        let named = salvaged.referencedBlobs
        for name in named.sorted() {
            // An inline picture came with the rows: kept if its bytes match its name's checksum.
            if let bytes = store.inlineBlobs?[name]?.bytes {
                if ImageInfo.isIntact(bytes, blobName: name) {
                    copied += 1
                    continue
                }
                store.inlineBlobs?.remove(name)
            }
            // A file is checked as `closet check` checks it: damage is never copied as good.
            guard let bytes = images?.read(named: name) else {
                lost.append(name + " missing")
                continue
            }
            guard ImageInfo.isIntact(bytes, blobName: name) else {
                lost.append(name + " damaged")
                continue
            }
            guard (try? store.blobs.write(bytes, named: name)) != nil else {
                throw Failure(description: "could not write the picture \(name) into '\(target)'")
            }
            copied += 1
        }
        // Inline pictures no salvaged row names are not carried over.
        for name in store.inlineBlobs?.rows.map(\.name) ?? [] where !named.contains(name) {
            store.inlineBlobs?.remove(name)
        }
        do {
            // The pictures written or dropped above are changes: committed (the files synced
            // first), then everything written as the new store's snapshot.
            try store.commit()
            try store.compact()
        } catch {
            throw Failure(description: "could not write '\(target)': \(error)")
        }
        report.lines.append(
            "pictures: \(copied) copied"
                + (lost.isEmpty ? "" : ", \(lost.count) missing or damaged (their rows are kept without them)"))
        if !lost.isEmpty {
            // Kept with the new store, so `closet check` knows them for losses already said,
            // not damage of its own, and a person can see which rows lack a picture.
            let list =
                "# closet recover: pictures the damaged store '\(source)' did not hold intact;\n"
                + "# the rows that name them were kept without them.\n" + lost.map { $0 + "\n" }.joined()
            do {
                try POSIXFile.replace(
                    target + "/" + StoreFolder.lostPicturesName, with: Array(list.utf8), directory: target)
            } catch {
                throw Failure(description: "could not write '\(target)/\(StoreFolder.lostPicturesName)': \(error)")
            }
            report.warnings += lost.map { entry in
                let parts = entry.split(separator: " ")
                return "the picture \(parts[0]) is \(parts[1]) in the damaged store: its row is kept without it"
            }
        }
        report.lines += report.warnings.map { "warning: " + $0 }
        report.lines.append(
            "recovered \(rows) row\(rows == 1 ? "" : "s") into '\(target)'; '\(source)' was not changed"
                + (report.warnings.isEmpty ? "" : "; see the warning\(report.warnings.count == 1 ? "" : "s") above"))
        return report
    }

    // MARK: the delta

    /// Applies the level below the snapshot (`DeltaFile`) to the snapshot's salvaged rows, when
    /// it is whole and sits on that snapshot, kept whole; returns its link (what the journal
    /// follows) and the journal it was made from. A delta already inside the snapshot is left;
    /// one that is damaged, or over a snapshot that was damaged, is not applied (said).
    private static func salvageDelta(
        _ bytes: [UInt8], over snapshot: [UInt8], _ snapshotLink: StoreFormat.SnapshotLink, snapshotKept: Bool,
        into tables: Tables, report: inout Report
    ) -> (StoreFormat.SnapshotLink, CompactedJournal?)? {
        let lost = "what was committed after snapshot generation \(snapshotLink.generation) is lost"
        let applied: Result<(StoreFormat.SnapshotLink, CompactedJournal?)?, ByteReader.Malformed>? =
            bytes.withUnsafeBytes { memory in
                guard let header = try? StoreFormat.snapshotHeader(memory: memory),
                    (try? StoreFormat.damagedBlocks(memory: memory, header: header, trustingTrailer: false))?.isEmpty
                        == true
                else { return nil }
                return snapshot.withUnsafeBytes { snapshotMemory in
                    do throws(ByteReader.Malformed) {
                        let contents = try DeltaFile.read(memory: memory, header: header, owner: nil, blocks: nil)
                        let over = contents.snapshot
                        if over.generation < snapshotLink.generation {
                            report.lines.append(
                                "delta: generation \(header.generation), already inside the snapshot; not applied")
                            return .success(nil)
                        }
                        guard over == snapshotLink, snapshotKept,
                            let snapshotHeader = try? StoreFormat.snapshotHeader(memory: snapshotMemory)
                        else {
                            report.lines.append(
                                "delta: generation \(header.generation), over a snapshot not kept whole; not applied")
                            report.warnings.append(lost)
                            return .success(nil)
                        }
                        var base: [String: (rows: SnapshotRows, inPlace: Bool)] = [:]
                        try StoreFormat.forEachSection(
                            memory: snapshotMemory, header: snapshotHeader, owner: nil, blocks: nil
                        ) { name, section throws(ByteReader.Malformed) in
                            if !SnapshotSection.isDerived(name) { base[name] = (section, false) }
                        }
                        try DeltaFile.attach(contents, generation: header.generation, base: base, to: tables)
                        report.lines.append("delta: kept (\(bytes.count) bytes)")
                        var link = header.link
                        link.ofDelta = true
                        return .success((link, contents.compacted))
                    } catch {
                        return .failure(error)
                    }
                }
            }
        switch applied {
        case .success(let kept)?: return kept
        case .failure?, nil:
            report.lines.append("delta: damaged (\(bytes.count) bytes); not applied")
            report.warnings.append(lost)
            return nil
        }
    }

    // MARK: the snapshot

    /// Loads what can be read of a snapshot into `tables`; returns the snapshot's link when
    /// its header holds (what a journal names it by).
    private static func salvageSnapshot(
        _ bytes: [UInt8], into tables: Tables, schemas: [AnyTableSchema], report: inout Report
    ) -> StoreFormat.SnapshotLink? {
        switch JournalFormat.layout(bytes, journal: false) {
        case .formatOne, .formatTwo:
            if let generation = try? JournalFormat.readSnapshot(bytes, tables: tables, formatOne: schemas) {
                report.lines.append("snapshot: kept (\(bytes.count) bytes)")
                return StoreFormat.SnapshotLink(generation: generation, checksum: 0)
            }
            tables.removeAllRows()
            report.lines.append(
                "snapshot: damaged, its rows could not be salvaged (an older format: \(bytes.count) bytes)")
            report.warnings.append("the snapshot (an older format, with one checksum over it all) was not kept")
            return nil
        case .newer, nil:
            break
        }
        let header: StoreFormat.SnapshotHeader
        let lengthHolds: Bool
        do {
            guard
                let found = try bytes.withUnsafeBytes({
                    try StoreFormat.snapshotHeader(memory: $0, checkingLength: false)
                })
            else {
                report.lines.append("snapshot: not a closet snapshot (\(bytes.count) bytes); not kept")
                report.warnings.append("the snapshot was not kept")
                return nil
            }
            header = found
            lengthHolds = (try? bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) }) != nil
        } catch {
            report.lines.append("snapshot: its header is damaged (\(bytes.count) bytes); not kept")
            report.warnings.append("the snapshot was not kept")
            return nil
        }
        guard header.bodyEnd <= bytes.count else {
            report.lines.append("snapshot: cut short (\(bytes.count) of \(header.bodyEnd) bytes or more); not kept")
            report.warnings.append("the snapshot was not kept")
            return nil
        }
        let damaged: [Int] = bytes.withUnsafeBytes { memory in
            (try? StoreFormat.damagedBlocks(memory: memory, header: header, trustingTrailer: false)) ?? [0]
        }
        if damaged.isEmpty, lengthHolds {
            do {
                try StoreFormat.loadSnapshot(bytes, into: tables)
                report.lines.append("snapshot: kept (\(bytes.count) bytes)")
                return header.link
            } catch {
                tables.removeAllRows()
            }
        }
        guard header.format >= 4 else {
            tables.removeAllRows()
            report.lines.append("snapshot: damaged, its rows could not be salvaged (format 3: \(bytes.count) bytes)")
            report.warnings.append("the snapshot (format 3, with one checksum over its body) was not kept")
            return header.link
        }
        let salvage = RowSalvage(bytes: bytes, header: header, damaged: Set(damaged))
        let result = salvage.run(into: tables, directory: SnapshotDirectory(trailerOf: bytes, header: header))
        let ranges = damaged.prefix(3).map { "\(header.block($0).lowerBound)-\(header.block($0).upperBound - 1)" }
        let more = damaged.count > 3 ? " and \(damaged.count - 3) more" : ""
        let place =
            damaged.isEmpty ? "its trailer is damaged" : "damaged in bytes \(ranges.joined(separator: ", "))\(more)"
        report.lines.append(
            "snapshot: \(place); \(result.kept) row\(result.kept == 1 ? "" : "s") kept, \(result.lost) lost"
                + (result.unknownTables ? " (and the rows of any table after the damage)" : ""))
        if result.lost > 0 || result.unknownTables {
            report.warnings.append(
                "\(result.lost) row\(result.lost == 1 ? "" : "s") of the snapshot could not be read"
                    + (result.unknownTables ? ", nor any table after the damaged stretch" : ""))
        }
        return header.link
    }

    /// Reads a format-4 snapshot's rows around damaged blocks: a byte is trusted only when its
    /// block passes its checksum.
    struct RowSalvage {
        let bytes: [UInt8]
        let header: StoreFormat.SnapshotHeader
        let damaged: Set<Int>

        func trusted(_ range: Range<Int>) -> Bool {
            guard range.lowerBound >= StoreFormat.snapshotHeaderSize, range.upperBound <= header.bodyEnd else {
                return false
            }
            guard !range.isEmpty else { return true }
            let first = (range.lowerBound - StoreFormat.snapshotHeaderSize) / StoreFormat.blockSize
            let last = (range.upperBound - 1 - StoreFormat.snapshotHeaderSize) / StoreFormat.blockSize
            return (first...last).allSatisfy { !damaged.contains($0) }
        }

        func integer<T: FixedWidthInteger>(_ type: T.Type, at position: Int) -> T? {
            let size = MemoryLayout<T>.size
            guard position >= 0, trusted(position..<(position + size)) else { return nil }
            return bytes[position..<(position + size)].reversed().reduce(T(0)) { $0 << 8 | T($1) }
        }

        /// Rows kept and lost, and whether tables past the damage could not be found at all.
        /// The trailer's directory says where every section lies; without it (its checksum
        /// failed too) the sections are walked from the start while their bytes are trusted.
        func run(into tables: Tables, directory: SnapshotDirectory?) -> (kept: Int, lost: Int, unknownTables: Bool) {
            var kept = 0
            var lost = 0
            if let directory {
                // Sections derived from a table's rows (`<table>#<grouping>`) are not data:
                // the new store's first snapshot writes them again.
                for entry in directory.entries where !SnapshotSection.isDerived(entry.name) {
                    let (k, l) = salvageRows(of: entry, into: tables.table(named: entry.name))
                    kept += k
                    lost += l
                }
                return (kept, lost, false)
            }
            var position = StoreFormat.snapshotHeaderSize
            guard let tableCount = integer(UInt32.self, at: position) else { return (0, 0, true) }
            position += 4
            for _ in 0..<tableCount {
                guard let nameLength = integer(UInt8.self, at: position),
                    trusted(position..<(position + 1 + Int(nameLength)))
                else { return (kept, lost, true) }
                let name = String(decoding: bytes[(position + 1)..<(position + 1 + Int(nameLength))], as: UTF8.self)
                position += 1 + Int(nameLength)
                guard let count = integer(UInt64.self, at: position),
                    let rowsLength = integer(UInt64.self, at: position + 8),
                    count <= UInt64(bytes.count), rowsLength <= UInt64(bytes.count),
                    let indexLength = integer(UInt64.self, at: position + 16 + Int(rowsLength)),
                    indexLength <= UInt64(bytes.count)
                else { return (kept, lost, true) }
                let entry = SnapshotDirectory.Entry(
                    name: name, sectionStart: position, count: Int(count), rowsLength: Int(rowsLength),
                    indexLength: Int(indexLength))
                guard entry.rowsEnd <= header.bodyEnd else { return (kept, lost, true) }
                if !SnapshotSection.isDerived(name) {
                    let (k, l) = salvageRows(of: entry, into: tables.table(named: name))
                    kept += k
                    lost += l
                }
                position = entry.rowsEnd + 8 + entry.indexLength
            }
            return (kept, lost, false)
        }

        /// One section's rows: each found from its neighbour's length, or past damage from the
        /// index's row offsets; kept when its bytes are trusted and it decodes.
        func salvageRows(of entry: SnapshotDirectory.Entry, into table: StoredTable) -> (kept: Int, lost: Int) {
            guard entry.rowsEnd <= header.bodyEnd, entry.count <= bytes.count else { return (0, entry.count) }
            var kept = 0
            var lost = 0
            var ordinal = 0
            var at = entry.rowsStart
            func resync(after position: Int, from first: Int) -> Bool {
                guard
                    let next = resume(
                        after: position, from: first, count: entry.count, offsets: entry.offsetsStart,
                        rows: entry.rowsStart)
                else {
                    lost += entry.count - ordinal
                    ordinal = entry.count
                    return false
                }
                lost += next.ordinal - ordinal
                (ordinal, at) = (next.ordinal, next.at)
                return true
            }
            while ordinal < entry.count {
                // Reading goes on only where a row is known to start (never mid-row).
                guard trusted(at..<(at + 2)) else {
                    if resync(after: at, from: ordinal) { continue } else { break }
                }
                guard let keyLength = integer(UInt16.self, at: at),
                    let rowLength = integer(UInt32.self, at: at + 2 + Int(keyLength)),
                    at + 6 + Int(keyLength) + Int(rowLength) <= entry.rowsEnd
                else {
                    if resync(after: at + 1, from: ordinal + 1) { continue } else { break }
                }
                let key = (at + 2)..<(at + 2 + Int(keyLength))
                let row = (at + 6 + Int(keyLength))..<(at + 6 + Int(keyLength) + Int(rowLength))
                if trusted(key), trusted(row),
                    (try? table.apply(bytes, operations: [RowLocation(key: key, row: row)])) != nil
                {
                    kept += 1
                } else {
                    lost += 1
                }
                ordinal += 1
                at = row.upperBound
            }
            return (kept, lost)
        }

        /// The first row from `ordinal` on whose start the index gives (a trusted offset) at
        /// or after `at`, where reading can go on.
        func resume(after at: Int, from ordinal: Int, count: Int, offsets: Int, rows: Int) -> (ordinal: Int, at: Int)? {
            for candidate in ordinal..<count {
                guard let offset = integer(UInt64.self, at: offsets + candidate * 8), offset < UInt64(bytes.count)
                else { continue }
                let start = rows + Int(offset)
                if start >= at, trusted(start..<(start + 2)) { return (candidate, start) }
            }
            return nil
        }
    }

    // MARK: the journal

    private static func salvageJournal(
        _ bytes: [UInt8], after snapshot: StoreFormat.SnapshotLink?, compacted: CompactedJournal?, into tables: Tables,
        schemas: [AnyTableSchema], report: inout Report
    ) {
        // Format 3 or later (a magic of those formats, whatever its header says).
        let layout = StoreFormat.journalLayout(magic: bytes.prefix(8))
        let isFormatThree = layout != nil
        let header = StoreFormat.readJournalHeader(bytes)
        // The journal a background compaction was made from, with commits after its point
        // (stopped between its renames): only those are replayed.
        var carried: Int?
        if let header, let snapshot, header.generation == snapshot.generation, let compacted,
            compacted.generation == header.generation, let start = compacted.carriedStart(journal: bytes)
        {
            carried = start
            report.lines.append(
                "journal: generation \(header.generation), its first \(compacted.transactions) transaction\(compacted.transactions == 1 ? "" : "s") already inside the snapshot; those after replayed"
            )
        }
        if let header, let snapshot, carried == nil {
            // A journal not newer than the snapshot is already inside it: replaying it would
            // bring back removed rows and undo edits.
            if header.generation <= snapshot.generation {
                report.lines.append(
                    "journal: generation \(header.generation), already inside the snapshot (generation \(snapshot.generation)); not replayed"
                )
                // Older than the snapshot: put back from an older copy, so the journal that
                // held what was committed after the snapshot is gone.
                if header.generation < snapshot.generation {
                    report.warnings.append(
                        "the journal (generation \(header.generation)) is older than the snapshot (generation \(snapshot.generation)): what was committed after the snapshot is lost"
                    )
                } else if let compacted, compacted.generation == header.generation,
                    let mismatch = compacted.mismatch(journal: bytes, subject: "the journal")
                {
                    // Of the snapshot's generation, but not the journal it was made from.
                    report.warnings.append(mismatch)
                }
                return
            }
            if header.follows != snapshot, snapshot.checksum != 0 {
                report.warnings.append(
                    "the journal follows \(header.follows), but the snapshot found is generation \(snapshot.generation): what was committed between them is lost, and the journal's changes are applied to an older state"
                )
            }
        } else if carried == nil, let header, header.follows != .none {
            report.warnings.append(
                "the journal follows \(header.follows), which is missing or unreadable: what it held is lost")
        } else if carried == nil, header == nil, isFormatThree {
            report.warnings.append("the journal's header is damaged: whether it follows the snapshot cannot be told")
        }
        let headerSize =
            header?.recordsStart
            ?? layout.map { $0.format >= 4 ? StoreFormat.recordsStart : StoreFormat.journalHeaderSize }
            ?? JournalFormat.journalHeaderSize
        var kept = 0
        var unreadable = 0
        var damaged: [String] = []
        var position = carried ?? headerSize
        var lastEnd = position
        while position < bytes.count {
            if let payload = wholeRecord(bytes, at: position, formatThree: isFormatThree) {
                // Applied to a scratch set first, so a record that cannot be decoded is
                // skipped whole, never half-applied.
                let apply = { (target: Tables) throws(ByteReader.Malformed) in
                    var reader = ByteReader(bytes, from: payload.lowerBound, to: payload.upperBound)
                    // An insert is read as a put: a record skipped before it may have removed its key.
                    try JournalFormat.applyOperations(
                        Int(try reader.u32()), from: &reader, to: target,
                        inserts: (layout?.format ?? 0) >= 5 ? .readAsPuts : .refused)
                    guard reader.isAtEnd else { throw ByteReader.Malformed() }
                }
                if (try? apply(Tables(schemas))) != nil, (try? apply(tables)) != nil {
                    kept += 1
                } else {
                    unreadable += 1
                }
                position = payload.upperBound
                lastEnd = position
                continue
            }
            let next =
                isFormatThree
                ? StoreFormat.validRecord(after: position, in: bytes, sequence: nil)
                : JournalFormat.validRecord(after: position, in: bytes)
            damaged.append("bytes \(position)-\((next ?? bytes.count) - 1)")
            guard let next else { break }
            position = next
        }
        var line = "journal: \(kept) transaction\(kept == 1 ? "" : "s") kept"
        if unreadable > 0 { line += ", \(unreadable) that pass their checksums but cannot be read skipped" }
        if !damaged.isEmpty { line += ", damaged \(damaged.joined(separator: ", ")) skipped" }
        report.lines.append(line)
        if unreadable > 0 {
            report.warnings.append("\(unreadable) committed transaction\(unreadable == 1 ? "" : "s") could not be read")
        }
        if let header, header.hasCommitPoints,
            let point = StoreFormat.readCommitPoint(bytes, generation: header.generation)
        {
            let inside = carried == nil ? 0 : compacted?.transactions ?? 0
            if lastEnd < point.end || inside + kept + unreadable < point.transactions {
                let missing = max(point.transactions - inside - kept - unreadable, 0)
                report.warnings.append(
                    "the journal is cut short or damaged: \(point.transactions) transaction\(point.transactions == 1 ? " was" : "s were") committed, ending at byte \(point.end)"
                        + (missing > 0 ? "; \(missing) could not be found" : ""))
            }
        } else if !damaged.isEmpty, header?.hasCommitPoints != true {
            report.warnings.append(
                "damaged stretches of the journal were skipped: committed transactions may be among them")
        }
    }

    /// Where a whole record's payload lies, if the record at `position` passes its checksums.
    private static func wholeRecord(_ bytes: [UInt8], at position: Int, formatThree: Bool) -> Range<Int>? {
        if formatThree {
            guard let header = StoreFormat.readRecordHeader(bytes, at: position) else { return nil }
            let start = position + StoreFormat.recordHeaderSize
            guard header.length <= bytes.count - start,
                StoreChecksum.crc32c(bytes[start..<(start + header.length)]) == header.payloadChecksum
            else { return nil }
            return start..<(start + header.length)
        }
        var reader = ByteReader(bytes, from: position)
        guard let length = try? reader.u32(), let checksum = try? reader.u32(),
            Int(length) <= bytes.count - position - 8,
            Checksum.crc32(bytes[(position + 8)..<(position + 8 + Int(length))]) == checksum
        else { return nil }
        return (position + 8)..<(position + 8 + Int(length))
    }
}
