import ClosetCore
import ClosetPictures
import Foundation
import TestSupport
import Testing

@testable import ClosetStore

#if canImport(Glibc)
    import Glibc
#endif

/// Kills the real binary with SIGKILL at random moments and checks the store it leaves:
/// it opens, and it holds exactly the transactions that completed. `CLOSET_CRASH_KILLS`
/// sets how many kills (CI keeps it small; `Scripts/crash-test` runs 100).
@Suite(.serialized) struct CrashTests {
    static let binary = ProcessTests.binary
    static let kills = Int(ProcessInfo.processInfo.environment["CLOSET_CRASH_KILLS"] ?? "") ?? 4
    static let communityClient = repositoryRoot + "/Tests/Network/community_client.py"

    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs to completion and returns standard output, failing the test on a non-zero exit.
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "closet \(arguments.joined(separator: " "))")
        return String(decoding: data, as: UTF8.self)
    }

    func descriptions(in store: String) throws -> [String] {
        let json = try run(["--store", store, "--format", "json", "-c", "list clothes sort=old"])
        guard let rows = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]] else { return [] }
        return rows.compactMap { $0["description"] as? String }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashTests.binary)))
    func killedRunsCommitAllOrNothing() throws {
        let store = NSTemporaryDirectory() + "closet-crash-run-\(UUID().uuidString)"
        let statements = 3000
        var expected = 0
        var generator = SystemRandomNumberGenerator()
        for round in 0..<Self.kills {
            let script = NSTemporaryDirectory() + "closet-crash-\(round).closet"
            let lines = (0..<statements).map { "add clothes category=top season=fall description=\"r\(round)-\($0)\"" }
            try (lines.joined(separator: "\n") + "\n").write(toFile: script, atomically: true, encoding: .utf8)
            let process = try start(["--store", store, "run", script])
            usleep(UInt32.random(in: 0...1_200_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let finished = process.terminationReason == .exit && process.terminationStatus == 0
            let count = try descriptions(in: store).count
            if finished {
                expected += statements
                #expect(count == expected, "round \(round): a run that finished lost rows")
            } else {
                #expect(
                    count == expected || count == expected + statements,
                    "round \(round): \(count) rows, a partial transaction")
                expected = count
            }
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashTests.binary)))
    func killedStatementsNeverLoseAReportedSuccess() throws {
        let store = NSTemporaryDirectory() + "closet-crash-c-\(UUID().uuidString)"
        var reported: Set<String> = []
        var uncertain: Set<String> = []
        var generator = SystemRandomNumberGenerator()
        var kills = 0
        var index = 0
        while kills < Self.kills * 4 {
            index += 1
            let name = "c\(index)"
            let process = try start([
                "--store", store, "-c", "add clothes category=top season=fall description=\(name)",
            ])
            if Bool.random(using: &generator) {
                usleep(UInt32.random(in: 0...40_000, using: &generator))
                kill(process.processIdentifier, SIGKILL)
                kills += 1
            }
            process.waitUntilExit()
            if process.terminationReason == .exit && process.terminationStatus == 0 {
                reported.insert(name)
            } else {
                uncertain.insert(name)
            }
        }
        let present = Set(try descriptions(in: store))
        #expect(reported.isSubset(of: present), "lost: \(reported.subtracting(present).sorted())")
        #expect(present.isSubset(of: reported.union(uncertain)))
    }

    /// `closet serve` killed while a client posts stories as fast as it answers: its writer
    /// compacts in the background every 256 posts (`BackgroundCompaction`), so the kills land
    /// in every step of it — the delta (or, once it passes its share, the snapshot) being made,
    /// named, the new journal carrying the commits made meanwhile. The store starts with 6,000
    /// stories, so compactions write deltas (`DeltaFile`) and merge them. Every post answered
    /// 201 is in the store; nothing else is, but the one in flight; the store checks whole.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashTests.binary)))
    func killedServerNeverLosesAnAnsweredPost() throws {
        let store = NSTemporaryDirectory() + "closet-crash-serve-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        var answered: Set<String> = []
        var tried: Set<String> = []
        var generator = SystemRandomNumberGenerator()
        let seed = store + ".closet"
        defer { try? FileManager.default.removeItem(atPath: seed) }
        try (1...6_000).map { "add story id=\($0) title=\"seed \($0)\" content=seed author=user\($0 % 50)" }
            .joined(separator: "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        _ = try run(["--store", store, "--quiet", "run", seed])
        var roundsEndingOnADelta = 0
        for round in 0..<max(Self.kills, 3) {
            let server = try ServeProcess(store: store, serveArguments: ["--quiet", "adoption"])
            let address = server.baseURL.dropFirst("http://".count).split(separator: ":")
            let client = Process()
            client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            client.arguments = [
                "python3", Self.communityClient, String(address[0]), String(address[1]), "-", "post-until-stopped",
                "writer\(round % 2)",
            ]
            let output = Pipe()
            client.standardOutput = output
            try client.run()
            usleep(UInt32.random(in: 800_000...2_500_000, using: &generator))
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            client.waitUntilExit()
            for line in lines.split(separator: "\n") {
                let parts = line.split(separator: " ", maxSplits: 1).map(String.init)
                guard parts.count == 2 else { continue }
                if parts[0] == "ok" { answered.insert(parts[1]) }
                if parts[0] == "try" { tried.insert(parts[1]) }
            }
            #expect(client.terminationStatus == 0, "round \(round): the client stopped on an answer that was not 201")
            if FileManager.default.fileExists(atPath: store + "/delta") { roundsEndingOnADelta += 1 }
        }
        #expect(roundsEndingOnADelta > 0, "no compaction wrote a delta")
        // Enough posts that the writer compacted in the background, in more than one round.
        #expect(answered.count > 300, "\(answered.count) posts answered")
        let export = store + "-stories.json"
        defer { try? FileManager.default.removeItem(atPath: export) }
        _ = try run(["--store", store, "-c", "export stories to=\(export)"])
        let rows =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: export))) as? [[String: Any]]
        let titles = (rows ?? []).compactMap { $0["title"] as? String }
        #expect(Set(titles.filter { $0.hasPrefix("seed ") }).count == 6_000, "the seeded stories are all there")
        let present = Set(titles.filter { !$0.hasPrefix("seed ") })
        let lost = answered.subtracting(present)
        #expect(lost.isEmpty, "\(lost.count) answered posts lost: \(lost.sorted().prefix(20))")
        let unknown = present.subtracting(tried)
        #expect(unknown.isEmpty, "never posted: \(unknown.sorted().prefix(20))")
        #expect(try run(["--store", store, "check"]).hasSuffix("ok\n"))
    }

    /// Statements from stdin (as at the prompt) compact in the background: the commit that makes
    /// the store due is journaled and the snapshot is made from the journal holding it (a commit
    /// that compacted in the foreground would be written as the snapshot, its journal recorded
    /// without it), named when the session ends. Then 700 more: every row is there, the store checks whole.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashTests.binary)))
    func statementsFromStdinCompactInTheBackground() throws {
        let store = NSTemporaryDirectory() + "closet-stdin-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: store) }
        let seed = store + ".closet"
        defer { try? FileManager.default.removeItem(atPath: seed) }
        try (0..<2_000).map { "add clothes category=top season=fall description=\"s\($0)\"" }
            .joined(separator: "\n").write(toFile: seed, atomically: true, encoding: .utf8)
        _ = try run(["--store", store, "--quiet", "run", seed])
        func snapshot() throws -> (generation: UInt64, madeFrom: Int?) {
            let bytes = try #require(try POSIXFile.readAll(store + "/snapshot"))
            let header = try #require(try bytes.withUnsafeBytes { try StoreFormat.snapshotHeader(memory: $0) })
            return (header.generation, CompactedJournal(snapshot: bytes, header: header)?.transactions)
        }
        func pipe(_ count: Int, from first: Int) throws {
            let lines = (first..<(first + count)).map { "add clothes category=top season=fall description=\"p\($0)\"" }
            let piped = try ChildProcess.run(
                Self.binary, ["--store", store, "--quiet"],
                stdinBytes: Array((lines.joined(separator: "\n") + "\n").utf8))
            #expect(piped.status == 0, "\(piped.err)")
        }
        let before = try snapshot().generation
        // One add is one change: the 257th passes the rule for a 2,000-row store (256).
        try pipe(257, from: 0)
        #expect(try snapshot().generation == before + 1)
        #expect(try snapshot().madeFrom == 257, "the commit that made the store due was journaled first")
        try pipe(700, from: 257)
        #expect(try snapshot().generation >= before + 3, "two or more compactions in 700 commits")
        #expect(try run(["--store", store, "-c", "count clothes"]).contains("2957"))
        #expect(try run(["--store", store, "check"]).hasSuffix("ok\n"))
    }

    /// Pictures are written when their statement runs and synced with their commit: a kill at
    /// any moment leaves every committed picture whole (`.dump --images` checks each one's size
    /// and checksum), and the next writer removes the pictures of what never committed. Both
    /// kinds: a picture big enough to be a file, and a small one kept inline (a row).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: CrashTests.binary)), arguments: [false, true])
    func killedRunsLeaveEveryCommittedPictureWhole(inline: Bool) throws {
        let store = NSTemporaryDirectory() + "closet-crash-pictures-\(UUID().uuidString)"
        let picture = store + ".png"
        let bytes =
            inline
            ? try Data(contentsOf: URL(fileURLWithPath: repositoryRoot + "/Tests/Golden/images/fixtures/knit.png"))
            : Data(SampleImages.noisyPNG(side: 40))
        try bytes.write(to: URL(fileURLWithPath: picture))
        defer { try? FileManager.default.removeItem(atPath: picture) }
        var generator = SystemRandomNumberGenerator()
        for round in 0..<Self.kills {
            let script = NSTemporaryDirectory() + "closet-crash-pictures-\(inline)-\(round).closet"
            let lines = (0..<1000).map {
                "add clothes category=top season=fall description=\"p\(round)-\($0)\" image=\(picture)"
            }
            try (lines.joined(separator: "\n") + "\n").write(toFile: script, atomically: true, encoding: .utf8)
            let process = try start(["--store", store, "run", script])
            usleep(UInt32.random(in: 0...300_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        let count = try descriptions(in: store).count
        let folder = NSTemporaryDirectory() + "closet-crash-pictures-dump-\(UUID().uuidString)"
        _ = try run(["--store", store, "dump", "--images", folder])
        let copied = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        #expect(copied.count == count, "\(copied.count) pictures for \(count) clothes")
        // One more write: every picture left in the store is a committed row's.
        _ = try run(["--store", store, "-c", "add clothes category=top season=fall description=last"])
        let details = try run(["--store", store, "-c", ".store"])
        let files = try FileManager.default.contentsOfDirectory(atPath: store + "/images")
        #expect(files.count == (inline ? 0 : count), "\(files.count) files for \(count) pictures")
        if inline, count > 0 {
            let pictures = "\(count) picture\(count == 1 ? "" : "s")"
            #expect(details.contains("inline images  \(pictures), \(count * bytes.count) bytes"), "\(details)")
        }
    }
}
