import ClosetCore
import ClosetLanguage

/// Clothes and styles, declared once (SPEC §6 key order): every output format, and the clothes'
/// `add` and `edit` keys and `.dump` line, derive from these schemas. Korean labels are the app's (옷 종류, 계절, 설명; 사진 from its required-photo
/// alert); categories and seasons show as the app names them under `.lang ko`.
enum WardrobeRecords {
    static let clothesKind: EntityKind = EntityKind(
        singular: "clothes", plural: "clothes", korean: "옷", indefinite: "clothes", columns: { clothes.columns })
    static let clothes = EntitySchema<Clothes>(
        kind: clothesKind,
        fields: [
            .field("id", input: .restoring("id", .newID, "pin the new clothes' id (as .dump does)")) {
                .key(.uuid($0.id))
            },
            .field(
                "createdAt", label: "created",
                input: .optional("created", .date, "when it was added (default now)", editable: false)
            ) { .date($0.createdAt) },
            .field(
                "category", korean: "옷 종류",
                input: .required(
                    "category", Wardrobe.category, "what kind of clothes",
                    whenMissing: ClothesDetailViewModel.ValidationError.missingCategory.message)
            ) { $0.category.shown },
            .field(
                "season", korean: "계절",
                input: .required(
                    "season", Wardrobe.season, "when to wear it",
                    whenMissing: ClothesDetailViewModel.ValidationError.missingWeather.message)
            ) { $0.weatherType.shown },
            .field(
                "description", korean: "설명",
                input: .optional("description", .text, "free text (optional)", editSummary: "free text (\"\" to clear)")
            ) { .text($0.descriptions) },
            .field(
                "image", korean: "사진", data: .value { imageText($0.image) }, optional: true,
                input: .optional(
                    "image", .path(allowsNone: false), "a PNG or JPEG file to copy into the store",
                    edit: .path(allowsNone: true), editSummary: "a PNG or JPEG file, or none to remove the picture"),
                shown: { imageText($0.image) }
            ) {
                image($0.image)
            },
        ],
        listing: ["id", "category", "season", "description", "createdAt", "image"],
        restore: ["id", "category", "season", "description", "image", "createdAt"])

    static let styleKind: EntityKind = EntityKind(
        singular: "style", plural: "styles", korean: "스타일", indefinite: "a style", columns: { style.columns })
    static let style = EntitySchema<Style>(
        kind: styleKind,
        fields: [
            .field("id", input: .restoring("id", .newID, "pin the new style's id (as .dump does)")) {
                .key(.uuid($0.id))
            },
            .field(
                "createdAt", label: "created",
                input: .optional("created", .date, "when it was added (default now)", editable: false)
            ) { .date($0.createdAt) },
            .field(
                "name", data: .value { .text($0.name ?? "") },
                input: .optional(
                    "name", .text, "what to call it (optional)", editSummary: "what to call it (\"\" to clear)"),
                shown: { .text($0.name ?? "") }
            ) { $0.name.map(FieldValue.text) ?? .null },
            .field(
                "season", korean: "계절",
                input: .optional(
                    "season", Wardrobe.season, "when to wear it (default all)",
                    editSummary: "when to wear it")
            ) { $0.weather.shown },
            .children(
                "clothes", korean: "옷", of: slot, title: "slots",
                data: .columns(
                    ClothesCategory.allCases.map { category in
                        .init(category.englishName) { style in
                            style.clothes[category].map { .key(.uuid($0.id)) } ?? .null
                        }
                    }),
                shown: { style in
                    .localized(
                        style.orderedClothes.map { "\($0.category.englishName): \(label(of: $0))" }.joined(
                            separator: ", "),
                        korean: style.orderedClothes.map { "\($0.category.korean): \(label(of: $0))" }.joined(
                            separator: ", "))
                },
                json: { .list($0.orderedClothes.map { .object(clothes.jsonFields($0)) }) }
            ) { style in ClothesCategory.allCases.map { Slot(category: $0, clothes: style.clothes[$0]) } },
        ],
        listing: ["id", "name", "season", "clothes", "createdAt"],
        // Each slot is supplied as the `$variable` the dump bound its clothes to.
        restore: ["id", "name", "season"] + ClothesCategory.allCases.map { $0.englishName } + ["createdAt"])

    /// One of a style's five slots, as the edit screen shows them: its clothes, or not added.
    struct Slot {
        var category: ClothesCategory
        var clothes: Clothes?
    }

    static let slotKind: EntityKind = EntityKind(
        singular: "slot", plural: "slots", korean: "슬롯", indefinite: "a slot", columns: { slot.columns })
    static let slot = EntitySchema<Slot>(
        kind: slotKind,
        fields: [
            .field("slot", korean: "옷 종류") { $0.category.shown },
            .field("id") { $0.clothes.map { .key(.uuid($0.id)) } ?? .text("not added") },
            .field("description", korean: "설명") { $0.clothes.map { .text($0.descriptions) } ?? .null },
            .field("season", korean: "계절") { $0.clothes.map { $0.weatherType.shown } ?? .null },
            .field("image", korean: "사진") { imageText($0.clothes?.image) },
        ],
        listing: ["slot", "id", "description", "season", "image"])

    static func record(_ clothes: Clothes) -> Record { Self.clothes.record(clothes) }

    static func record(_ style: Style) -> Record { Self.style.record(style) }

    /// A picture's facts as JSON shows them.
    static func image(_ image: ImageInfo?) -> FieldValue {
        guard let image else { return .null }
        return .object([
            Field("format", .text(image.format.rawValue)), Field("width", .integer(image.width)),
            Field("height", .integer(image.height)), Field("bytes", .integer(image.bytes)),
        ])
    }

    /// `png 1x1 67B`, for tables and csv.
    static func imageText(_ image: ImageInfo?) -> FieldValue {
        guard let image else { return .null }
        return .text("\(image.format.rawValue) \(image.width)x\(image.height) \(image.bytes)B")
    }

    /// How a table names a clothes inside a style: its description, else its short id.
    static func label(of clothes: Clothes) -> String {
        clothes.descriptions.isEmpty ? EntityKey.uuid(clothes.id).short : clothes.descriptions
    }
}
