import ClosetCore
import ClosetLanguage
import ClosetTables

/// The EasyCloset wardrobe as a pack: clothes and styles, their vocabularies and commands.
/// Everything the engine knows about the wardrobe comes through `pack`.
public enum Wardrobe {
    public static let pack = Pack(
        name: "wardrobe",
        summary: "the EasyCloset wardrobe, clothes and styles (옷, 스타일)",
        vocabularies: [ClothesCategory.info, WeatherType.info, SortBy.info],
        entityKinds: [clothes, style],
        tables: [AnyTableSchema(ClothesTable.schema), AnyTableSchema(StyleTable.schema)],
        commands: [
            AddClothes.spec, ListClothes.spec, CountClothes.spec, ShowClothes.spec, EditClothes.spec,
            RemoveClothes.spec, AddStyle.spec, ListStyles.spec, CountStyles.spec, ShowStyle.spec,
            EditStyle.spec, RemoveStyle.spec, CacheStats.spec, CacheLimit.spec, CacheClear.spec,
            ExportClothes.spec, ExportStyles.spec, ImportClothes.spec, ImportStyles.spec,
        ],
        syntaxExamples: SyntaxExamples(binding: "let $coat = add clothes ...", list: "season=fall,winter"),
        makeState: { try WardrobeState($0) })

    package static let clothes = WardrobeRecords.clothesKind
    package static let style = WardrobeRecords.styleKind

    /// The filter keys shared by `list clothes` and `count clothes`.
    static let clothesFilterKeys = [
        KeySpec("category", .vocabulary(ClothesCategory.info, many: true), "keep these categories"),
        KeySpec(
            "season", .vocabulary(WeatherType.info, many: true), "keep these seasons (exact: fall does not include all)"
        ),
        KeySpec("sort", .vocabulary(SortBy.info, many: false), "order inside each category (default new)"),
        KeySpec("search", .text, "keep descriptions containing this text (any case)"),
        KeySpec("limit", .count, "keep the first N rows of the result"),
    ]

    static let category = ValueKind.vocabulary(ClothesCategory.info, many: false)
    static let season = ValueKind.vocabulary(WeatherType.info, many: false)
    static let seasons = ValueKind.vocabulary(WeatherType.info, many: true)
    static let sort = ValueKind.vocabulary(SortBy.info, many: false)
    static let clothesList = ValueKind.reference(clothes, many: true, allowsNone: false, constraint: nil)

    /// One clothes; `slot` demands that category; `allowsNone` accepts `none` to empty.
    static func clothesReference(slot: ClothesCategory?, allowsNone: Bool) -> ValueKind {
        .reference(
            clothes, many: false, allowsNone: allowsNone,
            constraint: slot.map { ReferenceConstraint(vocabulary: ClothesCategory.vocabularyName, code: $0.code) })
    }

    /// The app's filter items for the arguments, in the order written; `new` when no sort.
    static func filters(from invocation: Invocation) -> FilterItems {
        var filters: FilterItems = []
        for argument in invocation.arguments {
            switch argument.value {
            case .terms:
                if let list = Invocation.values(ClothesCategory.self, of: argument.value) {
                    filters.append(list.count == 1 ? .clothes(list[0]) : .categories(Set(list)))
                } else if let list = Invocation.values(WeatherType.self, of: argument.value) {
                    filters.append(list.count == 1 ? .weather(list[0]) : .weathers(Set(list)))
                } else if let sort = Invocation.values(SortBy.self, of: argument.value)?.first {
                    filters.append(.sort(sort))
                }
            case .text(let text):
                filters.append(.search(text))
            case .count(let limit):
                filters.append(.limit(limit))
            case .size, .date, .references, .path, .id, .none:
                break
            }
        }
        if !filters.contains(where: { if case .sort = $0 { true } else { false } }) {
            filters.insert(.sort(.new), at: 0)
        }
        return filters
    }

    static func filteredClothes(_ invocation: Invocation) throws -> [Clothes] {
        let viewModel = try invocation.state(WardrobeState.self).clothesViewModel
        viewModel.searchFilters = filters(from: invocation)
        return try viewModel.queryClothes()
    }

    /// `filteredClothes`, each read when asked for (a listing of a whole wardrobe).
    static func filteredClothesRows(_ invocation: Invocation) throws -> ClothesRows {
        let viewModel = try invocation.state(WardrobeState.self).clothesViewModel
        viewModel.searchFilters = filters(from: invocation)
        return try viewModel.queryClothesRows()
    }

    static func filteredCount(_ invocation: Invocation) throws -> Int {
        let viewModel = try invocation.state(WardrobeState.self).clothesViewModel
        viewModel.searchFilters = filters(from: invocation)
        return try viewModel.queryCount()
    }

