import ClosetCore
import WardrobePack
import Foundation

/// The in-memory store: both repositories over two ordered tables, with an undo log so a
/// failed statement (or a script under `--bail`) rolls back exactly. `commit` drops the log.
/// A durable store builds on the same tables and writes the log's effects to its journal.
public final class MemoryWardrobe: WardrobeStore {
    /// One change, with what is needed to undo it.
    enum Change {
        case clothesSaved(id: UUID, slot: Int, previous: Clothes?)
        case clothesRemoved(id: UUID, slot: Int, row: Clothes)
        case styleSaved(id: UUID, slot: Int, previous: StyleRecord?)
        case styleRemoved(id: UUID, slot: Int, row: StyleRecord)
    }

    private let clothesTable = OrderedTable<Clothes>()
    private let styleTable = OrderedTable<StyleRecord>()
    private(set) var undoLog: [Change] = [] {
        didSet { revision &+= 1 }
    }
    public private(set) var revision = 0
    let images: ImageFiles

    public init() { images = ImageFiles() }

    /// For a durable store: rows here, pictures in its folder.
    init(images: ImageFiles) { self.images = images }

    public var location: String { ":memory:" }

    public var details: [(String, String)] { [("images", "\(images.count) files, \(images.totalBytes) bytes")] }

    public func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(RepositoryError) {
        do {
            try images.write(bytes, for: id, image)
        } catch {
            throw .transferError(error.description)
        }
    }

    public func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? { images.read(for: id, image) }

    // MARK: transactions

    public func savepoint() -> Savepoint { Savepoint(position: undoLog.count) }

    public func rollback(to savepoint: Savepoint) {
        while undoLog.count > savepoint.position {
            switch undoLog.removeLast() {
            case .clothesSaved(let id, let slot, let previous):
                if let previous { clothesTable.restore(previous, id: id, slot: slot) } else { clothesTable.clear(slot: slot) }
            case .clothesRemoved(let id, let slot, let row):
                clothesTable.restore(row, id: id, slot: slot)
            case .styleSaved(let id, let slot, let previous):
                if let previous { styleTable.restore(previous, id: id, slot: slot) } else { styleTable.clear(slot: slot) }
            case .styleRemoved(let id, let slot, let row):
                styleTable.restore(row, id: id, slot: slot)
            }
        }
    }

    public func commit() throws(StoreError) {
        images.remove(pendingReleasedImages(), keeping: allImages)
        forgetPendingChanges()
    }

    /// Clears the undo log once its changes are safe (a durable store calls this after its
    /// journal write).
    func forgetPendingChanges() {
        if !undoLog.isEmpty { undoLog.removeAll(keepingCapacity: true) }  // (an empty commit is no change)
        clothesTable.compactIfSparse()
        styleTable.compactIfSparse()
    }

    // MARK: durable stores build on these

    /// The net effect of everything since the last commit, in first-touched order, as whole
    /// rows: what a journal record must hold to redo it.
    func pendingOperations() -> [StoreOperation] {
        var seenClothes = Set<UUID>()
        var seenStyles = Set<UUID>()
        var operations: [StoreOperation] = []
        for change in undoLog {
            switch change {
            case .clothesSaved(let id, _, _), .clothesRemoved(let id, _, _):
                guard seenClothes.insert(id).inserted else { continue }
                operations.append(clothesTable[id].map(StoreOperation.putClothes) ?? .deleteClothes(id))
            case .styleSaved(let id, _, _), .styleRemoved(let id, _, _):
                guard seenStyles.insert(id).inserted else { continue }
                operations.append(styleTable[id].map(StoreOperation.putStyle) ?? .deleteStyle(id))
            }
        }
        return operations
    }

    /// Images that pending changes stopped referencing (replaced or removed), to delete once
    /// the change is committed.
    func pendingReleasedImages() -> [(UUID, ImageInfo)] {
        var released: [(UUID, ImageInfo)] = []
        for change in undoLog {
            switch change {
            case .clothesSaved(let id, _, let previous?):
                if let image = previous.image, clothesTable[id]?.image != image { released.append((id, image)) }
            case .clothesRemoved(let id, _, let row):
                if let image = row.image, clothesTable[id]?.image != image { released.append((id, image)) }
            case .clothesSaved, .styleSaved, .styleRemoved:
                break
            }
        }
        return released
    }

