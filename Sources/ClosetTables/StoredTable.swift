import ClosetCore

/// What the transaction set needs of any table, typed or not: undo, the net change since the
/// last commit, replay, and snapshots. `Table<Codec>` and `RawTable` implement it.
public protocol StoredTable: AnyObject {
    var name: String { get }
    var count: Int { get }
    /// Undoes the most recent change (the transaction set pops its log in step).
    func undoLast()
    /// Blob names rows stopped referring to since the last commit: every change's row before
    /// it, so a picture added and replaced (or removed) in one transaction is among them.
    func releasedBlobs() -> [String]
    func forgetChanges()
    /// Every row as a put, framed straight into a file's buffer (`RowFrame`), in table order;
    /// `committed` leaves out what is not committed yet. Returns how many rows.
    func writeSnapshot(committed: Bool, into writer: inout ByteWriter) -> Int
    /// The pending operations (see `pendingOperations`), framed (`RowFrame`) in one buffer.
    func framePendingOperations() -> FramedOperations
    /// Applies a replayed change without logging it (opening a store is not a change); by
    /// default as a run of one (`apply(_:operations:)`).
    func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed)
    /// Loads `count` snapshot rows of this table (all distinct, so no lookups), framed as
    /// `RowFrame` says, from the reader's position; leaves the reader after them.
    func loadSnapshotRows(count: Int, from reader: inout ByteReader) throws(ByteReader.Malformed)
    /// Applies a run of replayed changes (a row range: put; none: delete by key), unlogged.
    func apply(_ bytes: [UInt8], operations: [RowLocation]) throws(ByteReader.Malformed)
    /// Applies a format-1 operation read straight from its file (no length to skip by).
    func applyFormatOne(put: Bool, from reader: inout ByteReader) throws(ByteReader.Malformed)
    /// Every blob any row refers to.
    var referencedBlobs: Set<String> { get }
    /// Forgets every row (between transactions only), before the store is read again.
    func removeAllRows()
    /// What reading the store again would give back and cost: the committed changes kept
    /// beside rows still read in place from a snapshot, and the rows decoded into memory
    /// (decoded again when next needed).
    var rowsInMemory: RowsInMemory { get }
    /// Makes room for about `count` more rows (`Tables.expectMoreRows`).
    func reserveRows(_ count: Int)
    /// Writes this table's snapshot section (`SnapshotSection`): rows and index.
    func writeSnapshotSection(committed: Bool, into writer: inout ByteWriter)
    /// Takes its rows from a mapped snapshot section, to read in place; false if it cannot
    /// (the caller then loads them the ordinary way).
    func attach(_ rows: SnapshotRows) -> Bool
    /// Takes the level below the attached snapshot section (`DeltaRows`), before any change:
    /// its rows, record and derived sections; false if it cannot (`Table.attachDelta`).
    func attachDelta(
        rows: SnapshotRows, record: SnapshotRows, derived: [String: SnapshotRows], generation: UInt64
    ) -> Bool
    /// The sections of the level below this table's snapshot section (`Table.deltaSections`);
    /// nil when it cannot be written that way.
    func deltaSections(generation: UInt64, committed: Bool) -> DeltaSections?
    /// What does not add up in the rows still read in place (`.check`); nil when all do.
    func checkSnapshotRows() -> String?
    /// The sections a snapshot holds beside this table's, derived from its rows
    /// (`<table>#<grouping>`), written right after it with `writeDerivedSection`.
    var derivedSectionNames: [String] { get }
    func writeDerivedSection(_ number: Int, generation: UInt64, into writer: inout ByteWriter)
    /// Takes a derived section met in a snapshot (used only if written with it); false when
    /// the name is none of this table's.
    func attachDerived(_ sectionName: String, _ rows: SnapshotRows, generation: UInt64) -> Bool
}

