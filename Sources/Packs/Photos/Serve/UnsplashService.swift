import ClosetLanguage
import ClosetNetwork
import ClosetServing
import Foundation

/// The Unsplash API as `closet serve --replay <folder>` answers it (`/photos?page=&per_page=`,
/// `/photos/{id}`), from recordings. Any key is accepted (`Authorization: Client-ID …` or
/// `client_id`); a request with none gets Unsplash's own 401. A request no recording answers
/// gets its 404, `--fail` its 500, all in its `{"errors":[...]}` shape. The photos' `urls` and
/// the users' `profile_image` point at the server, which answers a saved photo's URL (any of
/// its sizes) with the picture the store keeps. A request means what Unsplash reads it as
/// (`page=1`, `per_page=10` and `order_by=latest` when left out); a page past the feed's
/// last is `200 []` with its `X-Total`. A photo's sizes are imgix URLs (`w=`): one recorded size
/// answers every other, scaled down.
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
        },
        meaning: meaning,
        beyondRecordings: { request, recorded in pastTheLastPage(request, recorded) },
        placeholder: { url, context in
            placeholder(of: url, in: context.recordings?.answers(api: "unsplash", path: "/photos") ?? [])
        },
        // A photo's five sizes are one imgix picture: the recorded `small` answers the others.
        pictureSizes: .imgix(host: "images.unsplash.com"),
        credential: [HTTPHeader("Authorization", "Client-ID closet-fixtures")])

    /// What Unsplash's recorded pages say of the photo whose `urls` name `url`: its size,
    /// colour and BlurHash (`--placeholders`).
    static func placeholder(of url: String, in pages: [HTTPResponse]) -> PicturePlaceholder? {
        for page in pages {
            guard let photos = try? JSONSerialization.jsonObject(with: page.body) as? [[String: Any]] else { continue }
            for photo in photos {
                guard let urls = photo["urls"] as? [String: Any], urls.values.contains(where: { $0 as? String == url }),
                    let width = photo["width"] as? Int, let height = photo["height"] as? Int
                else { continue }
                return PicturePlaceholder(
                    width: width, height: height, color: photo["color"] as? String,
                    blurHash: photo["blur_hash"] as? String)
            }
        }
        return nil
    }

    /// Unsplash's defaults: the first page of ten, newest first.
    static let meaning = QueryMeaning(defaults: ["page": "1", "per_page": "10", "order_by": "latest"])

    /// A page past the end of the feed is `200 []` with the feed's `X-Total`, as Unsplash
    /// answers it (an app stops loading there instead of showing an error): known when a
    /// recorded page of the same feed says how many photos there are.
    static func pastTheLastPage(
        _ request: ServedRequest, _ recorded: [(query: [(name: String, value: String)], response: HTTPResponse)]
    ) -> HTTPResponse? {
        func feed(_ query: [(name: String, value: String)]) -> [String] {
            meaning.normalized(query).filter { !$0.hasPrefix("page=") }
        }
        let wanted = feed(request.query)
        guard let page = Int(request.query("page") ?? "1"), let perPage = Int(request.query("per_page") ?? "10"),
            page >= 1, perPage >= 1
        else { return nil }
        for (query, response) in recorded where feed(query) == wanted {
            guard let total = response.header("X-Total").flatMap({ Int($0) }), total >= 0 else { continue }
            // A client's page may be any number: one whose first row overflows is past the end too.
            let (first, overflow) = (page - 1).multipliedReportingOverflow(by: perPage)
            guard overflow || first >= total else { return nil }
            return HTTPResponse(
                status: 200,
                headers: [
                    HTTPHeader("Content-Type", "application/json"), HTTPHeader("X-Total", String(total)),
                    HTTPHeader("X-Per-Page", String(perPage)),
                ], body: Data("[]".utf8))
        }
        return nil
    }

    static func hasKey(_ request: ServedRequest) -> Bool {
        request.header("Authorization")?.hasPrefix("Client-ID ") == true || request.query("client_id") != nil
    }

    static func errors(_ messages: [String], _ status: Int) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: ["errors": messages])) ?? Data()
        return HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: body)
    }
}
