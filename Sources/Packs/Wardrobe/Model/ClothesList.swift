import ClosetCore

/// The app's `ClothesList`: clothes grouped by category.
package struct ClothesList: Hashable, Sendable {
    package var clothesByCategory: [ClothesCategory: [Clothes]]

    package init(clothesByCategory: [ClothesCategory: [Clothes]]) {
        self.clothesByCategory = clothesByCategory
    }

    /// All clothes, categories in display order, each category in its own order.
    package var flattened: [Clothes] {
        ClothesCategory.allCases.flatMap { clothesByCategory[$0] ?? [] }
    }
}
