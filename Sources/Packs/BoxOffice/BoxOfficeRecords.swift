import ClosetCore
import Foundation

/// How rankings, movies and posters look in every output format.
enum BoxOfficeRecords {
    static func record(_ item: DailyBoxOfficeCellItem) -> Record {
        let movie = item.movie
        let rank = Int(movie.rank) ?? 0
        let isNew = movie.rankOldAndNew == .new
        return Record(
            fields: [
                Field("rank", .integer(rank)), Field("code", .key(.opaque(movie.movieCode))),
                Field("title", .text(movie.movieName)), Field("openDate", .text(movie.openDate)),
                Field("audienceToday", .integer(movie.audienceCountOfDate)),
                Field("audienceTotal", .integer(movie.accumulatedAudienceCount)),
                Field("audience", .text(item.audienceCount)), Field("change", .text(item.rankDifference)),
                Field("isNew", .bool(isNew)),
            ],
            data: [
                .integer(rank), .key(.opaque(movie.movieCode)), .text(movie.movieName), .text(movie.openDate),
                .integer(movie.audienceCountOfDate), .integer(movie.accumulatedAudienceCount),
                .text(item.audienceCount), .text(item.rankDifference), .bool(isNew),
            ],
            table: [
                .integer(rank), .key(.opaque(movie.movieCode)), .text(movie.movieName), .text(item.audienceCount),
                .text(item.rankDifference), .text(movie.openDate),
            ])
    }

    static func record(_ item: MovieDetailsItem) -> Record {
        let info = item.info
        let names = { (list: [String]) in FieldValue.list(list.map { .text($0) }) }
        let directors = info.directors.map(\.personName)
        let nations = info.nations.map(\.nationName)
        let genres = info.genres.map(\.genreName)
        let actors = info.actors.map(\.personName)
        let grade = item.watchGrade.map(FieldValue.text) ?? .null
        return Record(
            fields: [
                Field("code", .key(.opaque(info.movieCode))), Field("title", .text(info.movieName)),
                Field("englishTitle", .text(info.movieEnglishName)),
                Field("productionYear", .text(info.productionYear)),
                Field("openDate", .text(item.openDate ?? "")), Field("runningTime", .text(item.runningTime ?? "")),
                Field("watchGrade", grade), Field("directors", names(directors)), Field("nations", names(nations)),
                Field("genres", names(genres)), Field("actors", names(actors)),
            ],
            data: [
                .key(.opaque(info.movieCode)), .text(info.movieName), .text(info.movieEnglishName),
                .text(info.productionYear), .text(item.openDate ?? ""), .text(item.runningTime ?? ""), grade,
                .text(item.directors ?? ""), .text(item.nations ?? ""), .text(item.genres ?? ""),
                .text(item.actors ?? ""),
            ],
            table: [
                .key(.opaque(info.movieCode)), .text(info.movieName), .text(info.productionYear),
                .text(item.openDate ?? ""), .text(item.runningTime ?? ""), grade, .text(item.directors ?? ""),
                .text(item.genres ?? ""), .text(item.nations ?? ""), .text(item.actors ?? ""),
            ])
    }

    static func record(_ document: DaumImageSearchResult.Document) -> Record {
        Record(
            fields: [
                Field("url", .key(.opaque(document.imageURL))), Field("width", .integer(document.width)),
                Field("height", .integer(document.height)), Field("site", .text(document.displaySitename)),
            ],
            data: [
                .key(.opaque(document.imageURL)), .integer(document.width), .integer(document.height),
                .text(document.displaySitename),
            ],
            table: [
                .key(.opaque(document.imageURL)), .text("\(document.width)x\(document.height)"),
                .text(document.displaySitename),
            ])
    }

    /// One tier's figures for `cache stats posters`.
    static func tier(
        entries: Int, bytes: Int, countLimit: Int, expiry: CacheExpiration, counters: CacheCounters
    ) -> FieldValue {
        .object([
            Field("entries", .integer(entries)), Field("bytes", .integer(bytes)),
            Field("countLimit", .integer(countLimit)), Field("expirySeconds", .integer(Int(expiry.seconds))),
            Field("hits", .integer(counters.hits)), Field("misses", .integer(counters.misses)),
            Field("evictions", .integer(counters.evictions)), Field("expired", .integer(counters.expired)),
        ])
    }
}
