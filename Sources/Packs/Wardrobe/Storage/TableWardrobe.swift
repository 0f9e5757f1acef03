import ClosetCore
import ClosetTables
import Foundation

/// The app's repositories over the engine's tables: clothes and styles in two stored tables,
/// pictures as blobs. The app's rule that removing clothes empties every style slot holding
/// it lives here, in the same transaction as the removal.
package final class TableWardrobe: WardrobeStore {
    let clothesTable: Table<ClothesTable>
    let styleTable: Table<StyleTable>
    let blobs: BlobStore
    /// The store underneath, whose transactions these changes belong to.
    package let store: Store

    /// The wardrobe's tables in a store (opened with `Wardrobe.pack.tables`, or made now).
    package init(_ store: Store) throws(StoreError) {
        self.store = store
        clothesTable = try store.tables.table(ClothesTable.schema)
        styleTable = try store.tables.table(StyleTable.schema)
        blobs = store.blobs
    }

    package var revision: Int { clothesTable.revision &+ styleTable.revision }

    // MARK: pictures

    /// A picture that cannot be written is the store's failure (a full disk), reported in
    /// the engine's words, not under the app's alert text.
    package func storeImage(_ bytes: [UInt8], _ image: ImageInfo, for id: UUID) throws(StoreError) {
        try blobs.write(bytes, named: ClothesTable.pictureName(for: id, image))
    }

    package func loadImage(_ image: ImageInfo, for id: UUID) -> [UInt8]? {
        blobs.read(named: ClothesTable.pictureName(for: id, image))
    }

    // MARK: clothes

    package var clothesCount: Int { clothesTable.count }

    /// Grouped in one pass over the table (no intermediate array of every row).
    package func fetchClothesList() throws(RepositoryError) -> ClothesList {
        var groups = [[Clothes]](repeating: [], count: ClothesCategory.allCases.count)
        clothesTable.forEachRow { groups[$0.category.rawValue].append($0) }
        var byCategory: [ClothesCategory: [Clothes]] = [:]
        for category in ClothesCategory.allCases where !groups[category.rawValue].isEmpty {
            byCategory[category] = groups[category.rawValue]
        }
        return ClothesList(clothesByCategory: byCategory)
    }

    package func fetchAllClothes() -> [Clothes] { clothesTable.rows }

    package func forEachClothes(_ visit: (Clothes) throws -> Void) throws {
        if try clothesTable.forEachRowInOrder(visit) { return }
        for clothes in clothesTable.rows { try visit(clothes) }
    }

    package func indexedClothesCount(categories: UInt8, seasons: UInt8, searches: [TextSearch]) -> Int? {
        let buckets = Self.groups(categories, seasons).flatMap { $0 }
        guard !searches.isEmpty else { return clothesTable.indexedCount(buckets: buckets) }
        return clothesTable.countRows(buckets: buckets, passing: Self.test(searches))
    }

    package func indexedClothesRows(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int
    ) -> ClothesRows? {
        clothesTable.indexedRowList(
            groups: Self.groups(categories, seasons), descending: sort == .new, limit: limit,
            passing: searches.isEmpty ? nil : Self.test(searches)
        ).map { list in
            // The snapshot lists the pictures its rows refer to: none, and no row has one.
            ClothesRows(count: list.count, mayHavePictures: !clothesTable.referencedBlobs.isEmpty) { list.row(at: $0) }
        }
    }

    package func forEachIndexedClothes(
        categories: UInt8, seasons: UInt8, searches: [TextSearch], sort: SortBy, limit: Int,
        _ visit: (Clothes) throws -> Void
    ) throws -> Bool {
        try clothesTable.forEachIndexedRow(
            groups: Self.groups(categories, seasons), descending: sort == .new, limit: limit,
            passing: searches.isEmpty ? nil : Self.test(searches), visit)
    }

    /// Descriptions containing every search's text: read from a stored row's bytes where they
    /// decide it (`TextSearch`), else from the decoded row.
    private static func test(_ searches: [TextSearch]) -> RowTest<Clothes> {
        RowTest(
            bytesPass: { row in
                guard let description = ClothesTable.descriptionBytes(inRow: row) else { return nil }
                for search in searches {
                    guard let found = search.matches(utf8: description) else { return nil }
                    if !found { return false }
                }
                return true
            },
            rowPasses: { clothes in searches.allSatisfy { $0.matches(clothes.descriptions) } })
    }

    /// The index buckets of each selected category, in display order.
    private static func groups(_ categories: UInt8, _ seasons: UInt8) -> [[Int]] {
        ClothesCategory.allCases.filter { categories & (1 << UInt8($0.rawValue)) != 0 }.map { category in
            WeatherType.allCases.filter { seasons & (1 << UInt8($0.rawValue)) != 0 }.map {
                ClothesTable.bucket(category: category, season: $0)
            }
        }
    }

    package func clothes(withID id: UUID) -> Clothes? { clothesTable[id] }

    func containsClothes(_ id: UUID) -> Bool { clothesTable.contains(id) }

    package func save(clothes: Clothes) throws(RepositoryError) { clothesTable.upsert(clothes) }

    package func remove(clothes: Clothes) throws(RepositoryError) {
        guard clothesTable.remove(clothes.id) != nil else { throw .invalidData }
        for record in styleTable.rows where record.clothesIDs.values.contains(clothes.id) {
            var updated = record
            updated.clothesIDs = record.clothesIDs.filter { $0.value != clothes.id }
            styleTable.upsert(updated)
        }
    }

    /// The styles whose only clothes this is: a style keeps at least one (as `add style` and
    /// `edit style` require), so these clothes cannot be removed from under them.
    package func stylesHeldOnlyBy(clothes id: UUID) -> [Style] {
        styleTable.rows.filter { $0.clothesIDs.count == 1 && $0.clothesIDs.values.first == id }.map(resolve)
    }

    package func removeAllClothes() throws(RepositoryError) {
        for clothes in clothesTable.rows { try remove(clothes: clothes) }
    }

    // MARK: styles

    package var styleCount: Int { styleTable.count }

    package func fetchStyles() throws(RepositoryError) -> [Style] { styleTable.rows.map(resolve) }

    package func style(withID id: UUID) -> Style? { styleTable[id].map(resolve) }

    /// Style ids in insertion order, without resolving their clothes.
    var styleIDs: [UUID] { styleTable.rows.map(\.id) }

    package func save(style: Style) throws(RepositoryError) {
        for clothes in style.clothes.values where !clothesTable.contains(clothes.id) { throw .invalidData }
        var record = StyleRecord(style)
        // A style has a name or none: an empty name is none (as `name=""` means), so every
        // stored style dumps to a statement that recreates it.
        if record.name?.isEmpty == true { record.name = nil }
        styleTable.upsert(record)
    }

    package func remove(style: Style) throws(RepositoryError) {
        guard styleTable.remove(style.id) != nil else { throw .invalidData }
    }

    package func removeAllStyles() throws(RepositoryError) {
        for record in styleTable.rows { styleTable.remove(record.id) }
    }

    private func resolve(_ record: StyleRecord) -> Style {
        record.style { clothesTable[$0] }
    }
}
