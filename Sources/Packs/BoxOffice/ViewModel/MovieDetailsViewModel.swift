import Foundation

/// The detail screen (reference §2.5): the movie's details and its poster's URL, searched
/// as "<title> 포스터".
package final class MovieDetailsViewModel {
    let movieDetailsItem = Observable<MovieDetailsItem>()
    package let posterURL = Observable<String>()
    package let thrownError = Observable<Error>()
    package let movieTitle: Observable<String>

    init(
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

    static func posterKeyword(_ title: String) -> String { title + " 포스터" }
    /// The button that searches again.
    static let otherPostersTitle = "다른 포스터 찾기"
}

/// The detail screen's labels: names joined with ", ", `2012-09-13`, `131분`, the first
/// audit's grade.
struct MovieDetailsItem: Equatable, Sendable {
    package var info: MovieInfo
    package var directors: String?
    package var productionYear: String?
    package var openDate: String?
    package var runningTime: String?
    package var watchGrade: String?
    package var nations: String?
    package var genres: String?
    package var actors: String?

    package static let labels = ["감독", "제작년도", "개봉일", "상영시간", "관람등급", "제작국가", "장르", "배우"]

    package init(_ info: MovieInfo) {
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
