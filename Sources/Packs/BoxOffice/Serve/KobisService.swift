import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The KOBIS API as `closet serve --replay <folder>` answers it (the daily box office and a
/// movie's details), from recordings. Errors come as KOBIS sends them: a `faultInfo` in a 200.
/// Any `key` is accepted; none is KOBIS's invalid-key fault (320010), as is `--fail` (the one
/// fault the reference documents besides a missing `targetDt`, 320102). Under `--today`, a
/// day is answered as the same number of days before the world's today as it is before the
/// client's (the app's yesterday is the recorded world's yesterday).
enum KobisService {
    static let api = ServedAPI.replaying(
        KobisAPI.api, routes: ["/boxoffice/searchDailyBoxOfficeList.json", "/movie/searchMovieInfo.json"],
        summary:
            "KOBIS, from --replay recordings: GET /boxoffice/searchDailyBoxOfficeList.json?targetDt=, GET /movie/searchMovieInfo.json?movieCd=",
        keyless: { request in request.query("key") == nil ? invalidKey : nil },
        unmatched: { request in
            if request.path.hasSuffix("/searchDailyBoxOfficeList.json"), request.query("targetDt") == nil {
                return fault("필수 파라미터 targetDt가 없습니다.", code: "320102")
            }
            return fault("closet serve: no recording answers this request", code: "closet-unrecorded")
        },
        failure: { _ in invalidKey },
        // KOBIS's default: ten rows of the ranking.
        meaning: QueryMeaning(defaults: ["itemPerPage": "10"]),
        recordedQuery: { request, context in
            guard let today = context.today else { return request.query }
            return request.query.map { item in
                guard item.name == "targetDt", let day = shifted(item.value, from: context.now, to: today) else {
                    return item
                }
                return (item.name, day)
            }
        },
        credentialQuery: [("key", "closet-fixtures")])

    /// A client asks for days counted from its own today (the app's default is yesterday); in
    /// a recorded world (`--today`) the same distance is counted from that day: `targetDt`
    /// moved by the days between the client's Korean today and the world's.
    static func shifted(_ target: String, from now: Date, to today: Date) -> String? {
        let dashed = BoxOfficeCalendar.dashed(target)
        guard let asked = Timestamp.parse(dashed), let real = Timestamp.parse(BoxOfficeCalendar.day(of: now)),
            let world = Timestamp.parse(BoxOfficeCalendar.day(of: today))
        else { return nil }
        let day = BoxOfficeCalendar.day(of: asked.addingTimeInterval(world.timeIntervalSince(real) - 9 * 3600))
        return BoxOfficeCalendar.targetDate(day)
    }

    static let invalidKey = fault("유효하지않은 키값입니다.", code: "320010")

    static func fault(_ message: String, code: String) -> HTTPResponse {
        let object = ["faultInfo": ["message": message, "errorCode": code]]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)) ?? Data()
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
