import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// The pictures a served API's answers name, served by `closet serve` itself, so an app shows
/// them without the internet: in an answer from recordings, each picture URL (the values under
/// the API's picture keys, such as Kakao's `image_url`) is rewritten to
/// `{server}/pictures/{scheme}/{host}/{path}?{query}`, and a GET there is answered from what the
/// store holds (a saved photo, a cached poster, a cached dog picture: each API's `picture`),
/// then from a recording of the original URL; else a 404. A picture has an `ETag` (the
/// recorded one, or one made of the picture's bytes), and a GET whose `If-None-Match`
/// names it gets a 304, as from a CDN (RFC 9110 §13.1.2), so an app's cache revalidates.
public enum ServedPictures {
    static let prefix = "/pictures/"

    /// `https://t1.daumcdn.net/movie/a.jpg` → `http://127.0.0.1:8080/pictures/https/t1.daumcdn.net/movie/a.jpg`;
    /// nil for what is not an http(s) URL of printable ASCII.
    public static func served(_ url: String, baseURL: String) -> String? {
        for scheme in ["https", "http"] where url.hasPrefix(scheme + "://") {
            let rest = url.dropFirst(scheme.count + 3)
            // Printable ASCII only (a URL as sent): a client would percent-encode anything else
            // and ask for a URL no recording names; such a URL is left as it is.
            guard let host = rest.split(separator: "/", maxSplits: 1).first, !host.isEmpty,
                rest.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x22 && $0 != 0x23 })
            else { return nil }
            return baseURL + prefix + scheme + "/" + rest
        }
        return nil
    }

    /// The original URL a `/pictures/...` request stands for; nil for another path, or one with
    /// dot segments or encoded slashes.
    package static func originalURL(of request: ServedRequest) -> String? {
        guard request.path.hasPrefix(prefix), let segments = request.segments, segments.count >= 3,
            segments[1] == "http" || segments[1] == "https"
        else { return nil }
        let rest = request.path.dropFirst(prefix.count + segments[1].count + 1)
        return segments[1] + "://" + rest + (request.rawQuery.isEmpty ? "" : "?" + request.rawQuery)
    }

    /// The API that answers `/pictures/...` for `apis`.
    public static func api(asking apis: [ServedAPI]) -> ServedAPI {
        ServedAPI(
            name: "pictures",
            summary: "the pictures the other APIs' answers name: GET /pictures/{scheme}/{host}/{path}",
            answer: { request, context in
                guard let url = originalURL(of: request) else { return nil }
                guard request.method == "GET" || request.method == "HEAD" else {
                    return HTTPResponse.text("only GET reads a picture\n", status: 405)
                }
                for api in apis {
                    if let bytes = try api.picture?(url, context) { return picture(bytes, for: request) }
                }
                if let recorded = try context.recordings?.answer(url: url) {
                    return conditional(request, taggedIfNot(recorded))
                }
                if let recordings = context.recordings {
                    for api in apis {
                        if let made = api.pictureSizes?.answer(url, from: recordings) {
                            return conditional(request, taggedIfNot(made))
                        }
                    }
                }
                if let through = context.through, let recordings = context.recordings {
                    do throws(NetworkError) {
                        if let live = try through.picture(url, recordings: recordings) {
                            return conditional(request, taggedIfNot(live))
                        }
                    } catch {
                        context.note("through to \(url): \(error.message)")
                    }
                }
                if context.placeholders {
                    for api in apis {
                        if let bytes = api.placeholder?(url, context)?.picture(for: url) {
                            return picture(bytes, for: request)
                        }
                    }
                }
                return HTTPResponse.text("no picture of \(url) in the store or the recordings\n", status: 404)
            })
    }

    /// A picture's answer: its type, an `ETag` made of its bytes, and a 304 when the request's
    /// `If-None-Match` names that tag.
    public static func picture(_ bytes: [UInt8], for request: ServedRequest) -> HTTPResponse {
        let tag = self.tag(of: bytes)
        return conditional(
            request,
            HTTPResponse(
                status: 200, headers: [HTTPHeader("Content-Type", contentType(of: bytes)), HTTPHeader("ETag", tag)],
                body: Data(bytes)))
    }

    /// The `ETag` closet gives a picture it has no tag for: its CRC-32 and its length.
    static func tag(of bytes: [UInt8]) -> String {
        "\"" + String(Checksum.crc32(bytes), radix: 16) + "-" + String(bytes.count) + "\""
    }

    /// A recorded picture answer as it was, with an `ETag` made of its bytes when the
    /// recording kept none (a CDN's answer without one could not be revalidated).
    static func taggedIfNot(_ response: HTTPResponse) -> HTTPResponse {
        guard response.status == 200, response.header("ETag") == nil else { return response }
        var tagged = response
        tagged.headers.append(HTTPHeader("ETag", tag(of: [UInt8](response.body))))
        return tagged
    }

    /// A 304 (its `ETag`, no body) when the request's `If-None-Match` names the answer's tag
    /// (weak comparison, `*` for any).
    public static func conditional(_ request: ServedRequest, _ response: HTTPResponse) -> HTTPResponse {
        // The request's header first: most requests have none, and answers many headers.
        guard response.status == 200, let wanted = request.header("If-None-Match"), let tag = response.header("ETag")
        else { return response }
        func opaque(_ tag: Substring) -> Substring {
            let trimmed = tag.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            let text = Substring(trimmed)
            return text.hasPrefix("W/") ? text.dropFirst(2) : text
        }
        let mine = opaque(Substring(tag))
        guard wanted.split(separator: ",").contains(where: { opaque($0) == mine || opaque($0) == "*" }) else {
            return response
        }
        return HTTPResponse(status: 304, headers: [HTTPHeader("ETag", tag)], body: Data())
    }

    static func contentType(of bytes: [UInt8]) -> String {
        switch (try? ImageHeader.inspect(bytes))?.format {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case nil: "application/octet-stream"
        }
    }

    /// A JSON answer with every string at or under one of `keys` that is an http(s) URL pointing
    /// at the server instead; the rest byte for byte. Anything else, or JSON it cannot follow,
    /// is given back as it is.
    static func rewritingURLs(in response: HTTPResponse, under keys: Set<String>, baseURL: String) -> HTTPResponse {
        guard !keys.isEmpty, let first = response.body.first(where: { $0 > 0x20 }), first == 0x7B || first == 0x5B,
            let body = pictureURLsRewritten([UInt8](response.body), under: keys, { served($0, baseURL: baseURL) })
        else { return response }
        var response = response
        response.body = Data(body)
        return response
    }

    /// The JSON text with the strings under `keys` passed through `transform` (nil keeps one).
    package static func pictureURLsRewritten(
        _ bytes: [UInt8], under keys: Set<String>, _ transform: (String) -> String?
    )
        -> [UInt8]?
    {
        struct Container {
            var isObject: Bool
            /// Everything in it is under a picture key.
            var picture: Bool
            var key: String?
            var expectingKey: Bool
        }
        var stack: [Container] = []
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + bytes.count / 8)
        /// Whether a value starting here is under a picture key.
        func valueIsPicture() -> Bool {
            guard let top = stack.last else { return false }
            return top.picture || (top.isObject && top.key.map(keys.contains) == true)
        }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case 0x7B, 0x5B:  // { [
                stack.append(Container(isObject: byte == 0x7B, picture: valueIsPicture(), key: nil, expectingKey: true))
                out.append(byte)
                index += 1
            case 0x7D, 0x5D:  // } ]
                guard let top = stack.popLast(), top.isObject == (byte == 0x7D) else { return nil }
                out.append(byte)
                index += 1
            case 0x3A:  // :
                guard stack.last?.isObject == true else { return nil }
                stack[stack.count - 1].expectingKey = false
                out.append(byte)
                index += 1
            case 0x2C:  // ,
                if stack.last?.isObject == true { stack[stack.count - 1].expectingKey = true }
                out.append(byte)
                index += 1
            case 0x22:  // "
                var end = index + 1
                while end < bytes.count, bytes[end] != 0x22 { end += bytes[end] == 0x5C ? 2 : 1 }
                guard end < bytes.count else { return nil }
                let token = Array(bytes[index...end])
                index = end + 1
                let decoded = {
                    (try? JSONSerialization.jsonObject(with: Data(token), options: .fragmentsAllowed)) as? String
                }
                if let top = stack.last, top.isObject, top.expectingKey {
                    guard let key = decoded() else { return nil }
                    stack[stack.count - 1].key = key
                    out += token
                } else if valueIsPicture(), let value = decoded(), let replaced = transform(value) {
                    out += Array(JSONText.string(replaced).utf8)
                } else {
                    out += token
                }
            default:
                out.append(byte)
                index += 1
            }
        }
        return stack.isEmpty ? out : nil
    }
}
