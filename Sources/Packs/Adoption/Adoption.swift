import ClosetCore
import ClosetLanguage

/// 사랑할개, the dog-adoption community, as a pack. This first part hosts the shelter dogs
/// from the public animal-protection API; the community (stories, comments, likes,
/// donations, profiles) comes next.
public enum Adoption {
    public static let pack = Pack(
        name: "adoption",
        summary: "사랑할개: shelter dogs from the animal-protection API (유기견)",
        vocabularies: [Region.info, AnimalKind.info, ShelterState.info],
        entityKinds: [dog],
        commands: [ListDogs.spec, ShowDog.spec],
        makeState: { try AdoptionState($0) })

    public static let dog = EntityKind(
        singular: "dog", plural: "dogs", korean: "유기견", indefinite: "a dog", keyStyle: .opaque,
        tableColumns: ["desertionNo", "kind", "sex", "age", "state", "found", "shelter", "notice"],
        dataColumns: ShelterDog.fieldNames)

    static let dogParameter = ParameterSpec(
        "ref", .reference(dog, many: false, allowsNone: false, constraint: nil),
        "a dog: its desertion number, @N of list dogs, or $variable")

    static func record(_ dog: ShelterDog) -> Record {
        var fields = ShelterDog.fieldNames.map { Field($0, .text(dog[$0])) }
        fields[0] = Field("desertionNo", .key(.opaque(dog.desertionNo)))
        fields.append(
            Field(
                "labels",
                .object([
                    Field("sex", .text(dog.sexLabel)), Field("neutered", .text(dog.neuteredLabel)),
                    Field("state", .text(dog["processState"])), Field("noticePeriod", .text(dog.noticePeriod)),
                ])))
        return Record(
            fields: fields,
            data: ShelterDog.fieldNames.map { .text(dog[$0]) },
            table: [
                .key(.opaque(dog.desertionNo)), .text(dog["kindNm"].isEmpty ? dog["kindFullNm"] : dog["kindNm"]),
                .text(dog.sexLabel), .text(dog["age"]), .text(dog["processState"]), .text(dog["happenPlace"]),
                .text(dog["careNm"]), .text(dog.noticePeriod),
            ])
    }
}
