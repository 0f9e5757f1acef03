import ClosetCore

/// A grouping a table declares: each row belongs to one group (a story's likes, an author's
/// stories), named by a key the row gives. A snapshot keeps, beside the table's section, a
/// section `<table>#<grouping>` listing each group's rows, so a new process counts a group
/// or reads its rows without decoding the table (`Table.groupCount`, `Table.groupRows`).
/// It is derived data: written again at every compaction (carried over from the last one when the
/// rows are copied as bytes, `SectionCopy.copiedGroups`), never journaled, never dumped, and
/// ignored when it was not written with the snapshot that holds it.
public struct TableGrouping<Codec: TableCodec>: Sendable {
    public let name: String
    /// The group's key as bytes: `[1] + 8 bytes` for a number, `[2] + UTF-8` for text, so no
    /// group key is the section's own record (`[0]`).
    public let key: @Sendable (Codec.Row) -> [UInt8]

    /// Rows grouped by a number (a story's id).
    public static func number(_ name: String, _ value: @escaping @Sendable (Codec.Row) -> Int) -> Self {
        Self(name: name) { GroupKey.number(value($0)).bytes }
    }

    /// Rows grouped by text (a user's name).
    public static func text(_ name: String, _ value: @escaping @Sendable (Codec.Row) -> String) -> Self {
        Self(name: name) { GroupKey.text(value($0)).bytes }
    }

    init(name: String, key: @escaping @Sendable (Codec.Row) -> [UInt8]) {
        self.name = name
        self.key = key
    }
}

/// Which group: a number or text, as a grouping's key gives it.
public enum GroupKey: Hashable, Sendable {
    case number(Int)
    case text(String)

    public var bytes: [UInt8] {
        switch self {
        case .number(let value):
            [1] + (0..<8).map { UInt8(truncatingIfNeeded: UInt64(bitPattern: Int64(value)) >> (56 - 8 * UInt64($0))) }
        case .text(let value): [2] + Array(value.utf8)
        }
    }
}

/// A grouping's section as written: the record (key `[0]`: the snapshot generation it was
/// written for, and how many rows the table's section holds), then one row per group
/// (its key; its row count u32 and their ordinals u32, ascending).
public enum GroupSection {
    /// Whether a sorted list holds `value` (binary search).
    @inlinable static func contains(_ sorted: [Int], _ value: Int) -> Bool {
        var (low, high) = (0, sorted.count)
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    public static let recordKey: [UInt8] = [0]

    /// Each group's ordinals, written as a section (groups in key order).
    public static func write(
        _ groups: [[UInt8]: [UInt32]], generation: UInt64, baseCount: Int, into writer: inout ByteWriter
    ) {
        SnapshotSection.write(into: &writer) { writer, _ in
            RowFrame.part16(&writer) { $0.bytes += recordKey }
            RowFrame.part32(&writer) { writer in
                writer.u64(generation)
                writer.u64(UInt64(baseCount))
            }
            let keys = groups.keys.sorted { a, b in a.lexicographicallyPrecedes(b) }
            for key in keys {
                let ordinals = groups[key] ?? []
                RowFrame.part16(&writer) { $0.bytes += key }
                RowFrame.part32(&writer) { writer in
                    writer.u32(UInt32(ordinals.count))
                    for ordinal in ordinals { writer.u32(ordinal) }
                }
            }
            return keys.count + 1
        }
    }

    /// Whether a grouping's section was written with this snapshot for these rows: one an
    /// older build carried into a newer snapshot unchanged is stale.
    public static func isCurrent(_ section: SnapshotRows, generation: UInt64, baseCount: Int) -> Bool {
        guard let ordinal = section.ordinal(ofKey: recordKey) else { return false }
        var reader = ByteReader(section.rowBytes(ordinal))
        guard let written = try? reader.u64(), let count = try? reader.u64(), reader.isAtEnd else { return false }
        return written == generation && count == UInt64(baseCount)
    }

    /// A group's ordinals in the table's section (empty when it has no rows there).
    public static func ordinals(_ section: SnapshotRows, key: [UInt8]) -> [Int] {
        guard let ordinal = section.ordinal(ofKey: key) else { return [] }
        var reader = ByteReader(section.rowBytes(ordinal))
        guard let count = try? reader.u32(), Int(count) * 4 == reader.end - reader.position else {
            UnreadableRow.found("a grouping section passes its checksum but does not add up")
        }
        return (0..<Int(count)).compactMap { _ in (try? reader.u32()).map(Int.init) }
    }
}
