import ClosetNetwork
import Foundation

/// The Unsplash API as the app uses it (`ImageEndPoint.getImage(page:)`): the feed, 15 a
/// page. The key goes in the `Authorization` header (Unsplash accepts it there or as
/// `client_id`; a header keeps it out of URLs and logs).
enum UnsplashAPI {
    static let api = RemoteAPI(
        name: "unsplash", title: "Unsplash API", baseVariable: "CLOSET_UNSPLASH_URL",
        defaultBase: "https://api.unsplash.com", keyVariable: "UNSPLASH_ACCESS_KEY")
    static let perPage = 15

    static func request(path: String, query: [QueryItem] = [], network: Network) throws(NetworkError) -> HTTPRequest {
        let key = try network.key(of: api)
        return HTTPRequest(
            .get, api: api.name, base: try network.base(of: api) ?? "", path: path, query: query,
            headers: [
                HTTPHeader("Accept-Version", "v1"), HTTPHeader("Authorization", "Client-ID \(key)", isSecret: true),
            ])
    }

    /// How many photos the feed has in all: Unsplash's `X-Total` on the first page (the same
    /// request as `list photos`); nil when the server does not say.
    static func total(network: Network) throws(NetworkError) -> Int? {
        let request = try request(
            path: "/photos", query: [QueryItem("page", "1"), QueryItem("per_page", "\(perPage)")], network: network)
        let response = try network.successful(request, detail: errorDetail)
        return response.header("X-Total").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.flatMap {
            $0 >= 0 ? $0 : nil
        }
    }

    /// GET /photos?page=N&per_page=15.
    static func page(_ page: Int, network: Network) throws(NetworkError) -> [PictureData] {
        let request = try request(
            path: "/photos", query: [QueryItem("page", "\(page)"), QueryItem("per_page", "\(perPage)")],
            network: network)
        let response = try network.successful(request, detail: errorDetail)
        do {
            return try JSONDecoder().decode([PictureData].self, from: response.body)
        } catch {
            throw try apiError(in: response, request)
                ?? .malformed(url: request.displayURL, expected: "a JSON array of photos")
        }
    }

    /// GET /photos/:id, for a photo not seen in this session's feed.
    static func photo(_ id: String, network: Network) throws(NetworkError) -> PictureData {
        let request = try request(path: "/photos/" + PercentEncoding.pathSegment(id), network: network)
        let response = try network.successful(request, detail: errorDetail)
        do {
            return try JSONDecoder().decode(PictureData.self, from: response.body)
        } catch {
            throw try apiError(in: response, request) ?? .malformed(url: request.displayURL, expected: "a JSON photo")
        }
    }

    /// The picture itself (the list's `small` URL), which must be a PNG or JPEG.
    static func picture(at url: String, network: Network) throws(NetworkError) -> [UInt8] {
        [UInt8](try network.successful(.get(url: url)).body)
    }

    /// `{"errors":["OAuth error: ..."]}`: Unsplash's error body, joined.
    static func errorDetail(_ response: HTTPResponse) -> String? {
        if let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            let errors = object["errors"] as? [Any], !errors.isEmpty
        {
            return errors.map { "\($0)" }.joined(separator: "; ")
        }
        let text = String(decoding: response.body.prefix(200), as: UTF8.self)
            .split(whereSeparator: \.isNewline).first.map(String.init)?
            .trimmingCharacters(in: .whitespaces)
        return text?.isEmpty == false ? text : nil
    }

    /// An error object in a 2xx answer.
    private static func apiError(in response: HTTPResponse, _ request: HTTPRequest) throws(NetworkError)
        -> NetworkError?
    {
        guard let object = try? JSONSerialization.jsonObject(with: response.body) as? [String: Any],
            object["errors"] != nil, let detail = errorDetail(response)
        else { return nil }
        return .api(name: api.title, message: detail)
    }
}
