import ClosetNetwork
import Foundation

/// The Kakao (Daum) image search (reference §2.1 `DaumImageSearchAPI`), with the key in
/// `Authorization: KakaoAK <key>`. Errors: a status with `{"errorType","message"}`.
enum KakaoImageSearchAPI {
    static let api = RemoteAPI(
        name: "kakao", title: "Kakao image search", baseVariable: "CLOSET_KAKAO_URL",
        defaultBase: "https://dapi.kakao.com", keyVariable: "KAKAO_REST_API_KEY")

    enum Sorting: String {
        case accuracy, recency
    }

    /// GET /v2/search/image?query=<keyword>&sort=accuracy.
    static func search(_ keyword: String, network: Network) throws(NetworkError) -> DaumImageSearchResult {
        let key = try network.key(of: api)
        let request = HTTPRequest(
            .get, api: api.name, base: try network.base(of: api) ?? "", path: "/v2/search/image",
            query: [QueryItem("query", keyword), QueryItem("sort", Sorting.accuracy.rawValue)],
            headers: [HTTPHeader("Authorization", "KakaoAK \(key)", isSecret: true)])
        let response = try network.successful(request, detail: errorDetail)
        do {
            return try JSONDecoder().decode(DaumImageSearchResult.self, from: response.body)
        } catch {
            throw .malformed(url: request.displayURL, expected: "image search results")
        }
    }

    /// `AccessDeniedError: wrong appKey format`.
    static func errorDetail(_ response: HTTPResponse) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any] else { return nil }
        let message = object["message"] as? String
        let type = object["errorType"] as? String
        switch (type, message) {
        case (let type?, let message?): return "\(type): \(message)"
        case (nil, let message?): return message
        case (let type?, nil): return type
        case (nil, nil): return nil
        }
    }
}
