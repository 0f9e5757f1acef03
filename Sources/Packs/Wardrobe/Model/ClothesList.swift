import ClosetCore

/// The app's `ClothesList`: clothes grouped by category.
public struct ClothesList: Hashable, Sendable {
    public var clothesByCategory: [ClothesCategory: [Clothes]]

    public init(clothesByCategory: [ClothesCategory: [Clothes]]) {
        self.clothesByCategory = clothesByCategory
    }

    /// All clothes, categories in display order, each category in its own order.
    public var flattened: [Clothes] {
        ClothesCategory.allCases.flatMap { clothesByCategory[$0] ?? [] }
    }
}
