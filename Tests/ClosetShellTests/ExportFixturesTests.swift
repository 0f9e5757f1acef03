import Foundation
import TestSupport
import Testing

/// Issue 46, item 3: `export fixtures` writes, for each of its requests, exactly the body
/// `closet serve` answers on the same store.
@Suite(.serialized) struct ExportFixturesTests {
    static let pictures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden/images/fixtures").path

    @Test func eachFileIsWhatTheServerAnswers() throws {
        let store = NSTemporaryDirectory() + "closet-fixtures-\(UUID().uuidString)"
        let folder = store + "-out"
        defer {
            try? FileManager.default.removeItem(atPath: store)
            try? FileManager.default.removeItem(atPath: folder)
        }
        var statements = [
            "add product title=\"Mac mini\" price=890000 currency=KRW stock=3 description=M1 image=\(Self.pictures)/knit.png password=1234",
            "add product title=Lamp price=10 currency=USD stock=0 description=bright image=\(Self.pictures)/boots.jpg password=1234",
            ".user 민지", "add account password=\"dog lover 1\"",
        ]
        // Twelve stories: two pages of ten.
        for number in 1...12 { statements.append("add story title=\"story \(number)\" content=text") }
        statements += ["add comment story=12 text=축하해요", "like story 11", "donate amount=5000"]
        let seeded = try ChildProcess.run(
            BuiltProducts.closet, ["--deterministic", "--store", store] + statements.flatMap { ["-c", $0] })
        #expect(seeded.status == 0, "\(seeded.err)")
        let server = try ServeProcess(store: store)
        defer { server.stop() }
        for api in ["market", "community"] {
            let exported = try ChildProcess.run(
                BuiltProducts.closet,
                [
                    "--deterministic", "--store", store, "--user", "민지", "-c",
                    "export fixtures \(api) to=\(folder)/\(api) base=\(server.baseURL)",
                ])
            #expect(exported.status == 0, "\(exported.err)")
        }
        let signIn = try ChildProcess.run(
            "/usr/bin/curl",
            [
                "-s", "-H", "Content-Type: application/json", "-d", #"{"name":"민지","password":"dog lover 1"}"#,
                server.baseURL + "/community/auth/signin",
            ])
        let token =
            ((try? JSONSerialization.jsonObject(with: Data(signIn.out.utf8))) as? [String: Any])?["accessToken"]
            as? String ?? ""
        let expected: [(file: String, path: String)] = [
            ("market/items-1.json", "/items/1"), ("market/item-2.json", "/item/2"), ("market/item-1.json", "/item/1"),
            ("community/stories-1.json", "/community/stories?limit=10"),
            ("community/stories-2.json", "/community/stories?limit=10&after=c3.e77685"),
            ("community/story-12.json", "/community/stories/12"), ("community/story-3.json", "/community/stories/3"),
            ("community/profile.json", "/community/profile"),
        ]
        for (file, path) in expected {
            let written = FileManager.default.contents(atPath: folder + "/" + file)
            let served = try ChildProcess.run(
                "/usr/bin/curl", ["-s", "-H", "Authorization: Bearer " + token, server.baseURL + path])
            #expect(written != nil && written == Data(served.out.utf8), "\(file)")
        }
        // The second page ends the walk: no third file.
        #expect(!FileManager.default.fileExists(atPath: folder + "/community/stories-3.json"))
    }

    /// An API answered from recordings: each recorded 200 JSON answer, as the server replaying
    /// the same folder gives it (its picture URLs pointed at the server).
    @Test func aReplayedAPIsFixturesAreWhatTheReplayingServerAnswers() throws {
        let folder = NSTemporaryDirectory() + "closet-fixtures-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recordings = Self.pictures + "/../../photos/http"
        let server = try ServeProcess(store: ":memory:", serveArguments: ["--replay", recordings])
        defer { server.stop() }
        let exported = try ChildProcess.run(
            BuiltProducts.closet,
            [
                "--store", ":memory:", "-c",
                "export fixtures unsplash to=\(folder) base=\(server.baseURL) replay=\(recordings)",
            ])
        #expect(exported.status == 0, "\(exported.err)")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(files.contains("photos-page-1-per_page-15.json") && files.contains("ph39qtbxicj.json"), "\(files)")
        for (file, path) in [
            ("photos-page-1-per_page-15.json", "/photos?page=1&per_page=15"),
            ("ph39qtbxicj.json", "/photos/ph39qtbxicj"),
        ] {
            let served = try ChildProcess.run(
                "/usr/bin/curl", ["-s", "-H", "Authorization: Client-ID test", server.baseURL + path])
            #expect(FileManager.default.contents(atPath: folder + "/" + file) == Data(served.out.utf8), "\(file)")
        }
        // Without the recordings, nothing is written and the error says what is missing.
        let bare = try ChildProcess.run(
            BuiltProducts.closet, ["--store", ":memory:", "-c", "export fixtures unsplash to=\(folder)/none"])
        #expect(bare.status != 0 && bare.err.contains("give replay=<folder>"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/none"))
    }
}
