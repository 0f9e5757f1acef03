import ClosetCore
import ClosetLanguage
import Foundation

/// `count styles`: how many rows `list styles` would print.
enum CountStyles {
    static let spec = CommandSpec(
        path: ["count", "styles"],
        summary: "count styles matching the filters",
        keys: [KeySpec("season", Wardrobe.seasons, "keep these seasons (exact)")],
        examples: ["count styles", "count styles season=winter"],
        keysRepeat: true,
        run: { try .count(ListStyles.filteredStyles($0).count) })
}
