import Foundation

/// The detail screen (reference §2.5): the movie's details and its poster's URL, searched
/// as "<title> 포스터".
public final class MovieDetailsViewModel {
    public let movieDetailsItem = Observable<MovieDetailsItem>()
    public let posterURL = Observable<String>()
    public let thrownError = Observable<Error>()
    public let movieTitle: Observable<String>

    public init(
        movieCode: String, movieTitle: String, boxOffice: MovieDetailsProvidable, imageURLSearcher: ImageURLSearchable?
    ) {
        self.movieTitle = Observable(movieTitle)
        if let imageURLSearcher {
            do {
                posterURL.value = try imageURLSearcher.searchSingle(for: Self.posterKeyword(movieTitle))
            } catch {
                thrownError.value = error
            }
        }
        do {
            movieDetailsItem.value = MovieDetailsItem(
                try boxOffice.getMovieDetails(movieCode: movieCode).movieInfoResult.movieInfo)
        } catch {
            thrownError.value = error
        }
    }

    public static func posterKeyword(_ title: String) -> String { title + " 포스터" }
    /// The button that searches again.
    public static let otherPostersTitle = "다른 포스터 찾기"
}

/// The detail screen's labels: names joined with ", ", `2012-09-13`, `131분`, the first
/// audit's grade.
public struct MovieDetailsItem: Equatable, Sendable {
    public var info: MovieInfo
    public var directors: String?
    public var productionYear: String?
    public var openDate: String?
    public var runningTime: String?
    public var watchGrade: String?
    public var nations: String?
    public var genres: String?
    public var actors: String?

    public static let labels = ["감독", "제작년도", "개봉일", "상영시간", "관람등급", "제작국가", "장르", "배우"]

    public init(_ info: MovieInfo) {
        self.info = info
        directors = info.directors.map(\.personName).joined(separator: ", ")
        productionYear = info.productionYear
        openDate = BoxOfficeCalendar.dashed(info.openDate)
        runningTime = info.runningTime + "분"
        watchGrade = info.audits.first?.watchGradeName
        nations = info.nations.map(\.nationName).joined(separator: ", ")
        genres = info.genres.map(\.genreName).joined(separator: ", ")
        actors = info.actors.map(\.personName).joined(separator: ", ")
    }
}
