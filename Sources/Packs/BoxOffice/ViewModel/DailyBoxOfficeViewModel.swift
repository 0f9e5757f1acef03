import ClosetCore
import Foundation

/// The ranking screen (reference §2.5): the current date starts at yesterday (by the
/// session clock, in Korea) and every change of it loads that day's list.
public final class DailyBoxOfficeViewModel {
    public let dailyBoxOfficeItems = Observable<[DailyBoxOfficeCellItem]>()
    public let currentDate = Observable<String>()
    public let collectionViewMode = Observable<CollectionViewMode>(.list)
    public let thrownError = Observable<Error>()
    private let boxOffice: DailyBoxOfficeProvidable

    /// `initialDate` (`yyyy-MM-dd`) starts elsewhere than yesterday, so a shell asked for a
    /// day makes one request, not two.
    public init(boxOffice: DailyBoxOfficeProvidable, now: Date, initialDate: String? = nil) {
        self.boxOffice = boxOffice
        currentDate.subscribe { [weak self] date in self?.fetch(date) }
        currentDate.value = initialDate ?? BoxOfficeCalendar.yesterday(now: now)
    }

    public func setCurrentDate(_ date: String) { currentDate.value = date }

    public func changeCollectionViewMode() { collectionViewMode.value = collectionViewMode.value?.toggle() }

    private func fetch(_ date: String) {
        do {
            let daily = try boxOffice.getDaily(targetDate: BoxOfficeCalendar.targetDate(date))
            dailyBoxOfficeItems.value = daily.boxOfficeResult.dailyBoxOfficeList.map(DailyBoxOfficeCellItem.init)
        } catch {
            thrownError.value = error
        }
    }
}

public enum CollectionViewMode: Sendable {
    case list, icon

    public var buttonTitle: String {
        switch self {
        case .list: "리스트"
        case .icon: "아이콘"
        }
    }

    public func toggle() -> CollectionViewMode { self == .list ? .icon : .list }
}

/// One ranking row's labels, as the cell shows them.
public struct DailyBoxOfficeCellItem: Hashable, Sendable {
    public let movie: DailyBoxOfficeMovie

    public init(movie: DailyBoxOfficeMovie) { self.movie = movie }

    public var movieCode: String { movie.movieCode }
    public var movieTitle: String { movie.movieName }
    public var rank: String { movie.rank }
    public var rankOldAndNew: RankOldAndNew { movie.rankOldAndNew }

    /// `오늘 353,274 / 총 5,328,435`.
    public var audienceCount: String {
        "오늘 \(Self.grouped(movie.audienceCountOfDate)) / 총 \(Self.grouped(movie.accumulatedAudienceCount))"
    }

    /// `신작` for a new entry; `⏷N` down, `⏶N` up, `-` unchanged.
    public var rankDifference: String {
        if movie.rankOldAndNew == .new { return "신작" }
        let value = movie.rankDifference
        if value.contains("-") { return "⏷" + value.replacingOccurrences(of: "-", with: "") }
        if value == "0" { return "-" }
        return "⏶" + value
    }

    /// Digits grouped by threes with commas (the app's decimal `NumberFormatter`).
    static func grouped(_ number: Int) -> String { DigitGrouping.grouped(number) }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.movie == rhs.movie }
    public func hash(into hasher: inout Hasher) { hasher.combine(movie) }
}
