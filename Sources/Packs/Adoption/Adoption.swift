import ClosetCore
import ClosetLanguage

/// 사랑할개, the dog-adoption community, as a pack. This first part hosts the shelter dogs
/// from the public animal-protection API; the community (stories, comments, likes,
/// donations, profiles) comes next.
public enum Adoption {
    public static let pack = Pack(
        name: "adoption",
        summary: "사랑할개: shelter dogs, adoption stories, comments, likes and donations (유기견, 스토리)",
        vocabularies: [Region.info, AnimalKind.info, ShelterState.info],
        entityKinds: [dog, story, comment, donation],
        tables: [
            AnyTableSchema(StoryTable.schema), AnyTableSchema(CommentTable.schema), AnyTableSchema(LikeTable.schema),
            AnyTableSchema(DonationTable.schema), AnyTableSchema(CommunitySequenceTable.schema),
        ],
        commands: [
            ListDogs.spec, ShowDog.spec, Stories.add, Stories.list, Stories.show, Stories.like, Stories.unlike,
            Stories.remove, Comments.add, Comments.list, Comments.remove, Comments.donate, Comments.listDonations,
            Comments.profile, CacheDogs.stats, CacheDogs.limit, CacheDogs.clear,
        ],
        makeState: { try AdoptionState($0) })

    public static let dog = EntityKind(
        singular: "dog", plural: "dogs", korean: "유기견", indefinite: "a dog", keyStyle: .opaque,
        tableColumns: ["desertionNo", "kind", "sex", "age", "state", "found", "shelter", "notice", "picture"],
        dataColumns: ShelterDog.fieldNames, optionalTableColumns: ["picture"])

    public static let story = EntityKind(
        singular: "story", plural: "stories", korean: "스토리", indefinite: "a story", keyStyle: .opaque,
        tableColumns: ["id", "title", "author", "likes", "comments", "dog", "created"],
        dataColumns: ["id", "title", "content", "author", "dog", "images", "likes", "liked", "comments", "createdAt"])

    public static let comment = EntityKind(
        singular: "comment", plural: "comments", korean: "댓글", indefinite: "a comment", keyStyle: .opaque,
        tableColumns: ["id", "story", "author", "text", "created"],
        dataColumns: ["id", "story", "author", "text", "createdAt"])

    public static let donation = EntityKind(
        singular: "donation", plural: "donations", korean: "후원", indefinite: "a donation", keyStyle: .opaque,
        tableColumns: ["receipt", "user", "amount", "dog", "message", "status", "created"],
        dataColumns: ["receipt", "user", "amount", "dog", "message", "status", "createdAt"])

    static let storyParameter = ParameterSpec(
        "ref", .reference(story, many: false, allowsNone: false, constraint: nil), "a story: its id, @N or $variable")
    static let commentParameter = ParameterSpec(
        "ref", .reference(comment, many: false, allowsNone: false, constraint: nil), "a comment: its id or @N")

    static let dogParameter = ParameterSpec(
        "ref", .reference(dog, many: false, allowsNone: false, constraint: nil),
        "a dog: its desertion number, @N of list dogs, or $variable")

    static func record(_ dog: ShelterDog, picture: (info: ImageInfo, source: DogPictureCache.Source)? = nil) -> Record {
        var fields = ShelterDog.fieldNames.map { Field($0, .text(dog[$0])) }
        fields[0] = Field("desertionNo", .key(.opaque(dog.desertionNo)))
        fields.append(
            Field(
                "labels",
                .object([
                    Field("sex", .text(dog.sexLabel)), Field("neutered", .text(dog.neuteredLabel)),
                    Field("state", .text(dog["processState"])), Field("noticePeriod", .text(dog.noticePeriod)),
                ])))
        if let picture {
            fields.append(
                Field(
                    "picture",
                    .object([
                        Field("format", .text(picture.info.format.rawValue)),
                        Field("width", .integer(picture.info.width)),
                        Field("height", .integer(picture.info.height)), Field("bytes", .integer(picture.info.bytes)),
                        Field("source", .text(picture.source.rawValue)),
                    ])))
        }
        return Record(
            fields: fields,
            data: ShelterDog.fieldNames.map { .text(dog[$0]) },
            table: [
                .key(.opaque(dog.desertionNo)), .text(dog["kindNm"].isEmpty ? dog["kindFullNm"] : dog["kindNm"]),
                .text(dog.sexLabel), .text(dog["age"]), .text(dog["processState"]), .text(dog["happenPlace"]),
                .text(dog["careNm"]), .text(dog.noticePeriod),
                picture.map {
                    .text(
                        "\($0.info.format.rawValue) \($0.info.width)x\($0.info.height) \($0.info.bytes)B (\($0.source.rawValue))"
                    )
                } ?? .null,
            ])
    }
}
