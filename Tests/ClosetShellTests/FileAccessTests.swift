import Foundation
import Testing

@testable import ClosetShell

/// Files statements name, as the shell reads and writes them: pipes, devices and standard
/// input read like files; a missing folder is not created behind the user's back; errors say
/// what is wrong in words.
@Suite struct FileAccessTests {
    func closet(_ arguments: [String], stdin: String = "") throws -> (status: Int32, out: String, err: String) {
        try ProcessTests().run(arguments, stdin: stdin)
    }

    @Test func devNullAndStandardInputAreScripts() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let empty = try closet(["--store", ":memory:", "run", "/dev/null"])
        #expect(empty.status == 0 && empty.err == "", "\(empty.err)")
        let piped = try closet(["--store", ":memory:", "--format", "json", "run", "-"], stdin: "count clothes\n")
        #expect(piped.status == 0 && piped.out == "{\"count\":0}\n", "\(piped.err)")
    }

    /// `--quiet` writes no results, and still every error.
    @Test func quietWritesOnlyErrors() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let statements = ["-c", "add clothes category=top season=fall", "-c", "count clothes", "-c", "count nothing"]
        let quiet = try closet(["--store", ":memory:", "--quiet"] + statements)
        #expect(quiet.out == "" && quiet.err.contains("nothing"), "\(quiet)")
        let plain = try closet(["--store", ":memory:"] + statements)
        #expect(plain.out.contains("count") && plain.err == quiet.err, "\(plain)")
    }

    @Test func aProcessSubstitutionIsAScript() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [
            "-c", "\"$0\" --store :memory: --format json run <(printf 'count clothes\\n')", ProcessTests.binary,
        ]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let out = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && out == "{\"count\":0}\n")
    }

    /// A script file is read into the text's own storage: a byte-order mark is dropped, and a
    /// byte that is not UTF-8 is named by its offset in the file (the mark counted).
    @Test func aScriptFileIsCheckedWhereItIsRead() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let path = NSTemporaryDirectory() + "closet-script-\(UUID().uuidString).closet"
        defer { try? FileManager.default.removeItem(atPath: path) }
        let statements = Array("add clothes category=top season=fall description=니트\ncount clothes\n".utf8)
        FileManager.default.createFile(atPath: path, contents: Data([0xEF, 0xBB, 0xBF] + statements))
        let marked = try closet(["--store", ":memory:", "--format", "json", "run", path])
        #expect(marked.status == 0 && marked.out.hasSuffix("{\"count\":1}\n"), "\(marked.err)")
        FileManager.default.createFile(atPath: path, contents: Data([0xEF, 0xBB, 0xBF] + statements + [0xE0, 0x80]))
        let invalid = try closet(["--store", ":memory:", "run", path])
        #expect(invalid.status != 0)
        #expect(
            invalid.err.contains("it is not UTF-8 text (invalid byte at offset \(3 + statements.count))"),
            "\(invalid.err)")
        #expect(invalid.out == "")
        // U+FFFD written as such is text like any other.
        let replacement = Array("add clothes category=top season=fall description=\u{FFFD}\ncount clothes\n".utf8)
        FileManager.default.createFile(atPath: path, contents: Data(replacement))
        let written = try closet(["--store", ":memory:", "--format", "json", "run", path])
        #expect(written.status == 0 && written.out.hasSuffix("{\"count\":1}\n"), "\(written.err)")
    }

    @Test func errorsNameWhatTheFileIs() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let folder = NSTemporaryDirectory()
        let directory = try closet(["--store", ":memory:", "run", folder])
        #expect(directory.err.contains("it is a directory"), "\(directory.err)")
        let missing = try closet(["--store", ":memory:", "run", folder + "/no-such-\(UUID().uuidString).closet"])
        #expect(missing.err.contains("no such file"))
    }

    @Test func exportDoesNotCreateAMissingFolder() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let folder = NSTemporaryDirectory() + "closet-nope-\(UUID().uuidString)"
        let result = try closet(["--store", ":memory:", "-c", "export clothes to=\(folder)/out.json"])
        #expect(result.status == 1)
        #expect(result.err.contains("cannot write '\(folder)/out.json': no such folder '\(folder)'"), "\(result.err)")
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(!result.err.contains("NSCocoaErrorDomain"))
    }

    @Test func aLargeImportIsNotCalledAPicture() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let path = NSTemporaryDirectory() + "closet-big-\(UUID().uuidString).json"
        FileManager.default.createFile(atPath: path, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: 300 << 20)  // sparse: no disk used
        try handle.close()
        let result = try closet(["--store", ":memory:", "-c", "import clothes from=\(path)"])
        // Read a piece at a time: its first byte is no JSON array (and nothing more is read).
        #expect(result.err.contains("1: expected a JSON array of objects"), "\(result.err)")
        #expect(!result.err.contains("pictures"))
        try FileManager.default.removeItem(atPath: path)
    }

    /// A CSV or JSON file is read from disk a megabyte at a time: rows across the pieces' edges
    /// are read whole, a bad row past the first piece is named by its line, and a named pipe
    /// (which cannot be read twice) imports too.
    @Test func aCSVFileLargerThanAPieceImportsRowByRow() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let path = NSTemporaryDirectory() + "closet-pieces-\(UUID().uuidString).csv"
        defer { try? FileManager.default.removeItem(atPath: path) }
        var text = "category,season,description\r\n"
        for number in 0..<30_000 {
            text += "top,fall,\"\(number) 니트, \"\"soft\"\"\nand warm\"\r\n"  // two lines a record
        }
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(text.utf8.count > 1 << 20)  // more than one piece
        let count = "count clothes search=\"29999 니트\""
        let json = path + ".json"
        defer { try? FileManager.default.removeItem(atPath: json) }
        let result = try closet([
            "--store", ":memory:", "-c", "import clothes from=\(path)", "-c", count, "-c", "export clothes to=\(json)",
        ])
        #expect(result.status == 0 && result.out.contains("30000") && result.out.contains("\n    1\n"), "\(result.err)")
        // Its JSON export (more than a piece too) imports the same way.
        let again = try closet(["--store", ":memory:", "-c", "import clothes from=\(json)", "-c", count])
        #expect(again.status == 0 && again.out.contains("30000") && again.out.hasSuffix("1\n"), "\(again.err)")
        // A named pipe: read once, whole.
        let pipe = path + ".fifo.csv"
        try #require(mkfifo(pipe, 0o600) == 0)
        defer { unlink(pipe) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessTests.binary)
        process.arguments = ["--store", ":memory:", "-c", "import clothes from=\(pipe)", "-c", count]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let writer = try #require(FileHandle(forWritingAtPath: pipe))
        try writer.write(contentsOf: Data(text.utf8))
        try writer.close()
        let piped = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0 && piped.hasSuffix("1\n"), "\(piped)")

        try Data((text + "hat,fall,x\r\n").utf8).write(to: URL(fileURLWithPath: path))
        let bad = try closet(["--store", ":memory:", "-c", "import clothes from=\(path)"])
        #expect(bad.status != 0 && bad.err.contains(":60002: unknown category 'hat'"), "\(bad.err)")

        // A problem with the file met after its rows were added (read a piece ahead of them, on
        // a second thread) fails the import as one met first: its message alone, nothing kept,
        // and under --deterministic no id drawn (the next add's id is the one a new store draws).
        let add = "add clothes category=top season=fall\n"
        let seeded = try closet(["--store", ":memory:", "--deterministic"], stdin: add)
        for (ending, message) in [
            (Array("top,fall\r\n".utf8), ":60003: 2 fields where the header has 3; nothing was imported"),
            (Array("top,fall,\"open\r\n".utf8), ":60003: a quoted field is not closed; nothing was imported"),
            (Array("top,fall,".utf8) + [0xFF], "is not UTF-8"),
        ] {
            let file = Array("category,season,description\r\nhat,fall,x".utf8) + text.utf8.dropFirst(27) + ending
            try Data(file).write(to: URL(fileURLWithPath: path))
            for deterministic in [false, true] {
                let failed = try closet(
                    ["--store", ":memory:"] + (deterministic ? ["--deterministic"] : []),
                    stdin: "import clothes from=\(path)\ncount clothes\n" + add)
                #expect(failed.err.contains(message) && !failed.err.contains("unknown category"), "\(failed.err)")
                #expect(failed.out.hasPrefix("count\n-----\n    0\n"), "\(failed.out)")
                if deterministic { #expect(failed.out.hasSuffix(seeded.out), "\(failed.out)") }
            }
        }
    }

    @Test func aScriptsPathsAreItsOwnFromAnyDirectory() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ProcessTests.binary)
        process.arguments = ["--store", ":memory:", "run", repositoryRoot + "/Examples/tour.closet"]
        process.currentDirectoryURL = URL(fileURLWithPath: NSTemporaryDirectory())
        process.standardOutput = FileHandle.nullDevice
        let error = Pipe()
        process.standardError = error
        try process.run()
        let message = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(message)")
    }

    @Test func aTildeIsTheHomeFolder() {
        #expect(StoreLocation.resolve("~/stores/a", environment: ["HOME": "/h"]) == .directory("/h/stores/a"))
        #expect(ScriptFile.expandingTilde("~", home: "/h") == "/h")
        #expect(ScriptFile.expandingTilde("a/~/b", home: "/h") == "a/~/b")
    }

    @Test func aDumpWithARelativeImagesFolderReplaysFromAnywhere() throws {
        try #require(FileManager.default.isExecutableFile(atPath: ProcessTests.binary))
        let work = NSTemporaryDirectory() + "closet-dump-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: work + "/backup", withIntermediateDirectories: true)
        func closet(_ arguments: [String], in folder: String) throws -> (Int32, String) {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ProcessTests.binary)
            process.arguments = arguments
            process.currentDirectoryURL = URL(fileURLWithPath: folder)
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }
        let picture = repositoryRoot + "/Tests/Golden/images/fixtures/knit.png"
        #expect(
            try closet(["--store", "one", "-c", "add clothes category=top season=fall image=\(picture)"], in: work).0
                == 0)
        let (status, dump) = try closet(["--store", "one", "dump", "--images", "backup/pictures"], in: work)
        #expect(status == 0)
        try Data(dump.utf8).write(to: URL(fileURLWithPath: work + "/backup/seed.closet"))
        // Replayed from another directory, through a path to the dump.
        #expect(try closet(["--store", work + "/two", "run", work + "/backup/seed.closet"], in: "/").0 == 0)
        let (_, count) = try closet(["--store", work + "/two", "--format", "json", "-c", "count clothes"], in: "/")
        #expect(count == "{\"count\":1}\n")
    }
}