    static let slotKeys: [KeySpec] = ClothesCategory.allCases.map {
        KeySpec(
            $0.englishName, clothesReference(slot: $0, allowsNone: false), "the \($0.englishName) (\($0.korean)) slot")
    }

    static let clothesReferenceParameter = ParameterSpec(
        "ref", clothesReference(slot: nil, allowsNone: false), "a clothes reference (id, id prefix, $variable or @N)")
    static let styleReferenceParameter = ParameterSpec(
        "ref", .reference(style, many: false, allowsNone: false, constraint: nil),
        "a style reference (id, id prefix, $variable or @N)")

    /// The outcome for one clothes, or a listing of them.
    static func outcome(_ clothes: Clothes) -> Outcome {
        .entity(Wardrobe.clothes, .uuid(clothes.id)) { WardrobeRecords.record(clothes) }
    }

    static func outcome(_ list: [Clothes]) -> Outcome {
        .listing(Wardrobe.clothes, list.map { .uuid($0.id) }) { WardrobeRecords.record(list[$0]) }
    }

    /// `list clothes`: the listing with each clothes' picture as a thumbnail numbered by its
    /// row (the app's carousel cells), read through the image cache when shown. The clothes
    /// are read in one pass for the pictures and the sections (none when the store has no
    /// picture), and again as each row and key is asked for: a whole wardrobe is never held,
    /// nor its keys.
    static func listing(_ list: ClothesRows) -> Outcome {
        let keys = ListingKeys(count: list.count) { .uuid(list[$0].id) }
        let outcome = Outcome.listing(Wardrobe.clothes, keys) { WardrobeRecords.clothes.record(list[$0], parts: $1) }
        guard list.mayHavePictures else { return outcome }
        var hasPictures = false
        var inCategory = [Int](repeating: 0, count: ClothesCategory.allCases.count)
        for clothes in list {
            if clothes.image != nil { hasPictures = true }
            inCategory[clothes.category.rawValue] += 1
        }
        guard hasPictures else { return outcome }
        // EasyCloset's home: a section a category, in display order, an empty one too (the
        // listing is grouped so).
        let sections = ClothesCategory.allCases.map { category in
            Pictures.Section(category.englishName, korean: category.korean, count: inCategory[category.rawValue])
        }
        return outcome.showing(
            Pictures(
                .thumbnails,
                list.indices.map { row in
                    { @Sendable (session: Session) -> Picture in
                        guard let state = session.state(WardrobeState.self) else {
                            return Picture(.unavailable("the wardrobe is not open"))
                        }
                        return picture(of: list[row], state) ?? Picture.none
                    }
                }, sections: sections))
    }

    /// A clothes' picture read through the image cache; nil when it has none. A picture that
    /// cannot be read is a line saying why.
    static func picture(of clothes: Clothes, _ state: WardrobeState) -> Picture? {
        guard let image = clothes.image else { return nil }
        do throws(Diagnostic) {
            guard let bytes = try state.loadImage(of: clothes) else { return nil }
            return .bytes(bytes, name: image.blobName(owner: clothes.id))
        } catch {
            return Picture(.unavailable(error.message))
        }
    }

    /// `list styles`: the listing with each style's card, its collage of the first four clothes
    /// by category, two rows of two (as `show style` draws it), numbered by its row.
    static func listing(_ styles: [Style]) -> Outcome {
        let outcome = outcome(styles)
        guard styles.contains(where: { $0.orderedClothes.prefix(4).contains { $0.image != nil } }) else {
            return outcome
        }
        return outcome.showing(
            Pictures(
                .thumbnails,
                styles.map { style in
                    { @Sendable (session: Session) -> Picture in
                        guard let state = session.state(WardrobeState.self) else {
                            return Picture(.unavailable("the wardrobe is not open"))
                        }
                        let parts = style.orderedClothes.prefix(4).compactMap { picture(of: $0, state) }
                        return parts.isEmpty ? Picture.none : Picture(.collage(parts))
                    }
                }))
    }

    static func outcome(_ style: Style) -> Outcome {
        .entity(Wardrobe.style, .uuid(style.id)) { WardrobeRecords.record(style) }
    }

    static func outcome(_ list: [Style]) -> Outcome {
        .listing(Wardrobe.style, list.map { .uuid($0.id) }) { WardrobeRecords.record(list[$0]) }
    }

    /// Writes a listing to `to=` through the engine's transfer files.
    static func export(_ outcome: Outcome, _ invocation: Invocation) throws -> Outcome {
        guard case .entities(let entities) = outcome else { return outcome }
        return try TransferFiles.export(entities, invocation)
    }
}
