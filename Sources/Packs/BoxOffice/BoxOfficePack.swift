import ClosetCore
import ClosetLanguage
import ClosetServing

/// BoxOffice_MVVM as a pack: the daily box office from KOBIS, a movie's details, and its
/// posters from the Kakao image search through the app's two-tier expiring cache.
public enum BoxOfficePack {
    public static let pack = Pack(
        name: "boxoffice",
        summary: "the daily box office: rankings and movies from KOBIS, posters from Kakao (박스오피스, 영화, 포스터)",
        vocabularies: [],
        entityKinds: [ranking, movie, poster],
        commands: [
            ListBoxOffice.spec, Counts.ranking, ShowMovie.spec, SearchPosters.spec, Counts.posters, ShowPoster.spec,
            CacheStatsPosters.spec, CacheClearPosters.spec,
        ],
        makeState: { try BoxOfficeState($0) })

    /// The app's APIs `closet serve` answers from the store (or from recordings).
    public static let served: [ServedAPI] = [KobisService.api, KakaoImageSearchService.api]

    /// A row of a day's ranking, keyed by movie code: `show movie @3` takes row 3.
    package static let ranking = BoxOfficeRecords.rankingKind
    package static let movie = BoxOfficeRecords.movieKind
    /// A poster the image search found, keyed by its URL.
    package static let poster = BoxOfficeRecords.posterKind

    static let movieParameter = ParameterSpec(
        "ref", .reference(movie, many: false, allowsNone: false, constraint: nil),
        "a movie: its KOBIS code, @N of list boxoffice, or $variable")
}
