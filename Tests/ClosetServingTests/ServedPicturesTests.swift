import ClosetNetwork
import Foundation
import Testing

@testable import ClosetServing

/// The picture URLs of served answers pointed at the server, and back.
@Suite struct ServedPicturesTests {
    static let base = "http://127.0.0.1:8080"

    func rewritten(_ json: String, _ keys: Set<String>) -> String? {
        ServedPictures.pictureURLsRewritten(Array(json.utf8), under: keys) {
            ServedPictures.served($0, baseURL: Self.base)
        }
        .map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func onlyTheStringsUnderPictureKeysChangeAndTheRestIsByteForByte() {
        let json = #"""
            {"id":"a","urls":{"raw":"https://images.unsplash.com/photo-1?ixid=1&w=400","n":1.50},
             "links":{"self":"https://api.unsplash.com/photos/a"},
             "user":{"profile_image":{"small":"https:\/\/images.unsplash.com\/profile-1"}},
             "list":[{"image_url":"http://x.kr/a b.jpg"},{"image_url":"ftp://x/y"},{"image_url":null},
                     {"image_url":"https://x.kr/광.jpg"}],
             "doc_url":"https://movie.daum.net/1", "text":"urls"}
            """#
        let out = rewritten(json, ["urls", "profile_image", "image_url"]) ?? ""
        #expect(out.contains(#""raw":"http://127.0.0.1:8080/pictures/https/images.unsplash.com/photo-1?ixid=1&w=400""#))
        // An escaped slash is read as JSON reads it; the number keeps its spelling.
        #expect(out.contains(#""small":"http://127.0.0.1:8080/pictures/https/images.unsplash.com/profile-1""#))
        #expect(out.contains(#""n":1.50"#))
        // Not a URL a path can hold, not http(s), not a string, not under a picture key: as it was.
        #expect(out.contains(#""image_url":"http://x.kr/a b.jpg""#) && out.contains(#""image_url":"ftp://x/y""#))
        #expect(out.contains(#""image_url":"https://x.kr/광.jpg""#))
        #expect(out.contains(#""image_url":null"#) && out.contains(#""self":"https://api.unsplash.com/photos/a""#))
        #expect(out.contains(#""doc_url":"https://movie.daum.net/1""#) && out.contains(#""text":"urls""#))
        #expect(rewritten(json, []) == json)
    }

    @Test func aServedURLLeadsBackToTheOriginal() {
        for original in [
            "https://images.unsplash.com/photo-1?ixid=M3w&w=400", "http://openapi.animal.go.kr/files/1_1.jpg",
            "https://t1.daumcdn.net/movie/%EA%B4%91.jpg",
        ] {
            let served = ServedPictures.served(original, baseURL: Self.base) ?? ""
            let target = String(served.dropFirst(Self.base.count))
            let path = String(target.prefix { $0 != "?" })
            let query = target.contains("?") ? String(target.drop { $0 != "?" }.dropFirst()) : ""
            #expect(
                ServedPictures.originalURL(of: ServedRequest(method: "GET", path: path, rawQuery: query)) == original)
        }
        // Another path, another scheme, a climbing one: none.
        for path in [
            "/pictures/ftp/x/y", "/pictures/https", "/photos/1", "/pictures/https/x/%2e%2e/y",
            "/pictures/https/x%2Fy/z",
        ] {
            #expect(ServedPictures.originalURL(of: ServedRequest(method: "GET", path: path)) == nil)
        }
    }

    /// Recordings are files: whatever they hold never traps the rewriter; what it cannot follow
    /// is given back unchanged.
    @Test func anyBytesAreSafe() {
        let json = Array(#"{"a":[{"urls":{"x":"https://h/p\"q"}},"\\"],"b":{"urls":["https://h/2"]}}"#.utf8)
        // A prefix cut anywhere leaves a container or a string open: given back as it is (nil).
        for end in 1..<json.count {
            #expect(ServedPictures.pictureURLsRewritten(Array(json[..<end]), under: ["urls"]) { "R" + $0 } == nil)
        }
        var seed: UInt64 = 7
        for _ in 0..<2000 {
            var bytes = json
            for _ in 0..<3 {
                seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                bytes[Int(seed >> 33) % bytes.count] = UInt8(truncatingIfNeeded: seed >> 20)
            }
            _ = ServedPictures.pictureURLsRewritten(bytes, under: ["urls"]) { "R" + $0 }
        }
        let whole = ServedPictures.pictureURLsRewritten(json, under: ["urls"]) { "R" + $0 }.map {
            String(decoding: $0, as: UTF8.self)
        }
        #expect(whole == #"{"a":[{"urls":{"x":"Rhttps://h/p\"q"}},"\\"],"b":{"urls":["Rhttps://h/2"]}}"#)
        #expect(ServedPictures.pictureURLsRewritten(Array("{]".utf8), under: ["urls"]) { $0 } == nil)
    }
}

/// Issue 42: every picture answer has an `ETag`, a recorded one without its own too, and
/// `If-None-Match` naming it gets a 304.
@Suite struct ServedPictureTagTests {
    @Test func aRecordedPictureWithoutATagGetsOneMadeOfItsBytesAndA304() {
        let bytes = Data([0xFF, 0xD8, 0xFF, 0xD9, 1, 2, 3])
        let recorded = HTTPResponse(
            status: 200, headers: [HTTPHeader("Content-Type", "image/jpeg")], body: bytes)
        let tagged = ServedPictures.taggedIfNot(recorded)
        let tag = tagged.header("ETag")
        #expect(tag == ServedPictures.tag(of: [UInt8](bytes)) && tagged.body == bytes)
        #expect(tagged.header("Content-Type") == "image/jpeg")
        // One the recording kept is left as it was; so is an answer that is not a picture's 200.
        var own = recorded
        own.headers.append(HTTPHeader("ETag", "\"cdn-1\""))
        #expect(ServedPictures.taggedIfNot(own).header("ETag") == "\"cdn-1\"")
        #expect(ServedPictures.taggedIfNot(HTTPResponse(status: 404)).header("ETag") == nil)
        let again = ServedRequest(
            method: "GET", path: "/pictures/https/x/a.jpg", headers: [HTTPHeader("If-None-Match", tag ?? "")])
        let answer = ServedPictures.conditional(again, tagged)
        #expect(answer.status == 304 && answer.body.isEmpty && answer.header("ETag") == tag)
    }
}
