import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import BoxOfficePack

/// The KOBIS fixture's answers, decoded as the app's DTOs (reference §2.6 `*APITest`).
enum Fixtures {
    static func body(_ path: String, _ query: [String: String]) -> Data {
        let handler = BoxOfficeFixture.handler(imageBase: "https://img")
        let target =
            path + "?"
            + query.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        guard
            case .respond(_, _, let body) = handler(
                LoopbackServer.Request(
                    method: "GET", target: target, headers: [("Authorization", "KakaoAK \(BoxOfficeFixture.kakaoKey)")],
                    body: Data()), "")
        else { return Data() }
        return body
    }

    static var newYear: DailyBoxOffice {
        try! JSONDecoder().decode(
            DailyBoxOffice.self,
            from: body(
                "/kobis/boxoffice/searchDailyBoxOfficeList.json",
                ["key": BoxOfficeFixture.kobisKey, "targetDt": "20120101"]))
    }

    static var masquerade: MovieDetails {
        try! JSONDecoder().decode(
            MovieDetails.self,
            from: body("/kobis/movie/searchMovieInfo.json", ["key": BoxOfficeFixture.kobisKey, "movieCd": "20124079"]))
    }
}

@Suite struct DecodingTests {
    @Test func dailyBoxOffice() {
        let result = Fixtures.newYear.boxOfficeResult
        #expect(result.boxOfficeType == "일별 박스오피스" && result.showRange == "20120101~20120101")
        #expect(result.dailyBoxOfficeList.count == 10)
        let first = result.dailyBoxOfficeList[0]
        #expect(first.movieName == "미션임파서블:고스트프로토콜" && first.movieCode == "20112207")
        #expect(first.rankDifference == "0" && first.rankOldAndNew == .old)
        #expect(first.audienceCountOfDate == 353_274 && first.accumulatedAudienceCount == 5_328_435)
        #expect(result.dailyBoxOfficeList[1].movieName == "마이 웨이" && result.dailyBoxOfficeList[1].rankDifference == "1")
        #expect(result.dailyBoxOfficeList[2].rankDifference == "-1")
    }

    @Test func aNonNumericAudienceCountIsADecodingError() {
        let body = Fixtures.body(
            "/kobis/boxoffice/searchDailyBoxOfficeList.json",
            ["key": BoxOfficeFixture.kobisKey, "targetDt": "20120102"])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(DailyBoxOffice.self, from: body) }
    }

    @Test func movieDetails() {
        let info = Fixtures.masquerade.movieInfoResult.movieInfo
        #expect(info.movieName == "광해, 왕이 된 남자" && info.runningTime == "131" && info.productionYear == "2012")
        #expect(info.openDate == "20120913" && info.directors.first?.personName == "추창민")
        #expect(info.audits.first?.watchGradeName == "15세이상관람가" && info.nations.first?.nationName == "한국")
        #expect(info.genres.map(\.genreName) == ["사극", "드라마"] && info.actors.first?.personName == "이병헌")
    }

    @Test func daumImageSearch() throws {
        let body = Fixtures.body("/kakao/v2/search/image", ["query": "광해, 왕이 된 남자 포스터"])
        let result = try JSONDecoder().decode(DaumImageSearchResult.self, from: body)
        #expect(result.documents.count == 4 && result.metadata.totalCount == 4)
        #expect(result.documents[0].imageURL == "https://img/masquerade-0.jpg")
    }
}

/// Reference §2.6 `ObservableTest`.
@Suite struct ObservableTests {
    @Test func subscribeAndEmitValues() {
        let observable = Observable<Int>()
        var received: [Int] = []
        observable.subscribe { received.append($0) }
        for value in [1, 2, 3] { observable.value = value }
        #expect(received == [1, 2, 3])
    }

    @Test func emitValueWhenSubscribed() {
        let observable = Observable(3)
        var received: [Int] = []
        observable.subscribe { received.append($0) }
        #expect(received == [3])
    }

    @Test func multipleSubscribe() {
        let observable = Observable<Int>()
        var received: [String] = []
        for listener in 0..<3 { observable.subscribe { received.append("\(listener):\($0)") } }
        observable.value = 1
        observable.value = nil
        observable.value = 2
        #expect(received == ["0:1", "1:1", "2:1", "0:2", "1:2", "2:2"])
    }
}

final class MockBoxOffice: BoxOfficeType {
    var dailyCalls = 0
    var fails = false
    var requestedDates: [String] = []
    func getDaily(targetDate: String) throws -> DailyBoxOffice {
        requestedDates.append(targetDate)
        if fails { throw NetworkError.failed(url: "u", reason: "unknown") }
        dailyCalls += 1
        return Fixtures.newYear
    }
    func getMovieDetails(movieCode: String) throws -> MovieDetails {
        if fails { throw NetworkError.failed(url: "u", reason: "unknown") }
        return Fixtures.masquerade
    }
}

final class MockSearcher: ImageURLSearchable {
    var fails = false
    func searchSingle(for keyword: String) throws -> String {
        if fails { throw ImageURLSearchError.urlNotFound(keyword: keyword) }
        return "https://img/\(keyword)"
    }
    func search(for keyword: String) throws -> [DaumImageSearchResult.Document] { [] }
}

