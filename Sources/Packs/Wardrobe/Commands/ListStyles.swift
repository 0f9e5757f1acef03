import ClosetCore
import ClosetLanguage
import Foundation

/// `list styles`: the app's style screen, each style's card drawn when pictures are on. The app
/// had no order (its sort was dead code); closet sorts newest first unless `sort=old`.
enum ListStyles {
    static let spec = CommandSpec(
        path: ["list", "styles"],
        summary: "list styles, newest first",
        keys: filterKeys + [KeySpec("limit", .count, "keep the first N rows")],
        examples: ["list styles", "list styles season=spring,summer sort=old"],
        keysRepeat: true,
        lists: true,
        run: { try Wardrobe.listing(filteredStyles($0)) })

    /// The filter keys `export styles` shares.
    static let filterKeys = [
        KeySpec("season", Wardrobe.seasons, "keep these seasons (exact)"),
        KeySpec("sort", Wardrobe.sort, "by creation time (default new)"),
    ]

    static func filteredStyles(_ invocation: Invocation) throws -> [Style] {
        let viewModel = try invocation.state(WardrobeState.self).styleViewModel
        viewModel.refresh()
        if let error = viewModel.lastError { throw error }
        var sort = SortBy.new
        for argument in invocation.arguments {
            if let chosen = Invocation.values(SortBy.self, of: argument.value)?.first { sort = chosen }
        }
        var styles = viewModel.sorted(sort)
        for argument in invocation.arguments {
            switch argument.value {
            case .terms:
                if let seasons = Invocation.values(WeatherType.self, of: argument.value) {
                    styles = styles.filter { seasons.contains($0.weather) }
                }
            case .count(let limit): styles = Array(styles.prefix(limit))
            case .text, .size, .date, .references, .path, .id, .none: break
            }
        }
        return styles
    }
}
