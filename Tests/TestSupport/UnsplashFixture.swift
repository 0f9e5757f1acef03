import Foundation

/// A small Unsplash: 40 photos in pages of 15, each photo by id, and their pictures, served
/// by a `LoopbackServer` with the real API's shapes (extra fields included, so decoding is
/// shown to ignore them). Tests of the photos pack and the recorded `http` folders of the
/// goldens and examples come from it.
///
/// Special pages: 94 closes the connection mid-body, 95 hangs up without answering, 97 answers 403 `Rate Limit Exceeded` (text), 98 a 200 that is not JSON,
/// 99 a 500, 96 a 200 with an `errors` object. Photo `BrokenPic000` has an HTML "picture".
package enum UnsplashFixture {
    package static let accessKey = "fixture-access-key"

    package struct Photo: Sendable {
        package var id: String
        package var width: Int
        package var height: Int
        /// Unsplash's `color` and `blur_hash`: the examples' are their scene's own.
        package var color = "#40261a"
        package var blurHash = "LPE{%9"
    }

    /// Which world it serves: the goldens' (with its broken picture; each other `small` a
    /// 400-wide JPEG scene), or the examples' (every picture a JPEG scene of the width its URL
    /// asks, 400 for `small`, with an ETag and the scene's own colour and BlurHash in the
    /// answer, as the README's offline run shows them).
    package enum World: Sendable {
        case goldens, examples
    }

    package static let photos = photos(.goldens)

    package static func photos(_ world: World) -> [Photo] { world == .goldens ? goldenPhotos : examplePhotos }

    static let goldenPhotos = makePhotos(broken: true)
    static let examplePhotos = makePhotos(broken: false).map { photo in
        // What the answer says of the picture is what it is (`--placeholders` draws from it).
        var described = photo
        let small = SampleScenes.scene(photo.id, width: 32, height: max(1, 32 * photo.height / photo.width))
        described.color = SampleScenes.averageColor(small)
        described.blurHash = SampleScenes.blurHash(small)
        return described
    }

    static func makePhotos(broken: Bool) -> [Photo] {
        (0..<40).map { n in makePhoto(n, broken: broken) }
    }

    static func makePhoto(_ n: Int, broken: Bool) -> Photo {
        let id =
            n == 7 && broken
            ? "BrokenPic000"
            : String(format: "ph%02d", n)
                + String("abcdefghijklmnopqrstuvwxyz".shuffledBy(n))
                .prefix(7)
        let widths = [4000, 3000, 6000, 5472, 2400]
        let heights = [6000, 4000, 4000, 3648, 3600]
        return Photo(id: id, width: widths[n % 5], height: heights[(n / 2) % 5])
    }

    /// The picture an examples photo's URL serves: a JPEG `width` wide, in its proportions.
    static func examplePicture(_ photo: Photo, width: Int) -> [UInt8] {
        let width = min(max(width, 8), 1080)
        return SampleScenes.jpeg(photo.id, width: width, height: max(1, width * photo.height / photo.width))
    }

    /// The picture a goldens photo's `small` URL serves: a JPEG 400 wide in the photo's
    /// proportions, or a page for the broken one.
    package static func picture(_ photo: Photo) -> [UInt8] {
        photo.id == "BrokenPic000"
            ? Array("<html>not found</html>".utf8) : examplePicture(photo, width: 400)
    }

    static func json(_ photo: Photo, imageBase: String) -> String {
        let url = "\(imageBase)/photo-\(photo.id)"
        return """
            {"id":"\(photo.id)","created_at":"2024-01-0\(photo.width % 9 + 1)T10:00:00Z","width":\(photo.width),\
            "height":\(photo.height),"color":"\(photo.color)","blur_hash":"\(photo.blurHash)","description":null,\
            "alt_description":"a photo","likes":\(photo.height % 97),"urls":{"raw":"\(url)?ixid=1",\
            "full":"\(url)?q=85","regular":"\(url)?w=1080","small":"\(url)?w=400","thumb":"\(url)?w=200"},\
            "links":{"self":"https://api.unsplash.com/photos/\(photo.id)"},\
            "user":{"id":"u1","username":"closet","name":"Closet Fixture"}}
            """
    }

    /// Answers like the API, with picture URLs under `imageBase` (by default this server).
    package static func handler(imageBase: String?, world: World = .goldens)
        -> @Sendable (LoopbackServer.Request, String) -> LoopbackServer.Action
    {
        let photos = photos(world)
        return { request, serverBase in
            let images = imageBase ?? serverBase + "/images"
            if request.path.hasPrefix("/images/photo-") {
                let id = String(request.path.dropFirst("/images/photo-".count))
                guard let photo = photos.first(where: { $0.id == id }) else { return .json("{}", status: 404) }
                if world == .examples {
                    let width = Int(request.query["w"] ?? "400") ?? 400
                    return .respond(
                        status: 200, headers: ["Content-Type": "image/jpeg", "ETag": "\"\(photo.id)-\(width)\""],
                        body: Data(examplePicture(photo, width: width)))
                }
                let type = photo.id == "BrokenPic000" ? "text/html" : "image/jpeg"
                return .respond(status: 200, headers: ["Content-Type": type], body: Data(picture(photo)))
            }
            guard request.header("Authorization") == "Client-ID \(accessKey)" else {
                return .json(#"{"errors":["OAuth error: The access token is invalid"]}"#, status: 401)
            }
            if request.path == "/photos" {
                let page = Int(request.query["page"] ?? "1") ?? 1
                let perPage = Int(request.query["per_page"] ?? "10") ?? 10
                switch page {
                case 94: return .closeMidBody(declared: 5000, sent: Data("[{\"id\":".utf8))
                case 95: return .hangUp
                case 96: return .json(#"{"errors":["Per page is too large"]}"#)
                case 97:
                    return .respond(
                        status: 403, headers: ["Content-Type": "text/plain"], body: Data("Rate Limit Exceeded".utf8))
                case 98:
                    return .respond(
                        status: 200, headers: ["Content-Type": "text/html"], body: Data("<html>maintenance</html>".utf8)
                    )
                case 99: return .json(#"{"errors":["Internal server error"]}"#, status: 500)
                default: break
                }
                let start = max(0, (page - 1) * perPage)
                let slice = start < photos.count ? Array(photos[start..<min(photos.count, start + perPage)]) : []
                // As Unsplash does: how many photos there are in all.
                return .respond(
                    status: 200, headers: ["Content-Type": "application/json", "X-Total": "\(photos.count)"],
                    body: Data(("[" + slice.map { json($0, imageBase: images) }.joined(separator: ",") + "]").utf8))
            }
            if request.path.hasPrefix("/photos/") {
                let id = String(request.path.dropFirst("/photos/".count))
                guard let photo = photos.first(where: { $0.id == id }) else {
                    return .json(#"{"errors":["Couldn't find Photo"]}"#, status: 404)
                }
                return .json(json(photo, imageBase: images))
            }
            return .json(#"{"errors":["Not found"]}"#, status: 404)
        }
    }

    /// A running fixture server.
    package static func server(imageBase: String? = nil, world: World = .goldens) throws -> LoopbackServer {
        let handler = handler(imageBase: imageBase, world: world)
        let base = BaseBox()
        let server = try LoopbackServer { request in handler(request, base.value) }
        base.value = server.baseURL
        return server
    }

    package final class BaseBox: @unchecked Sendable {
        package var value = ""
        package init() {}
    }
}

extension String {
    /// A fixed reordering of the letters (ids that look random and are the same every run).
    fileprivate func shuffledBy(_ seed: Int) -> String {
        var letters = Array(self)
        var state = UInt64(seed + 1) &* 0x9E37_79B9_7F4A_7C15
        for index in letters.indices.reversed() where index > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            letters.swapAt(index, Int(state >> 33) % (index + 1))
        }
        return String(letters)
    }
}