extension StoredTable {
    public func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
        let bytes = operation.key + (operation.row ?? [])
        let row = operation.row.map { _ in operation.key.count..<bytes.count }
        try apply(bytes, operations: [RowLocation(key: 0..<operation.key.count, row: row)])
    }

    public func writeSnapshotSection(committed: Bool, into writer: inout ByteWriter) {
        SnapshotSection.write(into: &writer) { writer, _ in writeSnapshot(committed: committed, into: &writer) }
    }

    public func attach(_ rows: SnapshotRows) -> Bool { false }

    public func attachDelta(
        rows: SnapshotRows, record: SnapshotRows, derived: [String: SnapshotRows], generation: UInt64
    ) -> Bool { false }

    public func deltaSections(generation: UInt64, committed: Bool) -> DeltaSections? { nil }

    public var rowsInMemory: RowsInMemory { RowsInMemory() }

    public func reserveRows(_ count: Int) {}

    public func checkSnapshotRows() -> String? { nil }

    public var derivedSectionNames: [String] { [] }

    public func writeDerivedSection(_ number: Int, generation: UInt64, into writer: inout ByteWriter) {}

    public func attachDerived(_ sectionName: String, _ rows: SnapshotRows, generation: UInt64) -> Bool { false }
}

extension StoredTable {
    /// The net change of each key touched since the last commit, with the log position of
    /// its first touch (the set merges tables in that order): `framePendingOperations` read back.
    public func pendingOperations() -> [(position: Int, operation: EncodedOperation)] {
        let framed = framePendingOperations()
        var reader = ByteReader(framed.bytes.bytes)
        return framed.operations.compactMap { position, range in
            reader.reposition(to: range)
            guard let frame = try? reader.u8(), let key = try? reader.raw(Int(reader.u16())) else { return nil }
            let row = frame != RowFrame.delete ? try? reader.raw(Int(reader.u32())) : nil
            return (position, EncodedOperation(table: name, key: key, row: row))
        }
    }

    /// Every row as a put (`writeSnapshot` read back): for tools, tests and adopting raw rows.
    public func snapshot(committed: Bool) -> [EncodedOperation] {
        var writer = ByteWriter()
        let count = writeSnapshot(committed: committed, into: &writer)
        var reader = ByteReader(writer.bytes)
        var operations: [EncodedOperation] = []
        for _ in 0..<count {
            guard let key = try? reader.raw(Int(reader.u16())), let row = try? reader.raw(Int(reader.u32())) else {
                break
            }
            operations.append(EncodedOperation(table: name, key: key, row: row))
        }
        return operations
    }
}

/// Where one stored row (or, for a deletion, only its key) lies inside a file's bytes.
public struct RowLocation: Sendable {
    public var key: Range<Int>
    public var row: Range<Int>?
    /// Whether the row's key had no row before it (a journal's insert, `RowFrame.insert`):
    /// replayed beside rows read in place, it is not looked for among them.
    public var isInsert: Bool

    public init(key: Range<Int>, row: Range<Int>?, isInsert: Bool = false) {
        self.key = key
        self.row = row
        self.isInsert = isInsert
    }
}

/// Which table each change since the last commit went to, oldest first: one log shared by
/// every table of a transaction set, so a rollback undoes changes across tables in order.
public final class TransactionLog {
    /// Each change's table number, as runs of one table's changes (`ValueRuns`; a million-row
    /// import's log was 8 MB of `Int`s).
    @usableFromInline var entries = ValueRuns(step: 0)
    /// Called when a transaction makes its first change: a durable store takes its write
    /// lock there, so a writer holds it from its first write to its commit and no longer.
    @usableFromInline var onFirstChange: (() -> Void)?

    public init() {}

    /// Room for `count` more changes.
    func reserve(_ count: Int) { entries.reserveCapacity(entries.count + count) }

    /// Notes a change to table `number`; returns its position.
    @inlinable func record(_ number: Int) -> Int {
        entries.append(UInt32(truncatingIfNeeded: number))
        if entries.count == 1, let onFirstChange { onFirstChange() }
        return entries.count - 1
    }
}

/// A table's rows held in memory rather than read in place (`StoredTable.rowsInMemory`).
public struct RowsInMemory: Sendable, Equatable {
    /// Changes kept beside rows read in place from a snapshot.
    public var changesBesideSnapshot = 0
    /// Rows decoded into memory.
    public var decodedRows = 0
    /// New rows moved to a scratch file (`SpilledRows`), their keys still in memory.
    public var spilledRows = 0

    public init(changesBesideSnapshot: Int = 0, decodedRows: Int = 0, spilledRows: Int = 0) {
        self.changesBesideSnapshot = changesBesideSnapshot
        self.decodedRows = decodedRows
        self.spilledRows = spilledRows
    }
}
