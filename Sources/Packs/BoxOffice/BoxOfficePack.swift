import ClosetCore
import ClosetLanguage

/// BoxOffice_MVVM as a pack: the daily box office from KOBIS, a movie's details, and its
/// posters from the Kakao image search through the app's two-tier expiring cache.
public enum BoxOfficePack {
    public static let pack = Pack(
        name: "boxoffice",
        summary: "the daily box office: rankings and movies from KOBIS, posters from Kakao (박스오피스, 영화, 포스터)",
        vocabularies: [],
        entityKinds: [ranking, movie, poster],
        commands: [
            ListBoxOffice.spec, ShowMovie.spec, SearchPosters.spec, ShowPoster.spec, CacheStatsPosters.spec,
            CacheClearPosters.spec,
        ],
        makeState: { try BoxOfficeState($0) })

    /// A row of a day's ranking, keyed by movie code: `show movie @3` takes row 3.
    public static let ranking = EntityKind(
        singular: "boxoffice", plural: "boxoffice", korean: "박스오피스", indefinite: "a box office row",
        keyStyle: .opaque,
        tableColumns: ["rank", "code", "title", "audience", "change", "opened"],
        dataColumns: [
            "rank", "code", "title", "openDate", "audienceToday", "audienceTotal", "audience", "change", "isNew",
        ],
        namesEntity: "movie")

    public static let movie = EntityKind(
        singular: "movie", plural: "movies", korean: "영화", indefinite: "a movie", keyStyle: .opaque,
        tableColumns: [
            "code", "title", "year", "opened", "runtime", "grade", "directors", "genres", "nations", "actors",
        ],
        dataColumns: [
            "code", "title", "englishTitle", "productionYear", "openDate", "runningTime", "watchGrade", "directors",
            "nations", "genres", "actors",
        ])

    /// A poster the image search found, keyed by its URL.
    public static let poster = EntityKind(
        singular: "poster", plural: "posters", korean: "포스터", indefinite: "a poster", keyStyle: .opaque,
        tableColumns: ["url", "size", "site"], dataColumns: ["url", "width", "height", "site"])

    static let movieParameter = ParameterSpec(
        "ref", .reference(movie, many: false, allowsNone: false, constraint: nil),
        "a movie: its KOBIS code, @N of list boxoffice, or $variable")
}
