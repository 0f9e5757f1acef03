import ClosetCore
import ClosetLanguage
import Foundation

/// The wardrobe in one session: the store's repositories, the app's view models and its
/// image cache. The engine asks it which clothes and styles exist (references, completion,
/// `.vars`), how many (`.store`, the banner) and for the dump.
final class WardrobeState: PackState {
    let store: TableWardrobe
    /// Pictures read by `show` go through this (the app's `ImageCacheManager`).
    let imageCache = ImageCacheManager()
    private(set) lazy var clothesViewModel = ClothesViewModel(repository: store, fetchNow: false)
    private(set) lazy var styleViewModel = StyleViewModel(repository: store, fetchNow: false)

    init(_ services: PackServices) throws {
        store = try TableWardrobe(services.store)
    }

    /// A clothes' picture through the cache, as the app's detail screen loaded it. A picture
    /// whose file is gone or whose bytes no longer match their checksum is an error naming
    /// the clothes, never shown as if it were there.
    @discardableResult
    func loadImage(of clothes: Clothes) throws(Diagnostic) -> [UInt8]? {
        guard let image = clothes.image else { return nil }
        let key = "\(clothes.id.uuidString)-\(image.checksum)"
        if let cached = imageCache.get(for: key) { return cached }
        let bytes = try Self.checkedPicture(store, image, of: clothes)
        imageCache.store(bytes, for: key)
        return bytes
    }

    /// The picture's bytes, verified against the size and checksum recorded with the clothes.
    static func checkedPicture(_ store: WardrobeStore, _ image: ImageInfo, of clothes: Clothes) throws(Diagnostic)
        -> [UInt8]
    {
        guard let bytes = store.loadImage(image, for: clothes.id) else {
            throw .pictureMissing(of: clothes)
        }
        guard bytes.count == image.bytes, Checksum.crc32(bytes) == image.checksum else {
            throw .pictureDamaged(of: clothes)
        }
        return bytes
    }

    func clothes(_ key: EntityKey) throws(Diagnostic) -> Clothes {
        guard let id = key.uuid, let clothes = store.clothes(withID: id) else {
            throw .noSuchEntity(Wardrobe.clothes, key)
        }
        return clothes
    }

    func style(_ key: EntityKey) throws(Diagnostic) -> Style {
        guard let id = key.uuid, let style = store.style(withID: id) else {
            throw .noSuchEntity(Wardrobe.style, key)
        }
        return style
    }

    // MARK: the engine's questions

    package var counts: [(EntityKind, Int)] {
        [(Wardrobe.clothes, store.clothesCount), (Wardrobe.style, store.styleCount)]
    }

    package func keys(of kind: EntityKind) -> [EntityKey] {
        if kind == Wardrobe.clothes { return store.fetchAllClothes().map { .uuid($0.id) } }
        if kind == Wardrobe.style { return store.styleIDs.map { .uuid($0) } }
        return []
    }

    package func contains(_ key: EntityKey, kind: EntityKind) -> Bool {
        guard let id = key.uuid else { return false }
        if kind == Wardrobe.clothes { return store.clothes(withID: id) != nil }
        if kind == Wardrobe.style { return store.style(withID: id) != nil }
        return false
    }

    package func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? {
        guard kind == Wardrobe.clothes, constraint.vocabulary == ClothesCategory.vocabularyName,
            let slot = ClothesCategory(code: constraint.code), let id = key.uuid,
            let clothes = store.clothes(withID: id),
            clothes.category != slot
        else { return nil }
        let wrong = clothes.category
        return "is \(Self.article(wrong)) \(wrong.englishName), not \(Self.article(slot)) \(slot.englishName)"
    }

    package func label(of key: EntityKey, kind: EntityKind) -> String? {
        guard let id = key.uuid else { return nil }
        if kind == Wardrobe.clothes { return store.clothes(withID: id)?.descriptions }
        if kind == Wardrobe.style { return store.style(withID: id)?.name }
        return nil
    }

    package func completionLabel(of key: EntityKey, kind: EntityKind) -> String {
        guard let id = key.uuid else { return "" }
        if kind == Wardrobe.clothes, let clothes = store.clothes(withID: id) {
            return clothes.category.englishName + (clothes.descriptions.isEmpty ? "" : "  \(clothes.descriptions)")
        }
        if kind == Wardrobe.style, let style = store.style(withID: id) { return style.name ?? "(no name)" }
        return ""
    }

    package func dump(into writer: inout DumpWriter) throws {
        try WardrobeDump.write(store, into: &writer)
    }

    private static func article(_ category: ClothesCategory) -> String {
        switch category {
        case .outer, .accessory: "an"
        case .top, .bottom: "a"
        case .shoes: "a pair of"
        }
    }
}
