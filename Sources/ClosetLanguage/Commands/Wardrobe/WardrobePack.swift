import ClosetDomain

/// The EasyCloset commands: clothes and styles.
public enum WardrobePack {
    public static let pack = CommandPack(
        name: "wardrobe",
        commands: [
            AddClothes.spec, ListClothes.spec, CountClothes.spec, ShowClothes.spec, EditClothes.spec,
            RemoveClothes.spec, AddStyle.spec, ListStyles.spec, CountStyles.spec, ShowStyle.spec,
            EditStyle.spec, RemoveStyle.spec, CacheCommands.stats, CacheCommands.limit, CacheCommands.clear,
            TransferCommands.exportClothes, TransferCommands.exportStyles, TransferCommands.importClothes,
        ])

    /// The filter keys shared by `list clothes` and `count clothes`.
    static let clothesFilterKeys = [
        KeySpec("category", .categories, "keep these categories"),
        KeySpec("season", .seasons, "keep these seasons (exact: fall does not include all)"),
        KeySpec("sort", .sort, "order inside each category (default new)"),
        KeySpec("search", .text, "keep descriptions containing this text (any case)"),
        KeySpec("limit", .count, "keep the first N rows of the result"),
    ]

    /// The app's filter items for the arguments, in the order written; `new` when no sort.
    static func filters(from invocation: Invocation) -> FilterItems {
        var filters: FilterItems = []
        for argument in invocation.arguments {
            switch argument.value {
            case .categories(let list):
                filters.append(list.count == 1 ? .clothes(list[0]) : .categories(Set(list)))
            case .seasons(let list):
                filters.append(list.count == 1 ? .weather(list[0]) : .weathers(Set(list)))
            case .sort(let sort):
                filters.append(.sort(sort))
            case .text(let text):
                filters.append(.search(text))
            case .count(let limit):
                filters.append(.limit(limit))
            case .size, .date, .clothes, .style, .path, .id, .none:
                break
            }
        }
        if !filters.contains(where: { if case .sort = $0 { true } else { false } }) {
            filters.insert(.sort(.new), at: 0)
        }
        return filters
    }

    static func filteredClothes(_ invocation: Invocation) throws -> [Clothes] {
        let viewModel = invocation.session.clothesViewModel
        viewModel.searchFilters = filters(from: invocation)
        viewModel.refresh()
        if let error = viewModel.lastError { throw error }
        return viewModel.filteredClothes
    }

    static let slotKeys: [KeySpec] = ClothesCategory.allCases.map {
        KeySpec($0.englishName, .clothesRef(slot: $0, allowsNone: false), "the \($0.englishName) (\($0.korean)) slot")
    }

    static let clothesReferenceParameter = ParameterSpec(
        "ref", .clothesRef(slot: nil, allowsNone: false), "a clothes reference (id, id prefix, $variable or @N)")
    static let styleReferenceParameter = ParameterSpec(
        "ref", .styleRef, "a style reference (id, id prefix, $variable or @N)")
}
