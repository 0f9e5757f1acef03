import ClosetCore

/// Every table of a store, and the transactions over them: one undo log across tables, so a
/// statement that fails is rolled back exactly, wherever it wrote. A durable store journals
/// what `pendingOperations` returns at each commit; the memory store just forgets it.
public final class Tables {
    private var tables: [StoredTable] = []
    private var byName: [String: Int] = [:]
    /// Readers of older row layouts (`OlderRows`), by the name those rows have in the files.
    private var older: [String: StoredTable] = [:]
    /// The layout of each typed table, by its name without one: to refuse a newer layout.
    private var versions: [String: Int] = [:]
    /// The tables the installed packs declare, by the names their rows have in the files
    /// (every layout's): each is made when first asked for or first met in the files, so a
    /// statement that touches one pack never instantiates every pack's table types.
    private var declared: [String: AnyTableSchema] = [:]
    private let log = TransactionLog()
    /// Where tables move the new rows of a big transaction (see `SpilledRows`).
    public let scratch = ScratchSpace()

    public init(_ schemas: [AnyTableSchema] = []) {
        for schema in schemas where declared[schema.storedName] == nil {
            declared[schema.storedName] = schema
            for name in schema.olderStoredNames where declared[name] == nil { declared[name] = schema }
            versions[schema.name] = Self.layout(of: schema.storedName)?.version ?? 1
        }
    }

    /// Makes a declared table (and its older layouts' readers) now.
    private func make(_ schema: AnyTableSchema) {
        guard byName[schema.storedName] == nil else { return }
        let table = schema.makeTable()
        add(table)
        for reader in schema.makeOlder(table) { older[reader.name] = reader }
    }

    /// A table met raw: it logs nothing (it is never written to).
    private func add(_ table: StoredTable) {
        byName[table.name] = tables.count
        tables.append(table)
    }

    /// A typed table joins the transaction log. Typed statically, not found by a cast: a cast
    /// to a protocol scans every conformance in the executable, once per table type.
    private func add(_ table: StoredTable & LoggingTable) {
        add(table as StoredTable)
        table.attach(to: log, number: tables.count - 1, scratch: scratch)
    }

    /// The typed table of a schema. Rows already read for it (a table first met raw) are
    /// decoded now; ones that do not decode make it fail, leaving them untouched.
    @inlinable public func table<Codec: TableCodec>(_ schema: TableSchema<Codec>) throws(StoreError) -> Table<Codec> {
        if let typed = madeTable(schema.storedName) as? Table<Codec> { return typed }
        let typed = Table<Codec>(name: schema.storedName, index: schema.index, groupings: schema.groupings)
        try adopt(typed)
        try adoptOlder(AnyTableSchema(schema), typed)
        return typed
    }

    /// Rows of older layouts already read raw go into the new table; their raw tables go.
    @usableFromInline func adoptOlder(_ schema: AnyTableSchema, _ typed: StoredTable) throws(StoreError) {
        versions[schema.name] = Self.layout(of: schema.storedName)?.version ?? 1
        for reader in schema.makeOlder(typed) {
            older[reader.name] = reader
            guard let position = byName[reader.name], let raw = tables[position] as? RawTable else { continue }
            for operation in raw.operations {
                do {
                    try reader.apply(operation)
                } catch {
                    throw StoreError("table '\(raw.name)' holds a row this build cannot read")
                }
            }
            raw.removeAllRows()
            retired.insert(reader.name)
        }
    }

    /// Raw tables whose rows moved into a newer layout's table: never written again.
    @usableFromInline var retired: Set<String> = []

    /// `name@N` read as a table name and a layout.
    @usableFromInline static func layout(of storedName: String) -> (name: String, version: Int)? {
        // On the UTF-8 view: a search by Character walked grapheme clusters, for every table
        // at every start-up.
        let utf8 = storedName.utf8
        guard let at = utf8.lastIndex(of: UInt8(ascii: "@")),
            let version = Int(Substring(utf8[utf8.index(after: at)...])), version > 1
        else { return nil }
        return (String(Substring(utf8[..<at])), version)
    }

    /// Refuses rows of a layout newer than this build's (a store a newer closet wrote): read
    /// as strangers they would hide the table's rows, and a write would split them.
    package func checkLayouts() throws(StoreError) {
        for table in tables {
            guard let (name, version) = Self.layout(of: table.name), let known = versions[name], version > known
            else { continue }
            throw StoreError(
                "table '\(name)' holds rows of layout \(version), written by a newer closet; this build reads up to layout \(known)"
            )
        }
    }

    @usableFromInline package func madeTable(_ name: String) -> StoredTable? { byName[name].map { tables[$0] } }

    /// Registers a new typed table, taking over the rows of a raw one of its name.
    @usableFromInline func adopt(_ typed: StoredTable & LoggingTable) throws(StoreError) {
        guard let position = byName[typed.name] else { return add(typed) }
        guard let raw = tables[position] as? RawTable else {
            throw StoreError("table '\(typed.name)' is registered twice with different row types")
        }
        for operation in raw.operations {
            do {
                try typed.apply(operation)
            } catch {
                throw StoreError("table '\(typed.name)' holds a row this build cannot read")
            }
        }
        tables[position] = typed
        typed.attach(to: log, number: position, scratch: scratch)
    }

    /// Every table, known or carried raw, in the order first met.
    public var all: [StoredTable] { retired.isEmpty ? tables : tables.filter { !retired.contains($0.name) } }

