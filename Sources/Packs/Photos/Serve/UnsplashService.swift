import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The Unsplash API as `closet serve --replay <folder>` answers it (`/photos?page=&per_page=`,
/// `/photos/{id}`), from recordings. Any key is accepted (`Authorization: Client-ID …` or
/// `client_id`); a request with none gets Unsplash's own 401. A request no recording answers
/// gets its 404, `--fail` its 500, all in its `{"errors":[...]}` shape. The photos' `urls` and
/// the users' `profile_image` point at the server, which answers a saved photo's URL (any of
/// its sizes) with the picture the store keeps.
enum UnsplashService {
    static let api = ServedAPI.replaying(
        UnsplashAPI.api, routes: ["/photos"],
        summary: "Unsplash, from --replay recordings: GET /photos?page=&per_page=, GET /photos/{id}",
        pictureKeys: ["urls", "profile_image"],
        keyless: { request in hasKey(request) ? nil : errors(["OAuth error: The access token is invalid"], 401) },
        unmatched: { _ in errors(["Couldn't find Photo"], 404) },
        failure: { _ in errors(["Internal server error"], 500) },
        picture: { url, context in
            guard let state = context.session.state(PhotosState.self) else { return nil }
            // The sizes of one photo differ only in their query (`&w=400`).
            let wanted = url.prefix { $0 != "?" }
            guard let photo = state.repository.fetchPictures().first(where: { $0.url.prefix { $0 != "?" } == wanted })
            else { return nil }
            return state.repository.picture(of: photo)
        })

    static func hasKey(_ request: ServedRequest) -> Bool {
        request.header("Authorization")?.hasPrefix("Client-ID ") == true || request.query("client_id") != nil
    }

    static func errors(_ messages: [String], _ status: Int) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["errors": messages])) ?? Data()
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
