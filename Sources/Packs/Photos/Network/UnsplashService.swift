import ClosetLanguage
import ClosetNetwork
import Foundation

/// The Unsplash API as `closet serve --replay <folder>` answers it (`/photos?page=&per_page=`,
/// `/photos/{id}`), from recordings; the key is accepted and ignored. A request no recording
/// answers gets Unsplash's own 404, `--fail` its 500, both in its `{"errors":[...]}` shape.
enum UnsplashService {
    static let api = ServedAPI.replaying(
        UnsplashAPI.api, routes: ["/photos"],
        summary: "Unsplash, from --replay recordings: GET /photos?page=&per_page=, GET /photos/{id}",
        unmatched: { _ in errors(["Couldn't find Photo"], 404) },
        failure: { _ in errors(["Internal server error"], 500) })

    static func errors(_ messages: [String], _ status: Int) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["errors": messages])) ?? Data()
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