/// Reference §2.6 `DailyBoxOfficeViewModelTest`, `MovieDetailsViewModelTest`, `CalendarViewModelTest`.
@Suite struct ViewModelTests {
    // 2012-01-02T00:00Z is 09:00 in Korea: yesterday there is 2012-01-01.
    let now = Date(timeIntervalSince1970: 1_325_462_400)

    @Test func initialValueOfCurrentDateIsYesterday() {
        let viewModel = DailyBoxOfficeViewModel(boxOffice: MockBoxOffice(), now: now)
        #expect(viewModel.currentDate.value == "2012-01-01")
        // 2012-01-01T20:00Z is already 2012-01-02 in Korea.
        #expect(BoxOfficeCalendar.yesterday(now: Date(timeIntervalSince1970: 1_325_448_000)) == "2012-01-01")
    }

    @Test func fetchDailyBoxOfficeCalledAfterInitialized() {
        let mock = MockBoxOffice()
        let viewModel = DailyBoxOfficeViewModel(boxOffice: mock, now: now)
        #expect(mock.dailyCalls == 1 && mock.requestedDates == ["20120101"])
        #expect(viewModel.dailyBoxOfficeItems.value?.count == 10)
        #expect(viewModel.dailyBoxOfficeItems.value?.first?.movieTitle == "미션임파서블:고스트프로토콜")
    }

    @Test func setCurrentDate() {
        let mock = MockBoxOffice()
        let viewModel = DailyBoxOfficeViewModel(boxOffice: mock, now: now)
        viewModel.setCurrentDate("2011-12-25")
        #expect(mock.dailyCalls == 2 && mock.requestedDates.last == "20111225")
    }

    @Test func fetchDailyBoxOfficeFailure() {
        let mock = MockBoxOffice()
        mock.fails = true
        let viewModel = DailyBoxOfficeViewModel(boxOffice: mock, now: now)
        #expect(viewModel.thrownError.value as? NetworkError == .failed(url: "u", reason: "unknown"))
        #expect(mock.dailyCalls == 0)
    }

    @Test func collectionViewMode() {
        let viewModel = DailyBoxOfficeViewModel(boxOffice: MockBoxOffice(), now: now)
        #expect(viewModel.collectionViewMode.value == .list)
        viewModel.changeCollectionViewMode()
        #expect(viewModel.collectionViewMode.value == .icon)
        #expect(CollectionViewMode.list.buttonTitle == "리스트" && CollectionViewMode.icon.buttonTitle == "아이콘")
    }

    @Test func cellItemLabels() {
        let items = Fixtures.newYear.boxOfficeResult.dailyBoxOfficeList.map(DailyBoxOfficeCellItem.init)
        #expect(items[0].audienceCount == "오늘 353,274 / 총 5,328,435")
        #expect(items[0].rankDifference == "-" && items[1].rankDifference == "⏶1" && items[2].rankDifference == "⏷1")
        #expect(items[5].rankDifference == "신작")
        #expect(
            DailyBoxOfficeCellItem.grouped(999) == "999" && DailyBoxOfficeCellItem.grouped(1_000_000) == "1,000,000")
    }

    @Test func movieDetailsSuccessAndFailure() {
        let viewModel = MovieDetailsViewModel(
            movieCode: "20124079", movieTitle: "광해, 왕이 된 남자", boxOffice: MockBoxOffice(),
            imageURLSearcher: MockSearcher())
        #expect(viewModel.posterURL.value == "https://img/광해, 왕이 된 남자 포스터")
        let item = viewModel.movieDetailsItem.value
        #expect(item?.openDate == "2012-09-13" && item?.runningTime == "131분" && item?.watchGrade == "15세이상관람가")
        #expect(item?.genres == "사극, 드라마" && item?.actors == "이병헌, 류승룡, 한효주")
        let failing = MockBoxOffice()
        failing.fails = true
        let searcher = MockSearcher()
        searcher.fails = true
        let failed = MovieDetailsViewModel(
            movieCode: "1", movieTitle: "x", boxOffice: failing, imageURLSearcher: searcher)
        #expect(failed.movieDetailsItem.value == nil && failed.posterURL.value == nil)
        #expect(failed.thrownError.value as? NetworkError == .failed(url: "u", reason: "unknown"))
    }

    @Test func calendar() {
        let date = Observable("2012-01-01")
        let calendar = CalendarViewModel(currentDate: date, now: now)
        #expect(calendar.currentDateComponents! == (2012, 1, 1))
        #expect(calendar.availableDateRange == "2003-11-11"..."2012-01-01")
        calendar.setCurrentDate(Date(timeIntervalSince1970: 1_325_376_000 - 86_400 * 7))
        #expect(date.value == "2011-12-25")
        // A clock before the first day has no day to choose (was a trap, found by fuzzing).
        #expect(CalendarViewModel(currentDate: date, now: Date(timeIntervalSince1970: 0)).availableDateRange == nil)
    }
}

/// The ranking's change is coloured as the app colours it: 신작 and ⏶ red, ⏷ blue, "-" plain.
@Suite struct RankingColourTests {
    @Test func newAndRisingAreRedFallingIsBlue() {
        #expect(BoxOfficeRecords.changeShown("신작") == .marked("신작", .red))
        #expect(BoxOfficeRecords.changeShown("⏶3") == .marked("⏶3", .red))
        #expect(BoxOfficeRecords.changeShown("⏷1") == .marked("⏷1", .blue))
        #expect(BoxOfficeRecords.changeShown("-") == .text("-"))
    }
}
