import ClosetCore
import ClosetNetwork

/// A shelter dog, declared once: the API's fields in the API's order (JSON keeps them, csv
/// and line carry them as text), the app's labels, and its picture when `show dog` fetched it.
enum DogRecords {
    struct Row {
        var dog: ShelterDog
        var picture: (info: ImageInfo, source: DogPictureCache.Source)?
    }

    /// The API's fields (reference: apis.md), each with the label people read.
    static let apiFields: [(name: String, label: String)] = [
        ("desertionNo", "desertionNo"), ("happenDt", "found on"), ("happenPlace", "found"),
        ("kindFullNm", "kind (full)"), ("upKindCd", "species code"), ("upKindNm", "species"), ("kindCd", "kind code"),
        ("kindNm", "breed"), ("colorCd", "colour"), ("age", "age"), ("weight", "weight"), ("noticeNo", "notice no."),
        ("noticeSdt", "notice from"), ("noticeEdt", "notice until"), ("popfile1", "photo 1"), ("popfile2", "photo 2"),
        ("processState", "state"), ("sexCd", "sex"), ("neuterYn", "neutered"), ("specialMark", "special marks"),
        ("careRegNo", "shelter no."), ("careNm", "shelter"), ("careTel", "shelter phone"),
        ("careAddr", "shelter address"),
        ("careOwnerNm", "keeper"), ("orgNm", "authority"), ("updTm", "updated"),
    ]

    static let dogKind: EntityKind = EntityKind(
        singular: "dog", plural: "dogs", korean: "유기견", indefinite: "a dog", keyStyle: .opaque, columns: { dog.columns }
    )
    static let dog = EntitySchema<Row>(
        kind: dogKind,
        fields: apiFields.flatMap { name, label -> [EntityField<Row>] in
            // The shelter on a map beside its address, as the app shows it (MapKit).
            name == "careAddr" ? [field(name, label), mapLink] : [field(name, label)]
        } + [
            .column("kind") { .text($0.dog["kindNm"].isEmpty ? $0.dog["kindFullNm"] : $0.dog["kindNm"]) },
            .column("notice", whole: true) { .text($0.dog.noticePeriod) },
            .field("labels", data: .none, detail: false) { row in
                .object([
                    Field("sex", .text(row.dog.sexLabel)), Field("neutered", .text(row.dog.neuteredLabel)),
                    Field("state", .text(row.dog["processState"])), Field("noticePeriod", .text(row.dog.noticePeriod)),
                ])
            },
            .field(
                "picture", data: .none, optional: true,
                shown: { row in
                    row.picture.map {
                        .text(
                            "\($0.info.format.rawValue) \($0.info.width)x\($0.info.height) \($0.info.bytes)B (\($0.source.rawValue))"
                        )
                    } ?? .null
                }
            ) { row in
                row.picture.map {
                    .object([
                        Field("format", .text($0.info.format.rawValue)), Field("width", .integer($0.info.width)),
                        Field("height", .integer($0.info.height)), Field("bytes", .integer($0.info.bytes)),
                        Field("source", .text($0.source.rawValue)),
                    ])
                } ?? .null
            },
        ],
        listing: ["desertionNo", "kind", "sexCd", "age", "processState", "happenPlace", "careNm", "notice", "picture"])

    /// One of the API's fields, shown as the app shows it.
    static func field(_ name: String, _ label: String) -> EntityField<Row> {
        if name == "desertionNo" {
            let data = EntityField<Row>.Data.value { .text($0.dog.desertionNo) }
            return .field(name, data: data) { .key(.opaque($0.dog.desertionNo)) }
        }
        let shown: (@Sendable (Row) -> FieldValue)? =
            switch name {
            case "sexCd": { .text($0.dog.sexLabel) }
            case "neuterYn": { .text($0.dog.neuteredLabel) }
            // Shown dashed as the list's notice period is (2024-05-01); data keeps the API's 20240501.
            case "happenDt", "noticeSdt", "noticeEdt": { .text(ShelterDog.dashed($0.dog[name])) }
            default: nil
            }
        return .field(name, label: label, shown: shown) { .text($0.dog[name]) }
    }

    /// The shelter's address as a map link (Apple Maps, searched by the address, the shelter
    /// named): people open it from the detail; tools have the address itself.
    static let mapLink: EntityField<Row> = .column("map", detail: true) { row in
        let address = row.dog["careAddr"]
        guard !address.isEmpty else { return .null }
        return .text(
            "https://maps.apple.com/?address=\(PercentEncoding.pathSegment(address))&q=\(PercentEncoding.pathSegment(row.dog["careNm"]))"
        )
    }

    static func record(_ dog: ShelterDog, picture: (info: ImageInfo, source: DogPictureCache.Source)? = nil) -> Record {
        Self.dog.record(Row(dog: dog, picture: picture))
    }
}
