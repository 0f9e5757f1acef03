import ClosetCore
import ClosetLanguage
import ClosetShell
import WardrobePack

/// A session host that keeps what was written, separately and interleaved, and serves
/// `.read` from an in-memory table of files.
package final class RecordingHost: SessionHost {
    package private(set) var standardOutput = ""
    package private(set) var standardError = ""
    package private(set) var transcript = ""
    package var files: [String: String] = [:]

    package init() {}

    package func write(_ text: String, to stream: OutputChannel) {
        switch stream {
        case .standardOutput: standardOutput += text
        case .standardError: standardError += text
        }
        transcript += text
    }

    package func readScript(at path: String) throws -> (text: String, displayName: String) {
        guard let text = files[path] else { throw Diagnostic.cannotRead(path, because: "no such file") }
        return (text, path)
    }

    package var binaryFiles: [String: [UInt8]] = [:]

    package func readFile(at path: String, limit: Int) throws -> [UInt8] {
        guard let bytes = binaryFiles[path] else { throw Diagnostic.cannotRead(path, because: "no such file") }
        guard bytes.count <= limit else { throw Diagnostic.fileTooLarge(path, bytes: bytes.count, limit: limit) }
        return bytes
    }

    package func writeFile(at path: String, bytes: [UInt8], creatingFolder: Bool) throws {
        binaryFiles[path] = bytes
        files[path] = String(decoding: bytes, as: UTF8.self)
    }

    package func monotonicSeconds() -> Double { 0 }

    /// What a person at the prompt answers to `remove ...? [y/N]` (nil: nobody to ask), and
    /// the questions asked.
    package var confirmation: Bool?
    package private(set) var questions: [String] = []

    package func confirm(_ question: String) -> Bool? {
        guard let confirmation else { return nil }
        questions.append(question)
        return confirmation
    }

    package func clear() {
        standardOutput = ""
        standardError = ""
        transcript = ""
    }
}

/// A deterministic session on a fresh in-memory store, as golden tests run.
package struct Harness {
    package let host = RecordingHost()
    package let store: MemoryWardrobe
    package let session: Session

    /// `network` and `environment` reach remote APIs (a loopback server's base URL and key);
    /// by default the network is off, as in golden tests without recordings.
    package init(
        format: OutputFormat = .json, store: MemoryWardrobe = MemoryWardrobe(),
        network: SessionFactory.NetworkMode? = nil, environment: [String: String] = [:]
    ) {
        self.store = store
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        configuration.settings.format = format
        if let network { configuration.network = network }
        configuration.environment = environment
        // The installed packs always start on a wardrobe store.
        session = try! SessionFactory.makeSession(store: store, host: host, configuration)
    }

    /// Runs one statement as the prompt would (committed on success).
    @discardableResult
    package func run(_ line: String) -> Bool {
        session.executeAndCommit(StatementSource(line))
    }

    /// Runs a statement and returns what it printed on standard output.
    package func output(_ line: String) -> String {
        host.clear()
        run(line)
        return host.standardOutput
    }

    /// Runs a statement and returns its error text.
    package func error(_ line: String) -> String {
        host.clear()
        run(line)
        return host.standardError
    }
}

extension Session {
    /// The wardrobe's repositories over a test's session store (the same tables its pack uses).
    package var wardrobe: TableWardrobe {
        guard let wardrobe = try? TableWardrobe(store) else { fatalError("the session's store has no wardrobe tables") }
        return wardrobe
    }
}
