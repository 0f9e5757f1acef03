import ClosetCore
import ClosetTables

/// The level below the snapshot as a file, `delta`, beside it: laid out as a snapshot (header,
/// sections, block checksums), holding for each table that changed since the snapshot its
/// `DeltaRows` (the changed rows' section, its record `<table>#delta`, its grouping sections and
/// key filter), then which snapshot it sits on (`closet#delta-of`) and which journal it was
/// made from (`closet#compacted-journal`). A compaction writes it instead of the whole snapshot
/// while it is small beside it (`CompactionPolicy.writesDelta`), and the journal after it
/// follows it (`deltaJournalMagic`).
///
/// A delta that names an older snapshot than the one beside it was merged into that snapshot (a
/// compaction stopped between the snapshot's rename and the delta's removal, or an older
/// closet's compaction): it is left unread. One naming any other snapshot is damage.
enum DeltaFile {
    static let name = "delta"
    static let sectionName = "closet#delta-of"
    static let key = Array("snapshot".utf8)
    static let rowLength = 12

    /// Writes the record of the snapshot it sits on: generation u64 | header checksum u32.
    static func writeSection(_ snapshot: StoreFormat.SnapshotLink, into writer: inout ByteWriter) {
        SnapshotSection.write(into: &writer) { writer, _ in
            writer.u16(UInt16(key.count))
            writer.bytes += key
            writer.u32(UInt32(rowLength))
            writer.u64(snapshot.generation)
            writer.u32(snapshot.checksum)
            return 1
        }
    }

    /// The snapshot a delta's record names; nil when the section is not that record.
    static func snapshot(in rows: [UInt8]) -> StoreFormat.SnapshotLink? {
        var reader = ByteReader(rows)
        guard let keyLength = try? reader.u16(), let read = try? reader.raw(Int(keyLength)), read == key,
            let length = try? reader.u32(), length == rowLength, let generation = try? reader.u64(),
            let checksum = try? reader.u32(), reader.isAtEnd
        else { return nil }
        return StoreFormat.SnapshotLink(generation: generation, checksum: checksum)
    }

    /// The sections of a new delta over the snapshot `base`, made from each table's level and
    /// journal changes (`Table.deltaSections`), with the records; nil when a table cannot say
    /// what changed since the snapshot, or the level would not be small beside it
    /// (`CompactionPolicy.writesDelta`).
    static func sections(
        _ tables: [StoredTable], generation: UInt64, committed: Bool, base: StoreFormat.SnapshotLink,
        compacted: CompactedJournal?, snapshotRows: Int
    ) -> [DeltaSections.Section]? {
        var sections: [DeltaSections.Section] = []
        var rows = 0
        for table in tables {
            guard let made = table.deltaSections(generation: generation, committed: committed) else { return nil }
            sections += made.sections
            rows += made.rows + made.hidden
        }
        guard CompactionPolicy.writesDelta(rows: rows, snapshotRows: snapshotRows) else { return nil }
        sections.append((sectionName, { writeSection(base, into: &$0) }))
        if let compacted { sections.append((CompactedJournal.sectionName, { compacted.writeSection(into: &$0) })) }
        return sections
    }

    /// What a delta file holds, read from its mapping: the snapshot it sits on, the journal it
    /// was made from, and each section by name (the tables' rows read in place from them).
    struct Contents {
        var snapshot: StoreFormat.SnapshotLink
        var compacted: CompactedJournal?
        var sections: [String: SnapshotRows]
    }

    /// Reads a delta file's sections (checked as the snapshot's are: lengths now, blocks when
    /// read); throws when they do not add up or the record is missing.
    static func read(
        memory: UnsafeRawBufferPointer, header: StoreFormat.SnapshotHeader, owner: AnyObject?, blocks: SnapshotBlocks?
    ) throws(ByteReader.Malformed) -> Contents {
        var sections: [String: SnapshotRows] = [:]
        var snapshot: StoreFormat.SnapshotLink?
        var compacted: CompactedJournal?
        try StoreFormat.forEachSection(memory: memory, header: header, owner: owner, blocks: blocks) {
            name, section throws(ByteReader.Malformed) in
            switch name {
            case sectionName: snapshot = Self.snapshot(in: section.copyRows())
            case CompactedJournal.sectionName: compacted = CompactedJournal(rows: section.copyRows())
            default: sections[name] = section
            }
        }
        guard let snapshot else { throw ByteReader.Malformed() }
        return Contents(snapshot: snapshot, compacted: compacted, sections: sections)
    }

    /// Puts the level's rows under the tables' snapshot rows: a table read in place takes them as
    /// its level below (`Table.attachDelta`); any other (a table no installed pack knows, read as
    /// bytes) has them applied, the hidden rows removed and the level's rows put in order, as
    /// if replayed. `base` is each table's snapshot section, and whether it was read in place.
    static func attach(
        _ contents: Contents, generation: UInt64, base: [String: (rows: SnapshotRows, inPlace: Bool)], to tables: Tables
    ) throws(ByteReader.Malformed) {
        for (name, rows) in contents.sections where !SnapshotSection.isDerived(name) {
            guard let record = contents.sections[name + DeltaRows.sectionSuffix] else { throw ByteReader.Malformed() }
            let table = tables.table(named: name)
            let snapshotRows = base[name]
            if snapshotRows?.inPlace == true {
                var derived: [String: SnapshotRows] = [:]
                for (derivedName, section) in contents.sections where derivedName.hasPrefix(name + "#") {
                    derived[derivedName] = section
                }
                guard table.attachDelta(rows: rows, record: record, derived: derived, generation: generation) else {
                    throw ByteReader.Malformed()
                }
                continue
            }
            guard
                let delta = DeltaRows(
                    rows: rows, record: record, baseCount: snapshotRows?.rows.count ?? 0,
                    bucketCount: rows.bucketCount)
            else { throw ByteReader.Malformed() }
            let positions = delta.positions
            let inPlace = Set(positions.prefix(delta.inPlaceCount))
            var bytes: [UInt8] = []
            var operations: [RowLocation] = []
            for ordinal in delta.hidden where !inPlace.contains(ordinal) {
                guard let snapshotRows else { throw ByteReader.Malformed() }
                let frame = snapshotRows.rows.frameBytes(ordinal)
                operations.append(
                    RowLocation(
                        key: (bytes.count + frame.key.lowerBound)..<(bytes.count + frame.key.upperBound), row: nil))
                bytes += frame.bytes
            }
            for ordinal in 0..<rows.count {
                let frame = rows.frameBytes(ordinal)
                operations.append(
                    RowLocation(
                        key: (bytes.count + frame.key.lowerBound)..<(bytes.count + frame.key.upperBound),
                        row: (bytes.count + frame.row.lowerBound)..<(bytes.count + frame.row.upperBound)))
                bytes += frame.bytes
            }
            try table.apply(bytes, operations: operations)
        }
    }
}
