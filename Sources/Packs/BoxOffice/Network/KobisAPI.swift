import ClosetNetwork
import Foundation

/// The KOBIS open API (reference §2.1): the daily box office and a movie's details. The
/// key goes in the query (`key`), so it is marked secret. Errors come inside a 200 as
/// `{"faultInfo":{"message","errorCode"}}`.
enum KobisAPI {
    static let api = RemoteAPI(
        name: "kobis", title: "KOBIS API", baseVariable: "CLOSET_KOBIS_URL",
        defaultBase: "https://www.kobis.or.kr/kobisopenapi/webservice/rest", keyVariable: "KOBIS_API_KEY")

    static func request(_ path: String, _ query: [QueryItem], network: Network) throws(NetworkError) -> HTTPRequest {
        let key = try network.key(of: api)
        return HTTPRequest(
            .get, api: api.name, base: try network.base(of: api) ?? "", path: path,
            query: [QueryItem("key", key, isSecret: true)] + query)
    }

    /// GET /boxoffice/searchDailyBoxOfficeList.json?targetDt=yyyyMMdd.
    static func daily(targetDate: String, network: Network) throws(NetworkError) -> DailyBoxOffice {
        let request = try request(
            "/boxoffice/searchDailyBoxOfficeList.json", [QueryItem("targetDt", targetDate)], network: network)
        return try decode(DailyBoxOffice.self, request, network: network, expected: "a daily box office list")
    }

    /// GET /movie/searchMovieInfo.json?movieCd=.
    static func movie(code: String, network: Network) throws(NetworkError) -> MovieDetails {
        let request = try request("/movie/searchMovieInfo.json", [QueryItem("movieCd", code)], network: network)
        return try decode(MovieDetails.self, request, network: network, expected: "a movie's details")
    }

    static func decode<T: Decodable>(
        _ type: T.Type, _ request: HTTPRequest, network: Network, expected: String
    ) throws(NetworkError) -> T {
        let response = try network.successful(request)
        if let fault = fault(in: response.body) { throw .api(name: api.title, message: fault) }
        do {
            return try JSONDecoder().decode(T.self, from: response.body)
        } catch DecodingError.dataCorrupted(let context) {
            let key = context.codingPath.last?.stringValue ?? "a value"
            throw .malformed(url: request.displayURL, expected: "\(expected) (\(key): \(context.debugDescription))")
        } catch {
            throw .malformed(url: request.displayURL, expected: expected)
        }
    }

    /// `유효하지않은 키값입니다. (320010)`.
    static func fault(in body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let fault = object["faultInfo"] as? [String: Any]
        else { return nil }
        let message = fault["message"] as? String ?? "an error"
        return (fault["errorCode"] as? String).map { "\(message) (\($0))" } ?? message
    }
}
