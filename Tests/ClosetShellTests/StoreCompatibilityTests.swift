import ClosetCore
import Foundation
import TestSupport
import Testing

/// Stores written by earlier releases must keep opening in every later build. Each fixture
/// under `Tests/Fixtures/` is a real store made by the release that wrote its format (a
/// snapshot, a journal of later commits, a picture), with the `.dump` it gave pinned beside it.
@Suite struct StoreCompatibilityTests {
    static let fixtures = repositoryRoot + "/Tests/Fixtures"

    /// A private copy, so opening it (which takes the lock) never touches the repository.
    func copyOfFixture(_ name: String) throws -> String {
        let copy = NSTemporaryDirectory() + "closet-fixture-\(UUID().uuidString)"
        try FileManager.default.copyItem(atPath: Self.fixtures + "/" + name, toPath: copy)
        return copy
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// `closet check` reads a store of every format whole and finds nothing, changing no byte.
    @Test(arguments: [
        "format-1-store", "format-2-store", "format-3-store", "format-4-store", "format-5-store",
        "journal-format-5-store",
    ])
    func aStoreOfEveryFormatPassesTheCheck(_ fixture: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = try copyOfFixture(fixture)
        let files = ["closet-store", "snapshot", "journal"]
        let before = try files.map { try bytes(store + "/" + $0) }
        let result = try ProcessTests().run(["check", store])
        #expect(result.status == 0 && result.out.hasSuffix("\nok\n"), "\(result.out)\(result.err)")
        #expect(try files.map { try bytes(store + "/" + $0) } == before)
    }

    @Test(arguments: ["format-1-store", "format-2-store", "format-3-store"])
    func aStoreOfEveryFormatOpensAndDumpsAsItDidWhenWritten(_ fixture: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = try copyOfFixture(fixture)
        let files = ["closet-store", "snapshot", "journal"]
        let before = try files.map { try bytes(store + "/" + $0) }
        let result = try ProcessTests().run(["--store", store, "dump"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err == "")
        let pinned = try String(contentsOfFile: Self.fixtures + "/\(fixture).dump", encoding: .utf8)
        #expect(result.out == pinned)
        // Reading it changes no byte of its data.
        #expect(try files.map { try bytes(store + "/" + $0) } == before)

        // The picture travels with --images, byte for byte.
        let images = NSTemporaryDirectory() + "closet-fixture-images-\(UUID().uuidString)"
        let withImages = try ProcessTests().run(["--store", store, "dump", "--images", images])
        #expect(withImages.status == 0, "\(withImages.err)")
        let picture = "E8D7DA00-1B01-41D6-9938-10E13B72E5F7"
        #expect(try bytes(images + "/\(picture).jpg") == bytes(store + "/images/\(picture)-D08C007E.jpg"))
    }

    @Test(arguments: ["format-1-store", "format-2-store", "format-4-store"])
    func anOlderStoreIsRewrittenAsFormatFiveBeforeItsFirstCommitAndLosesNothing(_ fixture: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = try copyOfFixture(fixture)
        let added = try ProcessTests().run([
            "--store", store, "--format", "json", "-c",
            "add clothes id=00000000-0000-4000-8000-000000000001 category=top season=fall created=2026-01-01",
        ])
        #expect(added.status == 0, "\(added.err)")
        #expect(try String(contentsOfFile: store + "/closet-store", encoding: .utf8) == "closet store, format 5\n")
        for (file, magic) in [("snapshot", "CLOSETS5"), ("journal", "CLOSETJ6")] {
            #expect(try bytes(store + "/" + file).prefix(8) == Data(magic.utf8), "\(file)")
        }
        // The new snapshot's index holds (key prefixes, bucket entries: what `check` checks),
        // and a row is found by its key in it.
        let checked = try ProcessTests().run(["check", store])
        #expect(checked.status == 0 && checked.out.hasSuffix("\nok\n"), "\(checked.out)\(checked.err)")
        let pinned = try String(contentsOfFile: Self.fixtures + "/\(fixture).dump", encoding: .utf8)
        let firstID = try #require(pinned.firstMatch(of: /add clothes id=([0-9A-F-]{36})/)?.output.1)
        let shown = try ProcessTests().run(["--store", store, "--format", "json", "-c", "show clothes \(firstID)"])
        #expect(shown.status == 0 && shown.out.contains(String(firstID)), "\(shown.err)")
        // Everything that was there, plus the new row.
        var expected = pinned.components(separatedBy: "\n")
        let count = try #require(Int(expected[0].split(separator: " ")[3]))
        expected[0] = expected[0].replacingOccurrences(of: "\(count) clothes", with: "\(count + 1) clothes")
        let lastClothes = try #require(expected.lastIndex { $0.hasPrefix("let $c") })
        expected.insert(
            "let $c\(count + 1) = add clothes id=00000000-0000-4000-8000-000000000001 category=top season=fall created=2026-01-01T00:00:00Z",
            at: lastClothes + 1)
        let dumped = try ProcessTests().run(["--store", store, "dump"])
        #expect(dumped.status == 0, "\(dumped.err)")
        #expect(dumped.out == expected.joined(separator: "\n"))
    }

    /// A format-5 store's format-4 journal (an earlier build's, `format-5-store`) is not
    /// rewritten: a commit goes into it as that build would write it, so that build still opens
    /// the store; a compaction then starts a format-5 journal.
    @Test func aFormatFourJournalTakesCommitsAsItIsUntilACompaction() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = try copyOfFixture("format-5-store")
        let snapshot = try bytes(store + "/snapshot")
        let journal = try bytes(store + "/journal")
        #expect(journal.prefix(8) == Data("CLOSETJ4".utf8))
        let added = try ProcessTests().run([
            "--store", store, "-c", "add clothes id=00000000-0000-4000-8000-000000000001 category=top season=fall",
        ])
        #expect(added.status == 0, "\(added.err)")
        let grown = try bytes(store + "/journal")
        #expect(grown.prefix(8) == Data("CLOSETJ4".utf8))
        #expect(
            grown.count > journal.count
                && grown.suffix(from: StoreCompatibilityTests.recordsStart).starts(
                    with: journal.suffix(from: StoreCompatibilityTests.recordsStart))
        )
        #expect(try bytes(store + "/snapshot") == snapshot)
        // The record holds a put (kind 1) of the new row, not an insert: after the operation
        // count (4 bytes) and the table's name.
        let record = grown.suffix(from: journal.count)
        let kind = record[record.startIndex + 16 + 4 + 1 + "clothes".utf8.count]
        #expect(kind == 1)
        // A commit of more changes than the journal holds is a compaction.
        let script = NSTemporaryDirectory() + "closet-many-\(UUID().uuidString).closet"
        try (0..<300).map { "add clothes category=top season=fall description=\"many \($0)\"\n" }.joined()
            .write(toFile: script, atomically: true, encoding: .utf8)
        let compacted = try ProcessTests().run(["--store", store, "run", script])
        #expect(compacted.status == 0, "\(compacted.err)")
        #expect(try bytes(store + "/journal").prefix(8) == Data("CLOSETJ6".utf8))
        let shown = try ProcessTests().run([
            "--store", store, "--format", "json", "-c", "show clothes 00000000-0000-4000-8000-000000000001",
        ])
        #expect(shown.status == 0 && shown.out.contains("00000000-0000-4000-8000-000000000001"), "\(shown.err)")
    }

