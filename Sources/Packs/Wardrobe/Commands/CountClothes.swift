import ClosetCore
import ClosetLanguage
import Foundation

/// `count clothes`: how many rows `list clothes` would print with the same filters.
enum CountClothes {
    static let spec = CommandSpec(
        path: ["count", "clothes"],
        summary: "count clothes matching the filters",
        keys: Wardrobe.clothesFilterKeys,
        examples: ["count clothes", "count clothes season=fall category=top,bottom"],
        keysRepeat: true,
        run: { try .count(Wardrobe.filteredCount($0)) })
}
