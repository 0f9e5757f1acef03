import ClosetCore
import ClosetLanguage
import ClosetPictures
import ClosetShell
import Foundation
import TestSupport
import Testing

@testable import ClosetStore

/// Issue 44, item 6: a damage campaign over a store that holds every pack's rows with
/// pictures (clothes with a picture in a file and one kept inline, a product with two, a story,
/// a saved photo), a snapshot and a journal after it. Each round damages one file (the
/// snapshot, the journal, the marker or a picture) in one way (a flipped bit, a cut, a zeroed
/// 4 KiB page, the file deleted, an older copy put back) and asks the closet binary what a user
/// would: the store is refused with no byte changed or every answer is exact; `closet check`
/// names the damage; `dump --images` never succeeds over it; `closet recover` ends in a store
/// that passes `closet check`. Bounded: 40 rounds, seeded (a longer run: `CLOSET_CAMPAIGN_ROUNDS`).
@Suite struct DamageCampaignTests {
    static func picture(_ seed: Int, side: Int) -> [UInt8] {
        SampleImages.noisyPNG(side: side, seed: UInt64(seed))
    }

    /// The store, and the older snapshot and journal it had before its last compaction.
    static func makeStore() throws -> (path: String, older: [String: [UInt8]]) {
        let path = NSTemporaryDirectory() + "closet-campaign-\(UUID().uuidString)"
        let store = try DurableStore(path: path, tables: SessionFactory.tables) { _ in }
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let host = RecordingHost()
        for (name, seed, side) in [("a", 1, 40), ("b", 2, 12), ("c", 3, 40), ("d", 4, 40), ("e", 5, 40), ("f", 6, 40)] {
            host.binaryFiles[name + ".png"] = picture(seed, side: side)
        }
        let session = try SessionFactory.makeSession(store: store, host: host, configuration)
        for statement in [
            "add clothes category=top season=fall description=\"file\" image=a.png",
            "add clothes category=shoes season=winter description=\"inline\" image=b.png",
            "add product title=lamp price=100 currency=KRW stock=1 description=desk image=c.png,d.png password=1234",
            "add story title=\"콩이\" content=\"입양 1년\" image=e.png",
        ] {
            #expect(session.executeAndCommit(StatementSource(statement)), "\(host.standardError)")
        }
        let older = ["snapshot", "journal"].reduce(into: [String: [UInt8]]()) {
            $0[$1] = try? POSIXFile.readAll(path + "/" + $1) ?? []
        }
        // Two compactions after the older copies: an older journal put back is then older than
        // the snapshot. (The journal a compaction read, put back right after it, is byte for
        // byte what a crash between its renames leaves, and cannot be told from it.)
        try store.compact()
        #expect(
            session.executeAndCommit(
                StatementSource(
                    "add saved id=abc url=\"https://images.unsplash.com/photo-abc\" image=f.png height=100 memo=\"마지막\""
                )
            ), "\(host.standardError)")
        try store.compact()
        #expect(session.executeAndCommit(StatementSource("like story 1")), "\(host.standardError)")
        withExtendedLifetime(store) {}
        return (path, older)
    }

    static func files(_ path: String) -> [String: [UInt8]] {
        var all: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.subpathsOfDirectory(atPath: path)) ?? [] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path + "/" + name, isDirectory: &isDirectory),
                !isDirectory.boolValue, name != "lock"
            else { continue }
            all[name] = FileManager.default.contents(atPath: path + "/" + name).map { [UInt8]($0) }
        }
        return all
    }

    @Test func everyDamageIsRefusedOrExactNamedByCheckAndRecovered() throws {
        let closet = BuiltProducts.closet
        let (template, older) = try Self.makeStore()
        defer { try? FileManager.default.removeItem(atPath: template) }
        let expected = try ChildProcess.run(closet, ["--store", template, "dump"])
        #expect(
            expected.status == 0 && expected.out.contains("add saved") && expected.out.contains("like story 1"),
            "\(expected.err)")
        let whole = Self.files(template)
        let targets = whole.keys.sorted()
        #expect(targets.filter { $0.hasPrefix("images/") }.count == 5, "\(targets)")  // b.png is inline
        let rounds = Int(ProcessInfo.processInfo.environment["CLOSET_CAMPAIGN_ROUNDS"] ?? "") ?? 40
        var random = SeededRandom(seed: 44)
        func below(_ bound: Int) -> Int { Int(random.next() % UInt64(max(bound, 1))) }
        var outcomes: [String: Int] = [:]
        for round in 0..<rounds {
            let path = template + "-round-\(round)"
            defer {
                for suffix in ["", "-images", "-recovered"] {
                    try? FileManager.default.removeItem(atPath: path + suffix)
                }
            }
            try FileManager.default.copyItem(atPath: template, toPath: path)
            let file = targets[below(targets.count)]
            let original = whole[file] ?? []
            var damaged: [UInt8]? = original
            var kind = ["flip", "cut", "zero", "delete", "older"][below(5)]
            if kind == "older", older[file] == nil { kind = "flip" }
            switch kind {
            case "flip": damaged?[below(original.count)] ^= UInt8(1 << below(8))
            case "cut": damaged = Array(original.prefix(below(original.count)))
            case "zero":
                let page = below((original.count + 4095) / 4096) * 4096
                for at in page..<min(original.count, page + 4096) { damaged?[at] = 0 }
            case "delete": damaged = nil
            default: damaged = older[file]
            }
            // A page already zero, or an older copy the same as now: no damage, another round.
            guard damaged != original else { continue }
            outcomes[kind + " " + (file.hasPrefix("images/") ? "picture" : file), default: 0] += 1
            if let damaged {
                try Data(damaged).write(to: URL(fileURLWithPath: path + "/" + file))
            } else {
                try FileManager.default.removeItem(atPath: path + "/" + file)
            }
            let what = "round \(round): \(kind) \(file)"
            let before = Self.files(path)
            // Refused with nothing changed, or every answer exact.
            let dumped = try ChildProcess.run(closet, ["--store", path, "dump"])
            if dumped.status == 0 {
                #expect(dumped.out == expected.out, "\(what)")
                outcomes["opened", default: 0] += 1
            } else {
                #expect(dumped.status == 3, "\(what): \(dumped.err)")
                outcomes["refused", default: 0] += 1
            }
            #expect(Self.files(path) == before, "\(what): a file changed")
            // `closet check` names it: as damage (exit 1 or 3), or, where the damage left a
            // state a crash leaves too (a commit point cut as it was written, a marker naming an
            // older format) with every answer exact, on a line of its own.
            let checked = try ChildProcess.run(closet, ["check", path])
            let picture = file.hasPrefix("images/")
            if checked.status == 0 {
                #expect(
                    !picture && dumped.status == 0 && dumped.out == expected.out
                        && (checked.out.contains("unfinished") || checked.out.contains("marker")),
                    "\(what): check said \(checked.out)")
                outcomes["told, as a crash's state", default: 0] += 1
            }
            // A backup with its pictures never succeeds over a damaged or missing picture.
            let backup = try ChildProcess.run(closet, ["--store", path, "dump", "--images", path + "-images"])
            #expect(
                backup.status != 0 || (!picture && dumped.status == 0),
                "\(what): dump --images exited 0 over a damaged store")
            // Recovery ends in a store that passes its check.
            let recovered = try ChildProcess.run(closet, ["recover", path, path + "-recovered"])
            #expect(recovered.status == 0 || recovered.status == 1, "\(what): \(recovered.err)")
            let again = try ChildProcess.run(closet, ["check", path + "-recovered"])
            #expect(again.status == 0, "\(what): the recovered store fails its check: \(again.out) \(again.err)")
        }
        #expect(outcomes["refused", default: 0] > 0 && outcomes["opened", default: 0] > 0, "\(outcomes)")
        // A longer run says what it found.
        if ProcessInfo.processInfo.environment["CLOSET_CAMPAIGN_ROUNDS"] != nil { print("campaign: \(outcomes)") }
    }
}
