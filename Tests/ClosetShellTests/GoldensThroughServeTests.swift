import ClosetShell
import Foundation
import TestSupport
import Testing

/// Issue 27, part 3: the photos', the box office's and the adoption community's goldens give their expected
/// transcripts with the packs live against `closet serve --replay` of their own recordings
/// (closet's clients talking to closet's server, the picture URLs pointing at it): the
/// recordings served as the real APIs would serve them, errors included.
@Suite(.serialized) struct GoldensThroughServeTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden").path

    /// What differs by where the answers came from, and nothing else: the server's URLs stand
    /// for the originals (the APIs' and the pictures'), and a table's columns, as wide as those
    /// URLs, are compared by their cells (runs of spaces and of dashes as one).
    static func originalURLs(_ text: String, base: String) -> String {
        let urls =
            text
            .replacingOccurrences(of: base + "/pictures/https/", with: "https://")
            .replacingOccurrences(of: base + "/pictures/http/", with: "http://")
            .replacingOccurrences(
                of: base + "/boxoffice/", with: "https://www.kobis.or.kr/kobisopenapi/webservice/rest/boxoffice/"
            )
            .replacingOccurrences(
                of: base + "/movie/", with: "https://www.kobis.or.kr/kobisopenapi/webservice/rest/movie/"
            )
            .replacingOccurrences(of: base + "/v2/", with: "https://dapi.kakao.com/v2/")
            .replacingOccurrences(of: base + "/photos", with: "https://api.unsplash.com/photos")
            .replacingOccurrences(
                of: base + "/abandonmentPublic_v2",
                with: "https://apis.data.go.kr/1543061/abandonmentPublicService_v2/abandonmentPublic_v2")
        return cells(urls)
    }

    static func cells(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            var out = ""
            var last: Character?
            for character in line where !((character == " " || character == "-") && character == last) {
                out.append(character)
                last = character
            }
            return out
        }.joined(separator: "\n")
    }

    @Test(arguments: [
        "boxoffice/ranking", "boxoffice/movie", "boxoffice/posters", "boxoffice/errors", "boxoffice/korean",
        "boxoffice/pictures", "adoption/dogs", "adoption/errors", "adoption/korean", "adoption/pictures",
        "adoption/filters",
        "photos/feed", "photos/save", "photos/errors", "photos/korean", "photos/pictures", "photos/dump",
        "photos/restore",
    ])
    func theGoldenThroughServe(_ name: String) throws {
        let pack = String(name.prefix { $0 != "/" })
        let server = try ServeProcess(
            store: ":memory:", serveArguments: ["--replay", Self.goldens + "/\(pack)/http", pack])
        defer { server.stop() }
        let base = server.baseURL
        let environment = [
            "CLOSET_UNSPLASH_URL": base, "UNSPLASH_ACCESS_KEY": "any", "CLOSET_KOBIS_URL": base,
            "CLOSET_KAKAO_URL": base, "CLOSET_ANIMAL_URL": base, "KOBIS_API_KEY": "any",
            "KAKAO_REST_API_KEY": "any", "ANIMAL_API_KEY": "any", "CLOSET_HTTP_HELPER": BuiltProducts.helper,
        ]
        let file = Self.goldens + "/\(name).closet"
        let served = Self.originalURLs(
            try GoldenRunner.transcript(of: file, environment: environment, network: .live).text, base: base)
        let expected = Self.cells(try String(contentsOfFile: Self.goldens + "/\(name).expected", encoding: .utf8))
        #expect(served == expected)
        for (x, y) in differingLines(served, expected) { Issue.record("served: \(x)\nexpected: \(y)") }
        #expect(server.stop() == 0)
    }
}
