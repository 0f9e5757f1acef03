import ClosetCore
import ClosetLanguage
import Foundation

/// How rankings, movies and posters look in every output format.
enum BoxOfficeRecords {
    /// A row of a day's ranking, keyed by movie code: `show movie @3` takes row 3.
    static let rankingKind: EntityKind = EntityKind(
        singular: "boxoffice", plural: "boxoffice", korean: "박스오피스", indefinite: "a box office row",
        keyStyle: .opaque, namesEntities: ["movie", "poster"], columns: { ranking.columns })
    static let ranking = EntitySchema<DailyBoxOfficeCellItem>(
        kind: rankingKind,
        fields: [
            .field("rank") { .integer(Int($0.movie.rank) ?? 0) },
            .field("code") { .key(.opaque($0.movie.movieCode)) },
            .field("title") { .text($0.movie.movieName) },
            .field("openDate", label: "opened", korean: "개봉일") { .text($0.movie.openDate) },
            .field("audienceToday") { .integer($0.movie.audienceCountOfDate) },
            .field("audienceTotal") { .integer($0.movie.accumulatedAudienceCount) },
            .field("audience") { .text($0.audienceCount) },
            // The app's colours: 신작 and ⏶ red, ⏷ blue (at a terminal in colour).
            .field("change", shown: { changeShown($0.rankDifference) }) { .text($0.rankDifference) },
            .field("isNew") { .bool($0.movie.rankOldAndNew == .new) },
        ],
        // As the app's ranking cell: the title, today's and the total audience, the change. No
        // rank column (`#` is the rank) and no code (`show movie @3` takes the row): the
        // ranking fits an 80-column terminal with every title whole.
        listing: ["title", "audience", "change"])

    /// A movie's code also names its poster (`show poster $movie`).
    static let movieKind: EntityKind = EntityKind(
        singular: "movie", plural: "movies", korean: "영화", indefinite: "a movie", keyStyle: .opaque,
        namesEntities: ["poster"], columns: { movie.columns })
    static let movie = EntitySchema<MovieDetailsItem>(
        kind: movieKind,
        fields: [
            .field("code") { .key(.opaque($0.info.movieCode)) },
            .field("title") { .text($0.info.movieName) },
            .field("englishTitle") { .text($0.info.movieEnglishName) },
            .field("productionYear", label: "year", korean: "제작년도") { .text($0.info.productionYear) },
            .field("openDate", label: "opened", korean: "개봉일") { .text($0.openDate ?? "") },
            .field("runningTime", label: "runtime", korean: "상영시간") { .text($0.runningTime ?? "") },
            .field("watchGrade", label: "grade", korean: "관람등급") { $0.watchGrade.map(FieldValue.text) ?? .null },
            .field(
                "directors", korean: "감독", data: .value { .text($0.directors ?? "") },
                shown: { .text($0.directors ?? "") }
            ) {
                names($0.info.directors.map(\.personName))
            },
            .field(
                "nations", korean: "제작국가", data: .value { .text($0.nations ?? "") }, shown: { .text($0.nations ?? "") }
            ) {
                names($0.info.nations.map(\.nationName))
            },
            .field("genres", korean: "장르", data: .value { .text($0.genres ?? "") }, shown: { .text($0.genres ?? "") }) {
                names($0.info.genres.map(\.genreName))
            },
            .field("actors", korean: "배우", data: .value { .text($0.actors ?? "") }, shown: { .text($0.actors ?? "") }) {
                names($0.info.actors.map(\.personName))
            },
        ],
        listing: [
            "code", "title", "productionYear", "openDate", "runningTime", "watchGrade", "directors", "genres",
            "nations",
            "actors",
        ])

    /// A poster the image search found, keyed by its URL.
    static let posterKind: EntityKind = EntityKind(
        singular: "poster", plural: "posters", korean: "포스터", indefinite: "a poster", keyStyle: .opaque,
        columns: { poster.columns })
    static let poster = EntitySchema<DaumImageSearchResult.Document>(
        kind: posterKind,
        fields: [
            .field("url") { .key(.opaque($0.imageURL)) },
            .column("size", detail: true) { .text("\($0.width)x\($0.height)") },
            .field("width") { .integer($0.width) },
            .field("height") { .integer($0.height) },
            .field("site") { .text($0.displaySitename) },
        ],
        listing: ["url", "size", "site"])

    static func changeShown(_ change: String) -> FieldValue {
        if change == "신작" || change.hasPrefix("⏶") { return .marked(change, .red) }
        if change.hasPrefix("⏷") { return .marked(change, .blue) }
        return .text(change)
    }

    private static func names(_ list: [String]) -> FieldValue { .list(list.map { .text($0) }) }

    static func record(_ item: DailyBoxOfficeCellItem) -> Record { ranking.record(item) }

    static func record(_ item: MovieDetailsItem) -> Record { movie.record(item) }

    static func record(_ document: DaumImageSearchResult.Document) -> Record { poster.record(document) }

    /// One tier's figures for `cache stats posters`.
    static func tier(
        count: Int, bytes: Int, countLimit: Int, expiry: CacheExpiration, counters: CacheCounters
    ) -> CacheFigures {
        CacheFigures(
            count: count, bytes: bytes, countLimit: countLimit, byteLimit: nil, hits: counters.hits,
            misses: counters.misses, evictions: counters.evictions,
            extra: [("expirySeconds", Int(expiry.seconds)), ("expired", counters.expired)])
    }
}