    /// Where a format-4 or 5 journal's records start: after its header and commit points.
    static let recordsStart = 84

    /// The rewrite as format 5 goes snapshot, journal, marker, each by an atomic rename: a
    /// crash after any step leaves a store that opens holding what was committed.
    @Test(arguments: ["format-1-store", "format-2-store", "format-3-store", "format-4-store"])
    func aRewriteCutShortAfterAnyStepOpensWithEverything(_ fixture: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let pinned = try String(contentsOfFile: Self.fixtures + "/\(fixture).dump", encoding: .utf8)
        // After the snapshot only: the old marker and journal beside the new snapshot (the old
        // journal is inside it).
        let snapshotOnly = try copyOfFixture(fixture)
        let oldJournal = try bytes(snapshotOnly + "/journal")
        let oldMarker = try bytes(snapshotOnly + "/closet-store")
        let added = try ProcessTests().run([
            "--store", snapshotOnly, "-c", "add clothes category=top season=fall description=later",
        ])
        #expect(added.status == 0, "\(added.err)")
        try oldJournal.write(to: URL(fileURLWithPath: snapshotOnly + "/journal"))
        try oldMarker.write(to: URL(fileURLWithPath: snapshotOnly + "/closet-store"))
        let first = try ProcessTests().run(["--store", snapshotOnly, "dump"])
        #expect(first.status == 0 && first.out == pinned, "\(first.err)")
        // After the journal too, before the marker: the commit is there.
        let beforeMarker = try copyOfFixture(fixture)
        #expect(
            try ProcessTests().run([
                "--store", beforeMarker, "-c", "add clothes category=top season=fall description=later",
            ]).status == 0)
        try oldMarker.write(to: URL(fileURLWithPath: beforeMarker + "/closet-store"))
        let second = try ProcessTests().run(["--store", beforeMarker, "dump"])
        #expect(second.status == 0 && second.out.contains("description=\"later\""), "\(second.err)")
        // And the next commit finishes the rewrite.
        for store in [snapshotOnly, beforeMarker] {
            #expect(
                try ProcessTests().run(["--store", store, "-c", "add clothes category=top season=fall"]).status == 0)
            #expect(try bytes(store + "/journal").prefix(8) == Data("CLOSETJ6".utf8))
            #expect(try String(contentsOfFile: store + "/closet-store", encoding: .utf8) == "closet store, format 5\n")
        }
    }

    /// The stores of formats 4 and 5 hold every pack with stored data (clothes and styles,
    /// saved photos, products with password hashes, stories, comments, likes and donations), in
    /// their snapshots and in their journals: every pack's row codec is held still by them, and
    /// their pictures travel with `--images` into a new store that dumps the same rows.
    @Test(arguments: [
        ("format-4-store", "CLOSETS4"), ("format-5-store", "CLOSETS5"), ("journal-format-5-store", "CLOSETS5"),
    ])
    func theStoreOfEveryPackOpensDumpsAndTravelsWithItsPictures(_ fixture: String, _ magic: String) throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let store = try copyOfFixture(fixture)
        let files = ["closet-store", "snapshot", "journal"]
        let before = try files.map { try bytes(store + "/" + $0) }
        let snapshotRows = try bytes(store + "/snapshot").count
        #expect(snapshotRows > 1_000, "the fixture's snapshot holds rows, not only the empty one a store starts with")
        let result = try ProcessTests().run(["--store", store, "dump"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.err == "")
        let pinned = try String(contentsOfFile: Self.fixtures + "/\(fixture).dump", encoding: .utf8)
        #expect(result.out == pinned)
        #expect(try files.map { try bytes(store + "/" + $0) } == before)

        let folder = NSTemporaryDirectory() + "closet-fixture-\(fixture)-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let dumped = try ProcessTests().run(["--store", store, "dump", "--images", folder + "/pictures"])
        #expect(dumped.status == 0, "\(dumped.err)")
        try dumped.out.write(toFile: folder + "/all.closet", atomically: true, encoding: .utf8)
        let copy = folder + "/store"
        let replayed = try ProcessTests().run(["--store", copy, "run", folder + "/all.closet"])
        #expect(replayed.status == 0, "\(replayed.err)")
        let again = try ProcessTests().run(["--store", copy, "dump", "--images", folder + "/again"])
        #expect(again.status == 0, "\(again.err)")
        #expect(again.out.replacingOccurrences(of: "/again/", with: "/pictures/") == dumped.out)
        for line in [
            "let $c1 = add clothes", "add saved", "add product", "add story", "add comment", "like story", "donate",
        ] {
            #expect(dumped.out.contains("\n" + line), "\(line)")
        }
        let pictures = try FileManager.default.contentsOfDirectory(atPath: folder + "/pictures")
        let copied = try FileManager.default.contentsOfDirectory(atPath: folder + "/again")
        #expect(pictures.count == copied.count && pictures.count >= 7)
        for name in pictures {
            #expect(try bytes(folder + "/pictures/" + name) == bytes(folder + "/again/" + name), "\(name)")
        }
        // Read in place through the fixture's index (format 4's: key order and bucket lists of
        // ordinals alone) and through this build's in the copy, statements answer alike.
        #expect(try bytes(store + "/snapshot").prefix(8) == Data(magic.utf8))
        #expect(try bytes(copy + "/snapshot").prefix(8) == Data("CLOSETS5".utf8))
        let clothes = try ProcessTests().run(["--store", store, "--format", "csv", "-c", "list clothes"])
        // CSV lines end in CRLF (RFC 4180).
        let someID = try #require(
            clothes.out.components(separatedBy: "\r\n").dropFirst(3).first?.split(separator: ",").first, "\(clothes)")
        for statement in [
            "list clothes limit=3", "list clothes season=winter limit=2", "count clothes season=fall",
            "show clothes \(someID)", "list products limit=2", "show product 2", "list stories limit=2", "show story 2",
        ] {
            let four = try ProcessTests().run(["--store", store, "--format", "json", "-c", statement])
            let five = try ProcessTests().run(["--store", copy, "--format", "json", "-c", statement])
            // The copy's pictures were stored anew, under new names.
            func named(_ output: String) -> String {
                output.replacingOccurrences(
                    of: "[0-9A-F-]{36}-[0-9A-F]{8}\\.", with: "PICTURE.", options: .regularExpression)
            }
            #expect(four.status == 0 && named(four.out) == named(five.out), "\(statement): \(four.err)")
            #expect(four.out.count >= 12, "\(statement)")
        }
        #expect(try files.map { try bytes(store + "/" + $0) } == before)
    }
}
