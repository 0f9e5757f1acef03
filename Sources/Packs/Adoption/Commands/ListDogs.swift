import ClosetCore
import ClosetLanguage
import Foundation

/// `list dogs [region=] [kind=] [state=] [from=] [to=] [page=]`: shelter animals, 10 a page,
/// the filters mapped to the API's `upr_cd`, `upkind`, `state`, `bgnde`, `endde`; `next`
/// continues.
enum ListDogs {
    /// The API's filters, shared with `count dogs`.
    static let filterKeys = [
        KeySpec("region", .vocabulary(Region.info, many: false), "the 시도 where they were found (서울, 경기, ...)"),
        KeySpec("kind", .vocabulary(AnimalKind.info, many: false), "dog (개), cat (고양이) or other (기타)"),
        KeySpec("state", .vocabulary(ShelterState.info, many: false), "notice (공고중) or protect (보호중)"),
        KeySpec("from", .date, "found on or after this day"),
        KeySpec("to", .date, "found on or before this day"),
    ]

    /// The query the filters ask for (page 1).
    static func query(_ invocation: Invocation) throws(Diagnostic) -> AnimalAPI.Query {
        var query = AnimalAPI.Query()
        query.region = invocation.value(Region.self, "region")
        query.kind = invocation.value(AnimalKind.self, "kind")
        query.state = invocation.value(ShelterState.self, "state")
        query.from = invocation.date("from").map(day)
        query.to = invocation.date("to").map(day)
        if let from = query.from, let to = query.to, from > to {
            throw Diagnostic.datesOutOfOrder(at: invocation.argument("to")?.range)
        }
        return query
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
            var query = try query(invocation)
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
