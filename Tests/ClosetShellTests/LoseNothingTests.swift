import Foundation
import TestSupport
import Testing

@testable import ClosetShell

/// Issue 22: what a user was told was saved is never lost, and no input ends closet with a
/// trap. Each test runs the real binary.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: ProcessTests.binary)))
struct LoseNothingTests {
    func closet(_ arguments: [String], stdin: String = "", environment: [String: String] = [:], in directory: String)
        throws -> (status: Int32, out: String, err: String)
    {
        try ProcessTests().run(arguments, stdinBytes: Array(stdin.utf8), environment: environment, in: directory)
    }

    func temporaryFolder() throws -> String {
        let folder = NSTemporaryDirectory() + "closet-lose-nothing-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Foundation's `deletingLastPathComponent` traps on one-character paths: every path a
    /// user can give is one character long here.
    @Test func oneCharacterPathsDoNotTrap() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let add = try closet(["--store", "s", "-c", "add clothes category=top season=fall description=x"], in: folder)
        #expect(add.status == 0, "\(add.err)")
        let environment = try closet(["-c", "count clothes"], environment: ["CLOSET_STORE": "q"], in: folder)
        #expect(environment.status == 0, "\(environment.err)")
        let open = try closet(["--store", ":memory:", "-c", ".open z", "-c", "count clothes"], in: folder)
        #expect(open.status == 0, "\(open.err)")
        let recover = try closet(["recover", "s", "c"], in: folder)
        #expect(recover.status == 0 && recover.out.contains("recovered 1 row into 'c'"), "\(recover.err)")
        let notAStore = try closet(["recover", "ab", "c"], in: folder)
        #expect(notAStore.status == 3, "\(notAStore.err)")
        try "count clothes\n".write(toFile: folder + "/r", atomically: true, encoding: .utf8)
        let run = try closet(["--store", "s", "run", "r"], in: folder)
        #expect(run.status == 0 && run.out.contains("1"), "\(run.err)")
    }