    /// The table an operation names (or the reader of an older layout of one), made raw if
    /// no schema claimed it.
    public func table(named name: String) -> StoredTable {
        if let position = byName[name], !retired.contains(name) { return tables[position] }
        if let reader = older[name] { return reader }
        if let schema = declared[name] {
            make(schema)
            if let position = byName[name] { return tables[position] }
            if let reader = older[name] { return reader }
        }
        let raw = RawTable(name: name)
        add(raw)
        return raw
    }

    /// The table whose format-1 tag this is, and whether the tag is its put.
    public func table(formatOneTag tag: UInt8, schemas: [AnyTableSchema]) -> (StoredTable, put: Bool)? {
        for schema in schemas {
            guard let tags = schema.formatOneTags, tag == tags.put || tag == tags.delete else { continue }
            // Format 1 knew first layouts only: its rows go to that layout's reader.
            return (table(named: schema.name), tag == tags.put)
        }
        return nil
    }

    // MARK: transactions

    public func savepoint() -> Savepoint { Savepoint(position: log.entries.count) }

    public func rollback(to savepoint: Savepoint) {
        while log.entries.count > savepoint.position, let number = log.entries.removeLast() {
            tables[Int(number)].undoLast()
        }
    }

    /// The tables changed since the last commit are about to take about `count` more rows each
    /// (an import's first row has just been added): room is made once, not grown row by row,
    /// which copied a million-row table's rows and rehashed its keys at every doubling.
    public func expectMoreRows(_ count: Int) {
        for number in log.entries.distinct { tables[Int(number)].reserveRows(count) }
    }

    /// Whether anything changed since the last commit.
    package var hasPendingChanges: Bool { !log.entries.isEmpty }

    /// How many changes since the last commit (a key changed twice counts twice).
    package var pendingChangeCount: Int { log.entries.count }

    /// Runs `body` when a transaction makes its first change (see `TransactionLog`).
    package func onFirstChange(_ body: @escaping () -> Void) { log.onFirstChange = body }

    /// Empties every table (nothing may be pending): the store is about to be read again
    /// from its files, because another process replaced them.
    public func removeAllRows() {
        precondition(!hasPendingChanges, "rows are reloaded only between transactions")
        for table in tables { table.removeAllRows() }
    }

    /// The net effect of everything since the last commit, in first-touched order, as
    /// whole rows: what a journal record must hold to redo it.
    public func pendingOperations() -> [EncodedOperation] {
        tables.flatMap { $0.pendingOperations() }.sorted { $0.position < $1.position }.map(\.operation)
    }

    /// The same, framed (`RowFrame`) per table, with the order to write them in (first
    /// touched first): what a journal writes, with no arrays per row.
    package func framePendingOperations() -> PendingFrames {
        var frames = PendingFrames()
        var touched = 0
        for table in tables {
            let framed = table.framePendingOperations()
            guard !framed.operations.isEmpty else { continue }
            touched += 1
            frames.tables.append((table.name, framed))
        }
        for (number, table) in frames.tables.enumerated() {
            for index in table.framed.operations.indices { frames.order.append((number, index)) }
        }
        if touched > 1 {
            frames.order.sort {
                frames.tables[$0.table].framed.operations[$0.operation].position
                    < frames.tables[$1.table].framed.operations[$1.operation].position
            }
        }
        return frames
    }

    /// Blobs that pending changes stopped referencing, to delete once they are committed.
    public func releasedBlobs() -> [String] { tables.flatMap { $0.releasedBlobs() } }

    /// Clears the undo log once its changes are safe.
    package func forgetPendingChanges() {
        log.entries.removeAll()
        for table in tables { table.forgetChanges() }
    }

    /// Replays one operation from the files (not logged).
    public func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
        try table(named: operation.table).apply(operation)
    }

    /// Deletes released blobs that no row still refers to. The scan of every row happens
    /// only when something was released (a picture replaced or removed), not at every commit.
    package func removeReleased(_ released: [String], from blobs: BlobStore) {
        guard !released.isEmpty else { return }
        let referenced = referencedBlobs
        for name in Set(released) where !referenced.contains(name) { blobs.remove(named: name) }
    }

    /// Every blob a row refers to.
    public var referencedBlobs: Set<String> { tables.reduce(into: Set()) { $0.formUnion($1.referencedBlobs) } }

    /// Every table's rows held in memory, summed.
    package var rowsInMemory: RowsInMemory {
        tables.reduce(into: RowsInMemory()) { sum, table in
            let held = table.rowsInMemory
            sum.changesBesideSnapshot += held.changesBesideSnapshot
            sum.decodedRows += held.decodedRows
            sum.spilledRows += held.spilledRows
        }
    }
}

/// A table that logs its changes with a transaction set.
@usableFromInline protocol LoggingTable: StoredTable {
    func attach(to log: TransactionLog, number: Int, scratch: ScratchSpace)
}

extension Table: LoggingTable {
    @usableFromInline func attach(to log: TransactionLog, number: Int, scratch: ScratchSpace) {
        pending.log = log
        pending.logNumber = number
        self.scratch = scratch
    }
}

/// Every table's framed pending operations and the order to write them in.
package struct PendingFrames {
    public var tables: [(name: String, framed: FramedOperations)] = []
    public var order: [(table: Int, operation: Int)] = []
}
