import ClosetCore
import ClosetLanguage
import Foundation

/// `list dogs [region=] [kind=] [state=] [from=] [to=] [district=] [shelter=] [breed=] [page=]`:
/// shelter animals, 10 a page, the filters mapped to the API's `upr_cd`, `upkind`, `state`,
/// `bgnde`, `endde`, `org_cd`, `care_reg_no`, `kind`; `next` continues.
enum ListDogs {
    /// The API's filters, shared with `count dogs`.
    static let filterKeys = [
        KeySpec("region", .vocabulary(Region.info, many: false), "the 시도 where they were found (서울, 경기, ...)"),
        KeySpec("kind", .vocabulary(AnimalKind.info, many: false), "dog (개), cat (고양이) or other (기타)"),
        KeySpec("state", .vocabulary(ShelterState.info, many: false), "notice (공고중) or protect (보호중)"),
        KeySpec("from", .date, "found on or after this day"),
        KeySpec("to", .date, "found on or before this day"),
        KeySpec(
            "district", .name(PickerLists.districtNames), "the 시군구 of region= (강남구), or its org_cd",
            korean: "시군구"),
        KeySpec(
            "shelter", .name(PickerLists.shelterNames),
            "the shelter: its number (care_reg_no), or its name with region= and district=", korean: "보호소"),
        KeySpec(
            "breed", .name(PickerLists.breedNames), "the breed (진도견) of kind= (default dog), or its code",
            korean: "품종"),
    ]

    /// The query the filters ask for (page 1); a 시군구, shelter or breed given by name is
    /// looked up in the API's list (once a session).
    static func query(_ invocation: Invocation, _ state: AdoptionState) throws -> AnimalAPI.Query {
        var query = AnimalAPI.Query()
        query.region = invocation.value(Region.self, "region")
        query.kind = invocation.value(AnimalKind.self, "kind")
        query.state = invocation.value(ShelterState.self, "state")
        query.from = invocation.date("from").map(day)
        query.to = invocation.date("to").map(day)
        if let from = query.from, let to = query.to, from > to {
            throw Diagnostic.datesOutOfOrder(at: invocation.argument("to")?.range)
        }
        query.district = try district(invocation, state, region: query.region)
        if let text = invocation.text("shelter") {
            let range = invocation.argument("shelter")?.range
            query.shelter = try PickerLists.code(
                text,
                in: {
                    guard let region = query.region, let district = query.district else {
                        throw Diagnostic.filterNeeds("shelter", "region= and district=", at: range)
                    }
                    return try state.shelters(region, district: district)
                }, what: "shelter", within: invocation.text("district") ?? "", at: range)
        }
        if let text = invocation.text("breed") {
            let kind = query.kind ?? .dog
            query.breed = try PickerLists.code(
                text, in: { try state.breeds(kind) }, what: "breed",
                within: "the \(kind.englishName) breeds (\(kind.korean))",
                at: invocation.argument("breed")?.range)
        }
        return query
    }

    /// `district=`'s code: needs `region=` when it is a name.
    static func district(_ invocation: Invocation, _ state: AdoptionState, region: Region?) throws -> String? {
        guard let text = invocation.text("district") else { return nil }
        let range = invocation.argument("district")?.range
        return try PickerLists.code(
            text,
            in: {
                guard let region else { throw Diagnostic.filterNeeds("district", "region=", at: range) }
                return try state.districts(region)
            }, what: "시군구", within: region?.korean ?? "", at: range)
    }

    static let spec = CommandSpec(
        path: ["list", "dogs"],
        summary: "list shelter animals from the animal-protection API, 10 a page (next continues)",
        keys: filterKeys + [KeySpec("page", .count, "start at this page (default 1)")],
        examples: [
            "list dogs", "list dogs region=서울 kind=dog state=protect", "list 유기견 from=2024-05-01 to=2024-05-31",
            "list dogs limit=3",
        ],
        pages: true,
        run: { invocation in
            let state = try invocation.state(AdoptionState.self)
            var query = try query(invocation, state)
            query.page = invocation.count("page") ?? 1
            guard query.page >= 1 else { throw Diagnostic.dogsPageFromOne(at: invocation.argument("page")?.range) }
            let page = try state.fetch(query)
            state.query = query
            state.listed = 0
            return outcome(state, page)
        })

    /// `20240501`.
    static func day(_ date: Date) -> String {
        String(Timestamp.format(date).prefix(10)).replacingOccurrences(of: "-", with: "")
    }

    static func next(_ invocation: Invocation) throws -> Outcome {
        let state = try invocation.state(AdoptionState.self)
        var query = state.query
        query.page += 1
        let page = try state.fetch(query)
        guard !page.dogs.isEmpty else { throw Diagnostic.noMore(Adoption.dog, at: invocation.call.range) }
        state.query = query
        return outcome(state, page)
    }

    static func outcome(_ state: AdoptionState, _ page: AnimalAPI.Page) -> Outcome {
        let dogs = page.dogs
        let firstRow = state.listed + 1
        state.listed += dogs.count
        var continuation: (@Sendable (Invocation) throws -> Outcome)?
        if page.pageNo * AnimalAPI.pageSize < page.totalCount, !dogs.isEmpty {
            continuation = { @Sendable invocation in try ListDogs.next(invocation) }
        }
        return .listing(
            Adoption.dog, dogs.map { .opaque($0.desertionNo) }, page: Page(firstRow: firstRow, next: continuation)
        ) { dogs.map { DogRecords.record($0) } }
        // The list's photo of each animal, fetched through the dog-picture cache only when shown.
        .showing(
            Pictures(
                .thumbnails,
                dogs.map { dog in
                    { @Sendable (session: Session) -> Picture in
                        guard let state = session.state(AdoptionState.self) else {
                            return Picture(.unavailable("the adoption pack is not running"))
                        }
                        return ShowDog.picture(of: dog, state)
                    }
                }))
    }
}
