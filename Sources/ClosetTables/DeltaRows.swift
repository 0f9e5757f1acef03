import ClosetCore

/// The level below a table's snapshot section: the rows changed since that section was written,
/// and the section's rows they hide, read in place as the snapshot is. A compaction that writes
/// this level (the journal's changes and the level's own) instead of the whole snapshot writes
/// in proportion to what changed; lookups, counts, index walks, groups and scans merge it with
/// the snapshot's rows (`LazyRows`), the journal's changes lying over both.
///
/// `rows` is a section laid out as a snapshot's (its own key order, index, blob names, and
/// beside it its own grouping sections and key filter), holding the changed rows in insertion
/// order: rows that replace a snapshot row in place (same key, same place), then new ones. The
/// record, a derived section `<table>#delta`, says where each stands and what it hides:
///
///     record row (key [0]) = version u8 | snapshot row count u64 | row count u64
///         | hidden count u64 | end position u64 | bucket count u32
///         | hidden per bucket u32 × buckets | hidden ordinals u32 × hidden, ascending
///         | positions u64 × rows, ascending
///
/// A row's position is a snapshot ordinal when it replaces that row in place (which it then
/// hides), else at or past the snapshot's row count; the end position is where the next new row
/// goes. Hidden rows are those replaced or removed; a key removed and added again is hidden and
/// stands among the new rows.
public final class DeltaRows: @unchecked Sendable {
    /// What follows a table's name in its record's section name.
    public static let sectionSuffix = "#delta"
    static let version: UInt8 = 1
    static let recordKey: [UInt8] = [0]

    public let rows: SnapshotRows
    let record: SnapshotRows
    /// How many rows the snapshot's section holds (the level is of no other section).
    public let baseCount: Int
    public let hiddenCount: Int
    /// Where the next new row stands in insertion order.
    public let endPosition: Int
    /// Per bucket of the index, how many of its snapshot rows are hidden (counts need no more).
    public let hiddenPerBucket: [Int]
    /// Where the ordinals and positions start in the record's row.
    let hiddenAt: Int
    let positionsAt: Int
    /// The rows' own grouping sections and key filter, as a snapshot's (`Table.attachDerived`).
    @usableFromInline var groupSections: [SnapshotRows?] = []
    @usableFromInline var keyFilter: KeyFilter?
    /// The ordinals and positions, read when first needed (a count reads neither).
    private var lists: (hidden: [Int], hiddenSet: OrdinalSet, positions: [Int])?

    /// The level in `rows` and `record`, over a snapshot section of `baseCount` rows with
    /// `bucketCount` buckets; nil when the record does not add up for them (damage).
    public init?(rows: SnapshotRows, record: SnapshotRows, baseCount: Int, bucketCount: Int) {
        self.rows = rows
        self.record = record
        self.baseCount = baseCount
        guard record.count == 1, rows.bucketCount == bucketCount,
            let header = record.withRowInPlace(
                0,
                { bytes -> (Int, Int, Int, [Int], Int)? in
                    var reader = RawBytes(bytes)
                    guard reader.u8() == Self.version, reader.u64() == UInt64(baseCount),
                        reader.u64() == UInt64(rows.count), let hidden = reader.u64(), hidden <= UInt64(baseCount),
                        let end = reader.u64(), end >= UInt64(baseCount), end <= UInt64(Int32.max) * 4,
                        reader.u32() == UInt32(bucketCount)
                    else { return nil }
                    var perBucket: [Int] = []
                    for _ in 0..<bucketCount {
                        guard let count = reader.u32() else { return nil }
                        perBucket.append(Int(count))
                    }
                    let hiddenAt = reader.position
                    guard bytes.count == hiddenAt + Int(hidden) * 4 + rows.count * 8 else { return nil }
                    return (Int(hidden), Int(end), hiddenAt, perBucket, perBucket.reduce(0, +))
                })
        else { return nil }
        (hiddenCount, endPosition, hiddenAt) = (header.0, header.1, header.2)
        hiddenPerBucket = header.3
        guard bucketCount == 0 || header.4 == hiddenCount else { return nil }
        positionsAt = hiddenAt + hiddenCount * 4
    }

