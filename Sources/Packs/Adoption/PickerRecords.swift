import ClosetCore

/// The lists the dog search's filters are picked from, declared once each: a 시군구, a shelter
/// and a breed, by code and name.
enum PickerRecords {
    static let districtKind: EntityKind = EntityKind(
        singular: "district", plural: "districts", korean: "시군구", indefinite: "a district", keyStyle: .opaque,
        columns: { district.columns })
    static let shelterKind: EntityKind = EntityKind(
        singular: "shelter", plural: "shelters", korean: "보호소", indefinite: "a shelter", keyStyle: .opaque,
        columns: { shelter.columns })
    static let breedKind: EntityKind = EntityKind(
        singular: "breed", plural: "breeds", korean: "품종", indefinite: "a breed", keyStyle: .opaque,
        columns: { breed.columns })

    static let district = schema(districtKind, code: "orgCd")
    static let shelter = schema(shelterKind, code: "careRegNo")
    static let breed = schema(breedKind, code: "kindCd")

    /// The code under the API's own name (what `list dogs` sends), then the name.
    private static func schema(_ kind: EntityKind, code: String) -> EntitySchema<PickerItem> {
        EntitySchema<PickerItem>(
            kind: kind,
            fields: [.field(code) { .key(.opaque($0.code)) }, .field("name") { .text($0.name) }],
            listing: [code, "name"])
    }
}