    /// Every row as a put, in table order: a snapshot.
    func snapshotOperations() -> [StoreOperation] {
        clothesTable.rows.map(StoreOperation.putClothes) + styleTable.rows.map(StoreOperation.putStyle)
    }

    /// Loads one of a snapshot's rows (all distinct) without logging or indexing it.
    func load(snapshotRow operation: StoreOperation) {
        revision &+= 1
        switch operation {
        case .putClothes(let clothes): clothesTable.appendLoaded(clothes, id: clothes.id)
        case .putStyle(let record): styleTable.appendLoaded(record, id: record.id)
        case .deleteClothes, .deleteStyle: apply(replayed: operation)
        }
    }

    /// Applies a replayed operation without logging it (opening a store is not a change).
    func apply(replayed operation: StoreOperation) {
        revision &+= 1
        switch operation {
        case .putClothes(let clothes): clothesTable.upsert(clothes, id: clothes.id)
        case .deleteClothes(let id): clothesTable.remove(id: id)
        case .putStyle(let record): styleTable.upsert(record, id: record.id)
        case .deleteStyle(let id): styleTable.remove(id: id)
        }
    }

    func reserveCapacity(clothes: Int, styles: Int) {
        clothesTable.reserveCapacity(clothes)
        styleTable.reserveCapacity(styles)
    }

    func compactAfterLoad() {
        clothesTable.compactIfSparse()
        styleTable.compactIfSparse()
    }

    var allImages: [(UUID, ImageInfo)] {
        clothesTable.slots.compactMap { entry in
            guard let entry, let image = entry.row.image else { return nil }
            return (entry.id, image)
        }
    }

    // MARK: clothes

    public var clothesCount: Int { clothesTable.count }

    /// Grouped in one pass over the table (no intermediate array of every row).
    public func fetchClothesList() throws(RepositoryError) -> ClothesList {
        var groups = [[Clothes]](repeating: [], count: ClothesCategory.allCases.count)
        for case let entry? in clothesTable.slots { groups[entry.row.category.rawValue].append(entry.row) }
        var byCategory: [ClothesCategory: [Clothes]] = [:]
        for category in ClothesCategory.allCases where !groups[category.rawValue].isEmpty {
            byCategory[category] = groups[category.rawValue]
        }
        return ClothesList(clothesByCategory: byCategory)
    }

    public func fetchAllClothes() -> [Clothes] { clothesTable.rows }

    public func clothes(withID id: UUID) -> Clothes? { clothesTable[id] }

    public func save(clothes: Clothes) throws(RepositoryError) {
        let (slot, previous) = clothesTable.upsert(clothes, id: clothes.id)
        undoLog.append(.clothesSaved(id: clothes.id, slot: slot, previous: previous))
    }

    public func remove(clothes: Clothes) throws(RepositoryError) {
        guard let (slot, row) = clothesTable.remove(id: clothes.id) else { throw .invalidData }
        undoLog.append(.clothesRemoved(id: clothes.id, slot: slot, row: row))
        for record in styleTable.rows where record.clothesIDs.values.contains(clothes.id) {
            var updated = record
            updated.clothesIDs = record.clothesIDs.filter { $0.value != clothes.id }
            saveRecord(updated)
        }
    }

    public func removeAllClothes() throws(RepositoryError) {
        for clothes in clothesTable.rows { try remove(clothes: clothes) }
    }

    // MARK: styles

    public var styleCount: Int { styleTable.count }

    public func fetchStyles() throws(RepositoryError) -> [Style] {
        styleTable.rows.map(resolve)
    }

    public func style(withID id: UUID) -> Style? { styleTable[id].map(resolve) }

    public func save(style: Style) throws(RepositoryError) {
        for clothes in style.clothes.values where clothesTable[clothes.id] == nil { throw .invalidData }
        saveRecord(StyleRecord(style))
    }

    public func remove(style: Style) throws(RepositoryError) {
        guard let (slot, row) = styleTable.remove(id: style.id) else { throw .invalidData }
        undoLog.append(.styleRemoved(id: style.id, slot: slot, row: row))
    }

    public func removeAllStyles() throws(RepositoryError) {
        for record in styleTable.rows { try remove(style: resolve(record)) }
    }

    private func saveRecord(_ record: StyleRecord) {
        let (slot, previous) = styleTable.upsert(record, id: record.id)
        undoLog.append(.styleSaved(id: record.id, slot: slot, previous: previous))
    }

    private func resolve(_ record: StyleRecord) -> Style {
        record.style { clothesTable[$0] }
    }
}
