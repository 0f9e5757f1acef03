import ClosetCore
import ClosetLanguage

/// Clothes and styles as records (SPEC §6 key order): what every output format shows.
enum WardrobeRecords {
    static func record(_ clothes: Clothes) -> Record {
        Record(
            fields: fields(clothes),
            data: [
                .key(.uuid(clothes.id)), .date(clothes.createdAt), .text(clothes.category.englishName),
                .text(clothes.weatherType.englishName), .text(clothes.descriptions), imageText(clothes.image),
            ],
            table: [
                .key(.uuid(clothes.id)), .text(clothes.category.englishName), .text(clothes.weatherType.englishName),
                .text(clothes.descriptions), .date(clothes.createdAt), imageText(clothes.image),
            ])
    }

    static func fields(_ clothes: Clothes) -> [Field] {
        [
            Field("id", .key(.uuid(clothes.id))), Field("createdAt", .date(clothes.createdAt)),
            Field("category", .text(clothes.category.englishName)),
            Field("season", .text(clothes.weatherType.englishName)),
            Field("description", .text(clothes.descriptions)), Field("image", image(clothes.image)),
        ]
    }

    static func record(_ style: Style) -> Record {
        Record(
            fields: [
                Field("id", .key(.uuid(style.id))), Field("createdAt", .date(style.createdAt)),
                Field("name", style.name.map(FieldValue.text) ?? .null),
                Field("season", .text(style.weather.englishName)),
                Field("clothes", .list(style.orderedClothes.map { .object(fields($0)) })),
            ],
            data: [
                .key(.uuid(style.id)), .date(style.createdAt), .text(style.name ?? ""),
                .text(style.weather.englishName),
            ]
                + ClothesCategory.allCases.map { category in style.clothes[category].map { .key(.uuid($0.id)) } ?? .null
                },
            table: [
                .key(.uuid(style.id)), .text(style.name ?? ""), .text(style.weather.englishName),
                .text(
                    style.orderedClothes.map { "\($0.category.englishName): \(label(of: $0))" }.joined(separator: ", ")),
                .date(style.createdAt),
            ])
    }

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
