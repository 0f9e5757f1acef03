import ClosetLanguage
import ClosetNetwork
import Foundation
import TestSupport
import Testing

@testable import PhotosPack

/// The photos pack against a loopback server that speaks the Unsplash API, live through the
/// network helper (`CLOSET_UNSPLASH_URL` pointing at it): every command end to end.
@Suite struct PhotosEndToEndTests {
    static func environment(_ server: LoopbackServer, key: String? = UnsplashFixture.accessKey) -> [String: String] {
        var environment = ["CLOSET_UNSPLASH_URL": server.baseURL, "CLOSET_HTTP_HELPER": HelperPath.path]
        if let key { environment["UNSPLASH_ACCESS_KEY"] = key }
        return environment
    }

    func harness(_ server: LoopbackServer, format: OutputFormat = .json, key: String? = UnsplashFixture.accessKey)
        -> Harness
    {
        Harness(format: format, network: .live, environment: Self.environment(server, key: key))
    }

    func json(_ text: String) throws -> Any { try JSONSerialization.jsonObject(with: Data(text.utf8)) }

    @Test func everyCommandWorksEndToEnd() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let h = harness(server)
        let first = try #require(try json(h.output("list photos")) as? [[String: Any]])
        #expect(first.count == 15)
        #expect(first[0]["id"] as? String == UnsplashFixture.photos[0].id)
        #expect(first[1]["displayHeight"] as? Int == 3000 * 0 + 6000 * 150 / 3000)
        let feedRequest = try #require(server.requests.first)
        #expect(feedRequest.target == "/photos?page=1&per_page=15")
        #expect(feedRequest.header("Authorization") == "Client-ID \(UnsplashFixture.accessKey)")
        #expect(feedRequest.header("Accept-Version") == "v1")
        #expect(feedRequest.header("User-Agent")?.hasPrefix("closet/") == true)

        let second = try #require(try json(h.output("next")) as? [[String: Any]])
        #expect(second.count == 15 && second[0]["id"] as? String == UnsplashFixture.photos[15].id)
        let saved = try #require(try json(h.output("save photo @17 memo=산책")) as? [String: Any])
        #expect(saved["id"] as? String == UnsplashFixture.photos[16].id)
        #expect(saved["memo"] as? String == "산책")
        #expect((saved["image"] as? [String: Any])?["format"] as? String == "jpeg")
        #expect(server.requests.last?.path == "/images/photo-\(UnsplashFixture.photos[16].id)")
        #expect(h.output("count saved") == "{\"count\":1}\n")

