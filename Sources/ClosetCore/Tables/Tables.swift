/// Every table of a store, and the transactions over them: one undo log across tables, so a
/// statement that fails is rolled back exactly, wherever it wrote. A durable store journals
/// what `pendingOperations` returns at each commit; the memory store just forgets it.
public final class Tables {
    private var tables: [StoredTable] = []
    private var byName: [String: Int] = [:]
    /// Which table each change since the last commit went to, oldest first.
    private var log: [Int] = []

    public init(_ schemas: [AnyTableSchema] = []) {
        for schema in schemas where byName[schema.name] == nil { add(schema.makeTable()) }
    }

    private func add(_ table: StoredTable) {
        byName[table.name] = tables.count
        tables.append(table)
        if let owned = table as? any LoggingTable { owned.attach(to: self) }
    }

    /// The typed table of a schema. Rows already read for it (a table first met raw) are
    /// decoded now; ones that do not decode make it fail, leaving them untouched.
    public func table<Codec: TableCodec>(_ schema: TableSchema<Codec>) throws(StoreError) -> Table<Codec> {
        if let position = byName[schema.name] {
            if let typed = tables[position] as? Table<Codec> { return typed }
            guard let raw = tables[position] as? RawTable else {
                throw StoreError("table '\(schema.name)' is registered twice with different row types")
            }
            let typed = Table<Codec>(name: schema.name)
            for operation in raw.operations {
                do {
                    try typed.apply(operation)
                } catch {
                    throw StoreError("table '\(schema.name)' holds a row this build cannot read")
                }
            }
            tables[position] = typed
            typed.attach(to: self)
            return typed
        }
        let typed = Table<Codec>(name: schema.name)
        add(typed)
        return typed
    }

    /// Every table, known or carried raw, in the order first met.
    public var all: [StoredTable] { tables }

    /// The table an operation names, made raw if no schema claimed it.
    public func table(named name: String) -> StoredTable {
        if let position = byName[name] { return tables[position] }
        let raw = RawTable(name: name)
        add(raw)
        return raw
    }

    /// The table whose format-1 tag this is, and whether the tag is its put.
    public func table(formatOneTag tag: UInt8, schemas: [AnyTableSchema]) -> (StoredTable, put: Bool)? {
        for schema in schemas {
            guard let tags = schema.formatOneTags, tag == tags.put || tag == tags.delete else { continue }
            return (table(named: schema.name), tag == tags.put)
        }
        return nil
    }

    // MARK: transactions

    func logChange(of table: StoredTable) -> Int {
        log.append(byName[table.name] ?? 0)
        return log.count - 1
    }

    public func savepoint() -> Savepoint { Savepoint(position: log.count) }

    public func rollback(to savepoint: Savepoint) {
        while log.count > savepoint.position { tables[log.removeLast()].undoLast() }
    }

    /// Whether anything changed since the last commit.
    public var hasPendingChanges: Bool { !log.isEmpty }

    /// The net effect of everything since the last commit, in first-touched order, as
    /// whole rows: what a journal record must hold to redo it.
    public func pendingOperations() -> [EncodedOperation] {
        tables.flatMap { $0.pendingOperations() }.sorted { $0.position < $1.position }.map(\.operation)
    }

    /// Blobs that pending changes stopped referencing, to delete once they are committed.
    public func releasedBlobs() -> [String] { tables.flatMap { $0.releasedBlobs() } }

    /// Clears the undo log once its changes are safe.
    public func forgetPendingChanges() {
        log.removeAll(keepingCapacity: true)
        for table in tables { table.forgetChanges() }
    }

    /// Replays one operation from the files (not logged).
    public func apply(_ operation: EncodedOperation) throws(ByteReader.Malformed) {
        try table(named: operation.table).apply(operation)
    }

    /// Deletes released blobs that no row still refers to. The scan of every row happens
    /// only when something was released (a picture replaced or removed), not at every commit.
    public func removeReleased(_ released: [String], from blobs: BlobStore) {
        guard !released.isEmpty else { return }
        let referenced = referencedBlobs
        for name in Set(released) where !referenced.contains(name) { blobs.remove(named: name) }
    }

    /// Every blob a row refers to.
    public var referencedBlobs: Set<String> { tables.reduce(into: Set()) { $0.formUnion($1.referencedBlobs) } }
}

/// A table that logs its changes with a transaction set.
protocol LoggingTable: StoredTable {
    func attach(to tables: Tables)
}

extension Table: LoggingTable {
    func attach(to tables: Tables) { owner = tables }
}
