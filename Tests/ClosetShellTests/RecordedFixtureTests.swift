import ClosetNetwork
import ClosetShell
import Foundation
import TestSupport
import Testing

/// The `http` folders the photo and box office goldens and the examples replay are
/// recordings of `UnsplashFixture` and `BoxOfficeFixture`, made by `closet test --record`'s
/// own path, with the fixtures' picture URLs then written as the real services' hosts. This test records them again and requires the
/// committed folders to be exactly that, so they cannot drift from the code or the fixture.
/// After a deliberate change: `CLOSET_REGENERATE_RECORDINGS=1 swift test --filter RecordedFixture`,
/// then `closet test --update` the goldens.
@Suite(.serialized) struct RecordedFixtureTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let recorded: [(folder: String, scripts: [String])] = [
        ("Tests/Golden/photos", ["feed", "save", "errors", "dump", "pictures"]),
        ("Tests/Golden/boxoffice", ["ranking", "movie", "posters", "errors", "pictures", "days"]),
        ("Tests/Golden/adoption", ["dogs", "errors", "pictures", "filters"]),
        ("Examples", ["photos", "boxoffice", "adoption"]),
    ]

    @Test func committedRecordingsAreWhatTheFixturesAnswer() throws {
        let unsplash = try UnsplashFixture.server()
        defer { unsplash.stop() }
        let boxOffice = try BoxOfficeFixture.server()
        defer { boxOffice.stop() }
        let animals = try AnimalFixture.server()
        defer { animals.stop() }
        // The examples' world: every picture a real one of a realistic size, none broken, every
        // ranked movie with its details and posters (the README's run, the apps' flows).
        let examplesUnsplash = try UnsplashFixture.server(world: .examples)
        defer { examplesUnsplash.stop() }
        let examplesBoxOffice = try BoxOfficeFixture.server(world: .examples)
        defer { examplesBoxOffice.stop() }
        let examplesAnimals = try AnimalFixture.server(world: .examples)
        defer { examplesAnimals.stop() }
        func environment(_ unsplash: LoopbackServer, _ boxOffice: LoopbackServer, _ animals: LoopbackServer)
            -> [String: String]
        {
            BoxOfficeFixture.environment(boxOffice).merging(AnimalFixture.environment(animals)) { $1 }
                .merging([
                    "CLOSET_UNSPLASH_URL": unsplash.baseURL, "UNSPLASH_ACCESS_KEY": UnsplashFixture.accessKey,
                ]) { $1 }
        }
        let rewrites = [
            (unsplash.baseURL + "/images", "https://images.unsplash.com"),
            (examplesUnsplash.baseURL + "/images", "https://images.unsplash.com"),
            (boxOffice.baseURL + "/img", "https://t1.daumcdn.net/movie"),
            (examplesBoxOffice.baseURL + "/img", "https://t1.daumcdn.net/movie"),
            (
                animals.baseURL + "/files",
                "http://openapi.animal.go.kr/openapi/service/rest/fileDownloadSrvc/files/shelter"
            ),
            (
                examplesAnimals.baseURL + "/files",
                "http://openapi.animal.go.kr/openapi/service/rest/fileDownloadSrvc/files/shelter"
            ),
        ]
        let manager = FileManager.default
        let regenerate = ProcessInfo.processInfo.environment["CLOSET_REGENERATE_RECORDINGS"] == "1"
        for (folder, scripts) in Self.recorded {
            let work = NSTemporaryDirectory() + "closet-record-" + UUID().uuidString
            defer { try? manager.removeItem(atPath: work) }
            try manager.createDirectory(atPath: work, withIntermediateDirectories: true)
            for script in scripts {
                let copy = work + "/" + script + ".closet"
                try manager.copyItem(atPath: Self.root + "/" + folder + "/" + script + ".closet", toPath: copy)
                let examples = folder == "Examples"
                _ = try GoldenRunner.transcript(
                    of: copy, record: true,
                    environment: examples
                        ? environment(examplesUnsplash, examplesBoxOffice, examplesAnimals)
                        : environment(unsplash, boxOffice, animals))
            }
            if folder == "Examples" {
                // Every picture the recorded answers name, not only those the scripts showed: an
                // app shows each search result's picture and thumbnail and each dog's second
                // photo. (Unsplash's other sizes are made from the recorded one by the server.)
                try Self.recordNamedPictures(
                    in: work + "/http",
                    from: [
                        (
                            examplesBoxOffice.baseURL, "/img/",
                            BoxOfficeFixture.handler(imageBase: nil, world: .examples)
                        ),
                        (examplesAnimals.baseURL, "/files/", AnimalFixture.handler(imageBase: nil, world: .examples)),
                    ])
            }
            let fresh = work + "/fresh"
            try Self.rewrite(from: work + "/http", into: fresh, replacing: rewrites)
            let committed = Self.root + "/" + folder + "/http"
            // The folder's day (`today`) is written by hand, not recorded.
            let day = manager.contents(atPath: committed + "/today")
            if regenerate {
                try? manager.removeItem(atPath: committed)
                try manager.copyItem(atPath: fresh, toPath: committed)
                if let day { manager.createFile(atPath: committed + "/today", contents: day) }
                continue
            }
            let names = try manager.contentsOfDirectory(atPath: fresh).sorted()
            #expect(
                (try? manager.contentsOfDirectory(atPath: committed).filter { $0 != "today" }.sorted()) == names,
                "\(committed)")
            for name in names {
                #expect(
                    manager.contents(atPath: fresh + "/" + name) == manager.contents(atPath: committed + "/" + name),
                    "\(committed)/\(name)")
            }
        }
    }

    /// Records, from the fixture handler of the server at `base`, every URL under `base + path`
    /// that a recorded JSON answer names and no recording holds.
    static func recordNamedPictures(
        in folder: String,
        from servers: [(
            base: String, path: String, handler: @Sendable (LoopbackServer.Request, String) -> LoopbackServer.Action
        )]
    ) throws {
        let recordings = try RecordingFolder(path: folder).load()
        let recorded = Set(recordings.values.map(\.requestLine))
        var named: Set<String> = []
        for recording in recordings.values where recording.response.header("Content-Type")?.contains("json") == true {
            let text = String(decoding: recording.response.body, as: UTF8.self)
            for (base, path, _) in servers {
                let prefix = base + path
                var rest = text[...]
                while let start = rest.range(of: prefix) {
                    let end = rest[start.lowerBound...].firstIndex { $0 == "\"" || $0 == "\\" } ?? rest.endIndex
                    named.insert(String(rest[start.lowerBound..<end]))
                    rest = rest[end...]
                }
            }
        }
        for url in named.sorted() where !recorded.contains("GET " + url) {
            guard let (base, _, handler) = servers.first(where: { url.hasPrefix($0.base + $0.path) }) else { continue }
            let target = String(url.dropFirst(base.count))
            guard
                case .respond(let status, let headers, let body) = handler(
                    LoopbackServer.Request(method: "GET", target: target, headers: [], body: Data()), base)
            else { continue }
            let response = HTTPResponse(
                status: status,
                headers: headers.sorted { $0.key < $1.key }.map {
                    HTTPHeader($0.key == "ETag" ? "Etag" : $0.key, $0.value)
                },
                body: body)
            try RecordingFolder(path: folder).save(Recording(request: .get(url: url), response: response))
        }
    }

    /// The recordings with one URL prefix written as another (as a person would edit them),
    /// saved again so file names follow the edited request lines.
    static func rewrite(from source: String, into target: String, replacing rewrites: [(String, String)]) throws {
        let manager = FileManager.default
        let edited = source + "-edited"
        try manager.createDirectory(atPath: edited, withIntermediateDirectories: true)
        for name in try manager.contentsOfDirectory(atPath: source) {
            var data = manager.contents(atPath: source + "/" + name) ?? Data()
            if !name.hasSuffix(".png"), !name.hasSuffix(".jpg"), var text = String(data: data, encoding: .utf8) {
                for (old, new) in rewrites { text = text.replacingOccurrences(of: old, with: new) }
                data = Data(text.utf8)
            }
            try data.write(to: URL(fileURLWithPath: edited + "/" + name))
        }
        let recordings = try RecordingFolder(path: edited).load()
        for recording in recordings.values { try RecordingFolder(path: target).save(recording) }
    }
}
