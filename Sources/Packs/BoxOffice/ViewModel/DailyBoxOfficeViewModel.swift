import ClosetCore
import Foundation

/// The ranking screen (reference §2.5): the current date starts at yesterday (by the
/// session clock, in Korea) and every change of it loads that day's list.
package final class DailyBoxOfficeViewModel {
    package let dailyBoxOfficeItems = Observable<[DailyBoxOfficeCellItem]>()
    package let currentDate = Observable<String>()
    package let collectionViewMode = Observable<CollectionViewMode>(.list)
    package let thrownError = Observable<Error>()
    private let boxOffice: DailyBoxOfficeProvidable

    /// `initialDate` (`yyyy-MM-dd`) starts elsewhere than yesterday, so a shell asked for a
    /// day makes one request, not two.
    init(boxOffice: DailyBoxOfficeProvidable, now: Date, initialDate: String? = nil) {
        self.boxOffice = boxOffice
        currentDate.subscribe { [weak self] date in self?.fetch(date) }
        currentDate.value = initialDate ?? BoxOfficeCalendar.yesterday(now: now)
    }

    package func setCurrentDate(_ date: String) { currentDate.value = date }

    package func changeCollectionViewMode() { collectionViewMode.value = collectionViewMode.value?.toggle() }

    private func fetch(_ date: String) {
        do {
            let daily = try boxOffice.getDaily(targetDate: BoxOfficeCalendar.targetDate(date))
            dailyBoxOfficeItems.value = daily.boxOfficeResult.dailyBoxOfficeList.map(DailyBoxOfficeCellItem.init)
        } catch {
            thrownError.value = error
        }
    }
}

package enum CollectionViewMode: Sendable {
    case list, icon

    package var buttonTitle: String {
        switch self {
        case .list: "리스트"
        case .icon: "아이콘"
        }
    }

    func toggle() -> CollectionViewMode { self == .list ? .icon : .list }
}

/// One ranking row's labels, as the cell shows them.
package struct DailyBoxOfficeCellItem: Hashable, Sendable {
    let movie: DailyBoxOfficeMovie

    init(movie: DailyBoxOfficeMovie) { self.movie = movie }

    package var movieCode: String { movie.movieCode }
    package var movieTitle: String { movie.movieName }
    package var rank: String { movie.rank }
    var rankOldAndNew: RankOldAndNew { movie.rankOldAndNew }

    /// `오늘 353,274 / 총 5,328,435`.
    package var audienceCount: String {
        "오늘 \(Self.grouped(movie.audienceCountOfDate)) / 총 \(Self.grouped(movie.accumulatedAudienceCount))"
    }

    /// `신작` for a new entry; `⏷N` down, `⏶N` up, `-` unchanged.
    package var rankDifference: String {
        if movie.rankOldAndNew == .new { return "신작" }
        let value = movie.rankDifference
        if value.contains("-") { return "⏷" + value.replacingOccurrences(of: "-", with: "") }
        if value == "0" { return "-" }
        return "⏶" + value
    }

    /// Digits grouped by threes with commas (the app's decimal `NumberFormatter`).
    static func grouped(_ number: Int) -> String { DigitGrouping.grouped(number) }

    static package func == (lhs: Self, rhs: Self) -> Bool { lhs.movie == rhs.movie }
    package func hash(into hasher: inout Hasher) { hasher.combine(movie) }
}
