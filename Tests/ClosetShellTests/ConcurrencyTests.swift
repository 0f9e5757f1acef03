import ClosetCore
import ClosetLanguage
import ClosetShell
import ClosetStore
import ClosetTables
import Foundation
import TestSupport
import Testing

/// Many processes on one store (SPEC §8): readers never wait and see whole committed
/// transactions only; a long-lived session sees other processes' commits before each
/// statement; writers take turns.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: ProcessTests.binary)))
struct ConcurrencyTests {
    func closet(_ arguments: [String], stdin: String = "") throws -> (status: Int32, out: String, err: String) {
        try ProcessTests().run(arguments, stdin: stdin)
    }

    func temporaryStore() -> String { NSTemporaryDirectory() + "closet-many-\(UUID().uuidString)" }

    /// A reader session counts in a loop while another process commits pairs of rows and
    /// compacts now and then: its counts never go back and never show half a transaction.
    @Test func aReaderOnlyEverSeesWholeCommittedTransactions() throws {
        let store = temporaryStore()
        #expect(try closet(["--store", store, "-c", "count clothes"]).status == 0)
        let reader = Process()
        reader.executableURL = URL(fileURLWithPath: ProcessTests.binary)
        reader.arguments = ["--store", store, "--format", "json"]
        let input = Pipe()
        let output = Pipe()
        reader.standardInput = input
        reader.standardOutput = output
        reader.standardError = FileHandle.nullDevice
        try reader.run()

        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<String?>(nil)
        Thread.detachNewThread {
            defer { done.signal() }
            do {
                let writer = try DurableStore(path: store, tables: SessionFactory.tables) { _ in }
                let host = RecordingHost()
                let session = try SessionFactory.makeSession(store: writer, host: host)
                for round in 1...60 {
                    // Two rows in one transaction, as a `run` file commits them.
                    session.runScript(
                        "add clothes category=top season=fall description=\"a\(round)\"\nadd clothes category=shoes season=fall description=\"b\(round)\"\n",
                        name: "pair")
                    guard session.commit() else { throw StoreError("commit \(round) failed") }
                    if round % 15 == 0 { try writer.compact() }
                    usleep(1_000)
                }
                withExtendedLifetime(host) {}
            } catch {
                failure.value = "\(error)"
            }
        }
        var finished = false
        var sent = 0
        while !finished || sent < 5 {
            input.fileHandleForWriting.write(Data("count clothes\n".utf8))
            sent += 1
            usleep(2_000)
            if done.wait(timeout: .now()) == .success { finished = true }
        }
        input.fileHandleForWriting.write(Data("count clothes\n".utf8))
        try input.fileHandleForWriting.close()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        #expect(failure.value == nil, "\(failure.value ?? "")")
        #expect(reader.terminationStatus == 0)
        let counts = text.split(separator: "\n").compactMap { line -> Int? in
            guard line.hasPrefix("{\"count\":") else { return nil }
            return Int(line.dropFirst(9).dropLast())
        }
        #expect(counts.count == sent + 1)
        #expect(counts.allSatisfy { $0 % 2 == 0 }, "half a transaction seen: \(counts)")
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 <= $1 }, "went back: \(counts)")
        #expect(counts.last == 120)
    }

    /// A prompt-like session in one process and `closet -c` in another, on one store, both
    /// reading and writing.
    @Test func aSessionAndCommandsInAnotherProcessShareTheStore() throws {
        let store = temporaryStore()
        let host = RecordingHost()
        let durable = try DurableStore(path: store, tables: SessionFactory.tables) { _ in }
        var configuration = SessionFactory.Configuration()
        configuration.settings.format = .json
        let session = try SessionFactory.makeSession(store: durable, host: host, configuration)
        #expect(session.executeAndCommit(StatementSource("add clothes category=top season=fall description=mine")))
        let other = try closet([
            "--store", store, "--format", "json", "-c", "add clothes category=bottom season=winter description=theirs",
        ])
        #expect(other.status == 0, "\(other.err)")
        let before = host.standardOutput.count
        #expect(session.executeAndCommit(StatementSource("count clothes")))
        #expect(host.standardOutput.dropFirst(before) == "{\"count\":2}\n")
        // The session writes on top of the other process's row; the other process sees it.
        #expect(session.executeAndCommit(StatementSource("add clothes category=shoes season=fall")))
        #expect(try closet(["--store", store, "--format", "json", "-c", "count clothes"]).out == "{\"count\":3}\n")
    }
}

/// A value shared with a thread the test started.
final class LockedBox<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: ProcessTests.binary)))
struct RecoverCommandTests {
    @Test func recoverCopiesWhatIsIntactAndTheDamagedStoreStaysRefused() throws {
        let store = NSTemporaryDirectory() + "closet-recover-\(UUID().uuidString)"
        for description in ["one", "two", "three"] {
            let added = try ProcessTests().run([
                "--store", store, "-c", "add clothes category=top season=fall description=\(description)",
            ])
            #expect(added.status == 0)
        }
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: store + "/journal")))
        bytes[84 + 16 + 5] ^= 0x01  // the first record's payload: two intact records follow
        try Data(bytes).write(to: URL(fileURLWithPath: store + "/journal"))
        let refused = try ProcessTests().run(["--store", store, "-c", "count clothes"])
        #expect(refused.status == 3)
        #expect(refused.err.contains("is damaged: at byte 84 of its journal"), "\(refused.err)")
        #expect(refused.err.contains("'closet recover \(store)'"))
        // The damaged transaction was committed: the new store lacks it, which is said, and
        // the command exits 1.
        let recovered = try ProcessTests().run(["recover", store])
        #expect(recovered.status == 1, "\(recovered.err)")
        #expect(recovered.out.contains("journal: 2 transactions kept, damaged bytes 84-"), "\(recovered.out)")
        #expect(
            recovered.out.contains(
                "warning: the journal is cut short or damaged: 3 transactions were committed, ending at byte"),
            "\(recovered.out)")
        let listed = try ProcessTests().run(["--store", store + "-recovered", "--format", "csv", "-c", "list clothes"])
        #expect(listed.out.contains("two") && listed.out.contains("three") && !listed.out.contains("one"))
        #expect(try ProcessTests().run(["--store", store, "-c", "count clothes"]).status == 3)
        let again = try ProcessTests().run(["recover", store])
        #expect(again.status == 3 && again.err.contains("already exists and is not empty"), "\(again.err)")
        #expect(try ProcessTests().run(["recover"]).status == 2)
    }
}
