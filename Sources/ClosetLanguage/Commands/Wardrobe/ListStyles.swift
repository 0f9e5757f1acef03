import ClosetDomain

/// `list styles`: the app's style screen. The app had no order (its sort was dead code);
/// closet sorts newest first unless `sort=old`.
enum ListStyles {
    static let spec = CommandSpec(
        path: ["list", "styles"],
        summary: "list styles, newest first",
        keys: [
            KeySpec("season", .seasons, "keep these seasons (exact)"),
            KeySpec("sort", .sort, "by creation time (default new)"),
            KeySpec("limit", .count, "keep the first N rows"),
        ],
        examples: ["list styles", "list styles season=spring,summer sort=old"],
        keysRepeat: true,
        run: { try .styles(filteredStyles($0)) })

    static func filteredStyles(_ invocation: Invocation) throws -> [Style] {
        let viewModel = invocation.session.styleViewModel
        viewModel.refresh()
        if let error = viewModel.lastError { throw error }
        var sort = SortBy.new
        for case .sort(let chosen) in invocation.arguments.map(\.value) { sort = chosen }
        var styles = viewModel.sorted(sort)
        for argument in invocation.arguments {
            switch argument.value {
            case .seasons(let seasons): styles = styles.filter { seasons.contains($0.weather) }
            case .count(let limit): styles = Array(styles.prefix(limit))
            case .text, .categories, .sort, .size, .date, .clothes, .style, .path, .id, .none: break
            }
        }
        return styles
    }
}
