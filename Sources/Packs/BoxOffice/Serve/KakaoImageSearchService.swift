import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The Kakao image search as `closet serve --replay <folder>` answers it, from recordings. Any
/// `Authorization: KakaoAK <key>` is accepted; none, and `--fail`, get Kakao's 401
/// (`AccessDeniedError`). The documents' `image_url` and `thumbnail_url` point at the server,
/// which answers a poster in the box office's cache from there. `sort`, `page` and `size`
/// left out mean Kakao's defaults (accuracy, 1, 80).
enum KakaoImageSearchService {
    static let api = ServedAPI.replaying(
        KakaoImageSearchAPI.api, routes: ["/v2/search/image"],
        summary: "Kakao image search, from --replay recordings: GET /v2/search/image?query=&sort=",
        pictureKeys: ["image_url", "thumbnail_url"],
        keyless: { request in request.header("Authorization")?.hasPrefix("KakaoAK ") == true ? nil : accessDenied },
        unmatched: { _ in error("NotFound", "closet serve: no recording answers this request", status: 404) },
        failure: { _ in accessDenied },
        picture: { url, context in
            guard let state = context.session.state(BoxOfficeState.self) else { return nil }
            return try state.provider().cache.retrieveImage(for: url.cacheKey)?.image.bytes
        },
        // Kakao's defaults: by accuracy, the first page of 80.
        meaning: QueryMeaning(defaults: ["sort": "accuracy", "page": "1", "size": "80"]),
        credential: [HTTPHeader("Authorization", "KakaoAK closet-fixtures")])

    static let accessDenied = error("AccessDeniedError", "cannot find appKey", status: 401)

    static func error(_ type: String, _ message: String, status: Int) -> HTTPResponse {
        let body =
            (try? JSONSerialization.data(
                withJSONObject: ["errorType": type, "message": message], options: .sortedKeys)) ?? Data()
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
