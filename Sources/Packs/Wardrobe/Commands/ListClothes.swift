import ClosetCore
import ClosetLanguage
import Foundation

/// `list clothes` / `filter clothes`: the app's clothes screen with its filters. Results are
/// grouped by category in display order and sorted inside each category.
enum ListClothes {
    static let spec = CommandSpec(
        path: ["list", "clothes"],
        aliases: [["filter", "clothes"]],
        summary: "list clothes, filtered and sorted like the app's clothes screen",
        keys: Wardrobe.clothesFilterKeys,
        notes: [
            "Filters apply in the order written, as the app's searchFilters; with no sort the order is new.",
            "Rows are grouped by category (outer, top, bottom, shoes, accessory); @N refers to row N afterwards.",
        ],
        examples: [
            "list clothes",
            "filter clothes season=fall,all sort=old",
            "list clothes category=top search=knit limit=5",
        ],
        keysRepeat: true,
        lists: true,
        run: { try Wardrobe.listing(Wardrobe.filteredClothesRows($0)) })
}