    /// A store path is the user's text: ESC, OSC 52, BEL and RLO never reach the terminal raw.
    @Test func storePathsAreEscapedInMessages() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let hostile = "f\u{1B}]52;c;aGk=\u{07}\u{202E}"
        FileManager.default.createFile(atPath: folder + "/" + hostile, contents: Data())
        let open = try closet(["--store", hostile, "-c", "count clothes"], in: folder)
        let recover = try closet(["recover", hostile], in: folder)
        let reopen = try closet(["--store", ":memory:", "-c", ".open '\(hostile)'"], in: folder)
        for result in [open, recover, reopen] {
            #expect(result.status != 0)
            #expect(!result.err.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" || $0 == "\u{202E}" })
            #expect(result.err.contains("f\\e]52;c;aGk=\\u{7}\\u{202E}"), "\(result.err)")
        }
    }

    /// Runs closet with standard output on `/dev/full` (every write fails with ENOSPC).
    func closetIntoFullDisk(_ arguments: [String], in directory: String) throws -> (status: Int32, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessTests.binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try #require(FileHandle(forWritingAtPath: "/dev/full"))
        let error = Pipe()
        process.standardError = error
        try process.run()
        let err = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, err)
    }

    /// `closet dump > backup.closet` on a full disk must not exit 0 with part of the dump.
    @Test func aFailedWriteToStandardOutputIsAnError() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seed = (0..<300).map { "add clothes category=top season=fall description=\"knit \($0)\"\n" }.joined()
        try seed.write(toFile: folder + "/seed.closet", atomically: true, encoding: .utf8)
        #expect(try closet(["--store", "s", "run", "seed.closet"], in: folder).status == 0)
        for arguments in [
            ["--store", "s", "dump"], ["--store", "s", "-c", "list clothes"],
            ["--store", "s", "-c", "add clothes category=top season=fall description=y"],
            ["--store", "s", "--format", "json", "run", "seed.closet"],
        ] {
            let result = try closetIntoFullDisk(arguments, in: folder)
            #expect(result.status == 1, "\(arguments)")
            #expect(result.err.contains("error: cannot write to standard output: the disk is full"), "\(result.err)")
        }
    }

    /// `.output` on a full disk: its error is said once, the statement fails, and what could
    /// not be written is not also sent to standard output.
    @Test func aFailedOutputFileIsReportedOnce() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try ".output /dev/full\nadd clothes category=top season=fall description=x\nlist clothes\n"
            .write(toFile: folder + "/o.closet", atomically: true, encoding: .utf8)
        let result = try closet(["--store", ":memory:", "run", "o.closet"], in: folder)
        #expect(result.status == 1)
        #expect(result.out == "")
        #expect(result.err == "error: cannot write '/dev/full': the disk is full\n", "\(result.err)")
        let prompt = try closet(
            ["--store", ":memory:", "-c", ".output /dev/full", "-c", "count clothes", "-c", "count styles"], in: folder)
        #expect(prompt.status == 1)
        #expect(prompt.err == "error: cannot write '/dev/full': the disk is full\n", "\(prompt.err)")
        // The next statement's results are shown again, once.
        #expect(prompt.out.components(separatedBy: "count").count == 2, "\(prompt.out)")
    }

    /// Five single-statement commits make a journal-only store (no snapshot of data yet).
    func journalOnlyStore(in folder: String) throws -> String {
        for n in 1...5 {
            let added = try closet(
                ["--store", "s", "-c", "add clothes category=top season=fall description=k\(n)"], in: folder)
            try #require(added.status == 0, "\(added.err)")
        }
        return folder + "/s"
    }

    /// Item 1: a deleted, emptied or shortened journal of a store that has committed is
    /// damage (exit 3, nothing changed), never a store that counts 0 and takes new commits.
    @Test func aJournalOnlyStoreWhoseJournalWentIsRefused() throws {
        let damages: [(String, String)] = [
            ("rm s/journal", "its journal is missing"),
            (": > s/journal", "its journal is cut short (0 bytes)"),
            ("truncate -s 5 s/journal", "its journal is cut short (5 bytes)"),
            ("truncate -s 84 s/journal", "5 committed transactions end at byte"),
            ("rm s/journal s/snapshot", "its snapshot and its journal are missing"),
        ]
        for (damage, expected) in damages {
            let folder = try temporaryFolder()
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let store = try journalOnlyStore(in: folder)
            let shell = Process()
            shell.executableURL = URL(fileURLWithPath: "/bin/sh")
            shell.arguments = ["-c", damage]
            shell.currentDirectoryURL = URL(fileURLWithPath: folder)
            try shell.run()
            shell.waitUntilExit()
            let before = try FileManager.default.contentsOfDirectory(atPath: store).sorted().map {
                ($0, FileManager.default.contents(atPath: store + "/" + $0))
            }
            for statement in ["count clothes", "add clothes category=top season=fall description=later"] {
                let result = try closet(["--store", "s", "-c", statement], in: folder)
                #expect(result.status == 3, "\(damage): \(statement): \(result.out)")
                #expect(
                    result.err.contains(expected) && result.err.contains("closet recover"), "\(damage): \(result.err)")
            }
            let after = try FileManager.default.contentsOfDirectory(atPath: store).sorted().map {
                ($0, FileManager.default.contents(atPath: store + "/" + $0))
            }
            #expect(before.map(\.0) == after.map(\.0) && before.map(\.1) == after.map(\.1), "\(damage) changed a file")
        }
    }

    /// Item 2: a torn tail after the commit point (a crash's unfinished commit) is read around
    /// by readers, who change no byte; the next writer says how much it drops, then cuts it.
    @Test func onlyAWriterCutsATornTailAfterSayingSo() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try journalOnlyStore(in: folder)
        let handle = try #require(FileHandle(forWritingAtPath: store + "/journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([0x40, 0, 0, 0, 6, 0, 0, 0, 1, 2, 3]))  // a record header begun
        try handle.close()
        let torn = FileManager.default.contents(atPath: store + "/journal")
        let read = try closet(["--store", "s", "-c", "count clothes"], in: folder)
        #expect(read.status == 0 && read.out.contains("5") && read.err.isEmpty, "\(read.err)")
        #expect(FileManager.default.contents(atPath: store + "/journal") == torn)
        let write = try closet(
            ["--store", "s", "-c", "add clothes category=top season=fall description=six"], in: folder)
        #expect(write.status == 0, "\(write.err)")
        #expect(
            write.err.contains("dropped 11 bytes at the end of the journal from byte")
                && write.err.contains("a transaction that never finished committing (it was never reported as saved)"),
            "\(write.err)")
        #expect(try closet(["--store", "s", "-c", "count clothes"], in: folder).out.contains("6"))
    }

    /// Item 9: a read-only store whose journal has a torn tail is read (SPEC §8), by a user
    /// who cannot write it; a write is refused with exit 3 and a reason, not a trap.
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func aReadOnlyStoreWithATornTailIsRead() throws {
        let folder = try temporaryFolder()
        defer {
            _ = try? FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder + "/s")
            try? FileManager.default.removeItem(atPath: folder)
        }
        let store = try journalOnlyStore(in: folder)
        let handle = try #require(FileHandle(forWritingAtPath: store + "/journal"))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        for path in [folder, store] {
            try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        }
        for name in try FileManager.default.contentsOfDirectory(atPath: store) {
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store + "/" + name)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: store)
        func asNobody(_ statement: String) throws -> (status: Int32, out: String, err: String) {
            try ChildProcess.run(
                "/usr/bin/setpriv",
                [
                    "--clear-groups", "--reuid=65534", "--regid=65534", ProcessTests.binary, "--store", store, "-c",
                    statement,
                ],
                environment: ["HOME": folder], in: folder)
        }
        let read = try asNobody("count clothes")
        #expect(read.status == 0 && read.out.contains("5"), "\(read.err)")
        let write = try asNobody("add clothes category=top season=fall description=six")
        #expect(write.status == 3 && write.err.contains("the store could not write"), "\(write.err)")
    }
}