        let again = try #require(try json(h.output("list photos page=2")) as? [[String: Any]])
        #expect(again[1]["saved"] as? Bool == true && again[0]["saved"] as? Bool == false)
        #expect(h.output("edit saved @2 memo=숲").contains(#""memo":"숲""#) == false)  // @2 is a photo row
        #expect(h.output("edit saved \(UnsplashFixture.photos[16].id) memo=숲").contains(#""memo":"숲""#))
        #expect(h.output("show saved \(UnsplashFixture.photos[16].id)").contains(#""memo":"숲""#))
        #expect(h.output("unsave photo @2").contains(UnsplashFixture.photos[16].id))
        #expect(h.output("count saved") == "{\"count\":0}\n")
        let third = try #require(try json(h.output("list photos page=3")) as? [[String: Any]])
        #expect(third.count == 10)
        #expect(h.error("next").hasPrefix("error: no more photos\n"))
    }

    /// Feed pictures are kept for the session, as the app's image loader keeps them: the page
    /// listed again, `show photo` and `save photo` fetch none of them again.
    @Test func feedPicturesAreFetchedOncePerSession() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let h = harness(server, format: .table)
        _ = h.output(".pictures blocks small")
        func pictureRequests() -> Int { server.requests.count { $0.path.hasPrefix("/images/") } }
        let first = h.output("list photos limit=3")
        #expect(first.contains("▀"), "\(h.host.standardError)")
        #expect(pictureRequests() == 3)
        _ = h.output("list photos limit=3")
        _ = h.output("show photo @2")
        _ = h.output("save photo @3")
        #expect(pictureRequests() == 3)
        _ = h.output("list photos page=2 limit=1")
        #expect(pictureRequests() == 4)
    }

    @Test func aPhotoNotListedIsFetchedByID() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let h = harness(server)
        let id = UnsplashFixture.photos[39].id
        let output = h.output("save photo \(id)")
        #expect(output.contains(#""id":"\#(id)""#), "\(h.host.standardError)")
        #expect(server.requests.map(\.path) == ["/photos/\(id)", "/images/photo-\(id)"])
    }

    @Test func aMissingKeyNamesTheVariableAndSendsNothing() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let h = harness(server, key: nil)
        #expect(
            h.error("list photos")
                == "error: UNSPLASH_ACCESS_KEY is not set: the Unsplash API needs it (export UNSPLASH_ACCESS_KEY=...)\nlist photos\n^^^^^^^^^^^\n"
        )
        #expect(server.requests.isEmpty)
    }

    @Test func aBadBaseURLIsOneClearError() {
        let h = Harness(
            format: .json, network: .live,
            environment: ["CLOSET_UNSPLASH_URL": "api.unsplash.com", "UNSPLASH_ACCESS_KEY": "k"])
        #expect(
            h.error("list photos").hasPrefix(
                "error: CLOSET_UNSPLASH_URL is not an http:// or https:// URL: 'api.unsplash.com'\n"))
    }

    /// The app's quirk not copied: its loader stayed "loading" after a failure, so the feed
    /// never loaded another page.
    @Test func aFailedPageDoesNotStopLaterPages() throws {
        let fixture = UnsplashFixture.handler(imageBase: "http://unused")
        let failures = Counter()
        let server = try LoopbackServer { request in
            if request.query["page"] == "2", failures.next() == 0 { return .json(#"{"errors":["busy"]}"#, status: 503) }
            return fixture(request, "")
        }
        defer { server.stop() }
        let h = harness(server)
        _ = h.output("list photos")
        #expect(
            h.error("next").hasPrefix(
                "error: GET \(server.baseURL)/photos?page=2&per_page=15 failed: HTTP 503 Service Unavailable: busy"))
        let retried = try #require(try json(h.output("next")) as? [[String: Any]])
        #expect(retried.first?["id"] as? String == UnsplashFixture.photos[15].id)
        #expect(h.output("unsave photo @16").isEmpty)  // row numbers went on from 15
        #expect(h.error("unsave photo @16").contains("photo '\(UnsplashFixture.photos[15].id)' is not saved"))
    }

    @Test func theSameSessionReplayedFromARecordingGivesTheSameBytes() throws {
        let server = try UnsplashFixture.server()
        defer { server.stop() }
        let folder = NSTemporaryDirectory() + "closet-photos-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = [
            "list photos", "next", "save photo @3 memo=one", "save photo @20", "list photos page=2", "list saved",
            "save photo nope", "list photos page=97", "count saved",
        ]
        func transcript(_ h: Harness) -> String {
            for line in script { h.run(line) }
            return h.host.transcript
        }
        let recorded = transcript(
            Harness(format: .table, network: .record(folder: folder), environment: Self.environment(server)))
        server.stop()
        let replayed = transcript(
            Harness(
                format: .table, network: .replay(folder: folder), environment: ["CLOSET_UNSPLASH_URL": server.baseURL]))
        #expect(recorded == replayed)
        #expect(recorded.contains("★"))
        for name in try FileManager.default.contentsOfDirectory(atPath: folder) {
            let bytes = try #require(FileManager.default.contents(atPath: folder + "/" + name))
            #expect(!String(decoding: bytes, as: UTF8.self).contains(UnsplashFixture.accessKey), "\(name)")
        }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func next() -> Int {
        lock.lock()
        defer { lock.unlock() }
        value += 1
        return value - 1
    }
}
