import ClosetCore
import ClosetLanguage

/// `list districts region=`, `list shelters region= district=`, `list breeds [kind=]` (and their
/// counts): the lists the app's search filters are picked from, as the API gives them (each
/// fetched once a session). What they list is what `list dogs district=`, `shelter=` and
/// `breed=` take, and what Tab offers there.
enum ListPickers {
    static let districts = CommandSpec(
        path: ["list", "districts"],
        summary: "list a 시도's 시군구 from the animal-protection API (what list dogs district= takes)",
        keys: [KeySpec("region", .vocabulary(Region.info, many: false), "the 시도 (서울, 경기, ...)", required: true)],
        examples: ["list districts region=서울", "list 시군구 region=경기"],
        lists: true,
        run: { invocation in
            let items = try districtItems(invocation, try invocation.state(AdoptionState.self))
            return listing(Adoption.district, PickerRecords.district, items)
        })

    static let shelters = CommandSpec(
        path: ["list", "shelters"],
        summary: "list a 시군구's shelters from the animal-protection API (what list dogs shelter= takes)",
        keys: [
            KeySpec("region", .vocabulary(Region.info, many: false), "the 시도 (서울, 경기, ...)", required: true),
            KeySpec(
                "district", .name(PickerLists.districtNames), "the 시군구 (강남구), or its org_cd", required: true),
        ],
        examples: ["list shelters region=서울 district=강남구"],
        lists: true,
        run: { invocation in
            let items = try shelterItems(invocation, try invocation.state(AdoptionState.self))
            return listing(Adoption.shelter, PickerRecords.shelter, items)
        })

    static let breeds = CommandSpec(
        path: ["list", "breeds"],
        summary: "list a species' breeds from the animal-protection API (what list dogs breed= takes)",
        keys: [KeySpec("kind", .vocabulary(AnimalKind.info, many: false), "dog (the default), cat or other")],
        examples: ["list breeds", "list 품종 kind=cat"],
        lists: true,
        run: { invocation in
            let items = try breedItems(invocation, try invocation.state(AdoptionState.self))
            return listing(Adoption.breed, PickerRecords.breed, items)
        })

    /// `count districts|shelters|breeds`: how many the list has (the same keys, the same
    /// fetch-once list).
    static let counts = [
        count(districts, "districts", "count a 시도's 시군구", "count districts region=서울", districtItems),
        count(shelters, "shelters", "count a 시군구's shelters", "count shelters region=서울 district=강남구", shelterItems),
        count(breeds, "breeds", "count a species' breeds", "count breeds kind=cat", breedItems),
    ]

    private static func count(
        _ list: CommandSpec, _ object: String, _ summary: String, _ example: String,
        _ items: @escaping @Sendable (Invocation, AdoptionState) throws -> [PickerItem]
    ) -> CommandSpec {
        CommandSpec(
            path: ["count", object], summary: summary, keys: list.keys.filter { $0.name != "limit" },
            examples: [example],
            run: { invocation in .count(try items(invocation, try invocation.state(AdoptionState.self)).count) })
    }

    static func districtItems(_ invocation: Invocation, _ state: AdoptionState) throws -> [PickerItem] {
        guard let region = invocation.value(Region.self, "region") else { return [] }
        return try state.districts(region)
    }

    static func shelterItems(_ invocation: Invocation, _ state: AdoptionState) throws -> [PickerItem] {
        guard let region = invocation.value(Region.self, "region"),
            let district = try ListDogs.district(invocation, state, region: region)
        else { return [] }
        return try state.shelters(region, district: district)
    }

    static func breedItems(_ invocation: Invocation, _ state: AdoptionState) throws -> [PickerItem] {
        try state.breeds(invocation.value(AnimalKind.self, "kind") ?? .dog)
    }

    private static func listing(_ kind: EntityKind, _ schema: EntitySchema<PickerItem>, _ items: [PickerItem])
        -> Outcome
    {
        .listing(kind, items.map { .opaque($0.code) }) { items.map { schema.record($0) } }
    }
}
