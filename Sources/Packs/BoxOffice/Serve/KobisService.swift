import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The KOBIS API as `closet serve --replay <folder>` answers it (the daily box office and a
/// movie's details), from recordings. Errors come as KOBIS sends them: a `faultInfo` in a 200.
/// Any `key` is accepted; none is KOBIS's invalid-key fault (320010), as is `--fail` (the one
/// fault the reference documents besides a missing `targetDt`, 320102).
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
        failure: { _ in invalidKey })

    static let invalidKey = fault("유효하지않은 키값입니다.", code: "320010")

    static func fault(_ message: String, code: String) -> HTTPResponse {
        let object = ["faultInfo": ["message": message, "errorCode": code]]
        let body = (try? JSONSerialization.data(withJSONObject: object, options: .sortedKeys)) ?? Data()
        return HTTPResponse(status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
