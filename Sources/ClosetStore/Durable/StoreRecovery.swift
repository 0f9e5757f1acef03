import ClosetCore
import Foundation

/// `closet recover <store> [<new store>]`: copies every intact transaction of a damaged store
/// into a new one, leaving the damaged store untouched. The snapshot is kept if it passes its
/// checksums; then every journal record that passes its checksums and decodes is applied in
/// order, skipping damaged stretches (each found by the next record whose header and payload
/// pass their checksums). Pictures the kept rows refer to are copied.
public enum StoreRecovery {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// What was kept and what was not, one line each for the person who asked.
    public struct Report: Sendable {
        public var lines: [String] = []
    }

    public static func recover(
        from source: String, to target: String, tables schemas: [AnyTableSchema]
    ) throws(Failure) -> Report {
        var report = Report()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.fileExists(atPath: source + "/" + DurableStore.markerName)
        else { throw Failure(description: "'\(source)' is not a closet store") }
        if FileManager.default.fileExists(atPath: target),
            !((try? FileManager.default.contentsOfDirectory(atPath: target)) ?? [""]).isEmpty
        {
            throw Failure(description: "'\(target)' already exists and is not empty; name a new folder")
        }
        let salvaged = Tables(schemas)
        func readAll(_ name: String) throws(Failure) -> [UInt8]? {
            do {
                return try POSIXFile.readAll(source + "/" + name)
            } catch {
                throw Failure(description: error.description)
            }
        }

        if let snapshot = try readAll("snapshot") {
            report.lines.append(salvageSnapshot(snapshot, into: salvaged, schemas: schemas))
        } else {
            report.lines.append("snapshot: none")
        }
        if let journal = try readAll("journal") {
            report.lines.append(salvageJournal(journal, into: salvaged, schemas: schemas))
        } else {
            report.lines.append("journal: none")
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
        var missing = 0
        for name in salvaged.referencedBlobs.sorted() {
            if let bytes = images?.read(named: name), (try? store.blobs.write(bytes, named: name)) != nil {
                copied += 1
            } else {
                missing += 1
            }
        }
        do {
            try store.compact()
        } catch {
            throw Failure(description: "could not write '\(target)': \(error)")
        }
        report.lines.append(
            "pictures: \(copied) copied"
                + (missing > 0 ? ", \(missing) missing or unreadable (their rows are kept)" : ""))
        report.lines.append(
            "recovered \(rows) row\(rows == 1 ? "" : "s") into '\(target)'; '\(source)' was not changed")
        return report
    }

    private static func salvageSnapshot(_ bytes: [UInt8], into tables: Tables, schemas: [AnyTableSchema]) -> String {
        switch JournalFormat.layout(bytes, journal: false) {
        case .formatOne, .formatTwo:
            if (try? JournalFormat.readSnapshot(bytes, tables: tables, formatOne: schemas)) != nil {
                return "snapshot: kept (\(bytes.count) bytes)"
            }
        case .newer
        where [StoreFormat.snapshotMagic, StoreFormat.formatThreeSnapshotMagic].contains(Array(bytes.prefix(8))):
            if (try? StoreFormat.verifySnapshot(bytes)) != nil {
                do {
                    try StoreFormat.loadSnapshot(bytes, into: tables)
                    return "snapshot: kept (\(bytes.count) bytes)"
                } catch {
                    tables.removeAllRows()
                }
            }
        case .newer, nil:
            break
        }
        tables.removeAllRows()
        return
            "snapshot: damaged, its rows could not be salvaged (\(bytes.count) bytes); journal records are applied without it"
    }

    private static func salvageJournal(_ bytes: [UInt8], into tables: Tables, schemas: [AnyTableSchema]) -> String {
        let magic = Array(bytes.prefix(8))
        let isFormatThree = magic == StoreFormat.journalMagic || magic == StoreFormat.formatThreeJournalMagic
        let headerSize =
            StoreFormat.readJournalHeader(bytes)?.recordsStart
            ?? (magic == StoreFormat.journalMagic ? StoreFormat.recordsStart : StoreFormat.journalHeaderSize)
        var kept = 0
        var unreadable = 0
        var damaged: [String] = []
        var position = headerSize
        while position < bytes.count {
            if let payload = wholeRecord(bytes, at: position, formatThree: isFormatThree) {
                // Applied to a scratch set first, so a record that cannot be decoded is
                // skipped whole, never half-applied.
                let apply = { (target: Tables) throws(ByteReader.Malformed) in
                    var reader = ByteReader(bytes, from: payload.lowerBound, to: payload.upperBound)
                    try JournalFormat.applyOperations(Int(try reader.u32()), from: &reader, to: target)
                    guard reader.isAtEnd else { throw ByteReader.Malformed() }
                }
                if (try? apply(Tables(schemas))) != nil, (try? apply(tables)) != nil {
                    kept += 1
                } else {
                    unreadable += 1
                }
                position = payload.upperBound
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
        return line
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