    /// The snapshot ordinals hidden, ascending.
    public var hidden: [Int] { loadedLists().hidden }
    /// The same as a set.
    @usableFromInline var hiddenSet: OrdinalSet { loadedLists().hiddenSet }
    /// Each row's position in insertion order, ascending.
    public var positions: [Int] { loadedLists().positions }

    @inlinable func isHidden(_ ordinal: Int) -> Bool { hiddenCount > 0 && hiddenSet.contains(ordinal) }

    /// How many rows replace a snapshot row in place (they come first).
    public var inPlaceCount: Int {
        let positions = positions
        var (low, high) = (0, positions.count)
        while low < high {
            let middle = (low + high) / 2
            if positions[middle] < baseCount { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private func loadedLists() -> (hidden: [Int], hiddenSet: OrdinalSet, positions: [Int]) {
        if let lists { return lists }
        let (baseCount, endPosition, hiddenCount, count) = (baseCount, endPosition, hiddenCount, rows.count)
        let (hiddenAt, positionsAt) = (hiddenAt, positionsAt)
        let loaded = record.withRowInPlace(0) { bytes -> ([Int], [Int])? in
            var hidden: [Int] = []
            hidden.reserveCapacity(hiddenCount)
            var positions: [Int] = []
            positions.reserveCapacity(count)
            for number in 0..<hiddenCount {
                let ordinal = Int(
                    UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: hiddenAt + number * 4, as: UInt32.self)))
                guard ordinal < baseCount, hidden.last.map({ $0 < ordinal }) ?? true else { return nil }
                hidden.append(ordinal)
            }
            for number in 0..<count {
                let raw = UInt64(
                    littleEndian: bytes.loadUnaligned(fromByteOffset: positionsAt + number * 8, as: UInt64.self))
                guard raw < UInt64(endPosition), positions.last.map({ UInt64($0) < raw }) ?? true else { return nil }
                positions.append(Int(raw))
            }
            return (hidden, positions)
        }
        guard let (hidden, positions) = loaded else {
            UnreadableRow.found("a delta's record passes its checksum but does not add up")
        }
        var set = OrdinalSet(capacity: baseCount)
        for ordinal in hidden { set.insert(ordinal) }
        // A row in place must hide the row it replaces.
        for position in positions where position < baseCount && !set.contains(position) {
            UnreadableRow.found("a delta's row replaces a snapshot row it does not hide")
        }
        let made = (hidden, set, positions)
        lists = made
        return made
    }

    /// Writes the record section.
    public static func writeRecord(
        baseCount: Int, hidden: [Int], hiddenPerBucket: [Int], positions: [Int], endPosition: Int,
        into writer: inout ByteWriter
    ) {
        SnapshotSection.write(into: &writer) { writer, _ in
            RowFrame.part16(&writer) { $0.bytes += recordKey }
            RowFrame.part32(&writer) { writer in
                writer.u8(version)
                writer.u64(UInt64(baseCount))
                writer.u64(UInt64(positions.count))
                writer.u64(UInt64(hidden.count))
                writer.u64(UInt64(endPosition))
                writer.u32(UInt32(hiddenPerBucket.count))
                for count in hiddenPerBucket { writer.u32(UInt32(count)) }
                for ordinal in hidden { writer.u32(UInt32(ordinal)) }
                for position in positions { writer.u64(UInt64(position)) }
            }
            return 1
        }
    }
}

/// Little-endian numbers read from mapped bytes, nil past their end.
struct RawBytes {
    let bytes: UnsafeRawBufferPointer
    var position = 0

    init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }

    mutating func u8() -> UInt8? { number() }
    mutating func u32() -> UInt32? { number() }
    mutating func u64() -> UInt64? { number() }

    private mutating func number<T: FixedWidthInteger>() -> T? {
        guard bytes.count - position >= MemoryLayout<T>.size else { return nil }
        defer { position += MemoryLayout<T>.size }
        return T(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: T.self))
    }
}
