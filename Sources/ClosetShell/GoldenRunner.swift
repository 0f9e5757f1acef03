import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetStore
import Foundation

/// `closet test`: runs each `NAME.closet` with `--deterministic --store :memory: --echo` and
/// compares its transcript with `NAME.expected` (SPEC §9).
///
/// Guard rails: a missing `.expected` fails (only `--update` records one); finding no test
/// files fails; `--update` rewrites only files that differ and refuses to run under `CI=true`;
/// a mismatch prints a labelled unified diff and the file:line of the first statement whose
/// output differs. The run ends with `N passed, N failed`.
package struct GoldenRunner {
    package static let defaultFolder = "Tests/Golden"
    let environment: [String: String]
    var output: (String) -> Void = { text in ProcessHost.writeAll(Array(text.utf8), to: 1) }

    public init(environment: [String: String], output: ((String) -> Void)? = nil) {
        self.environment = environment
        if let output { self.output = output }
    }

    public struct Result: Equatable, Sendable {
        /// Matched their expected output (with `--update`: left unchanged).
        public var passed: [String] = []
        public var failed: [String] = []
        /// `--update` wrote a new expected file, or rewrote one that differed.
        public var created: [String] = []
        public var updated: [String] = []
    }

    /// Which tests run and how they are reported: `-k` keeps the tests whose path contains the
    /// pattern, `--list` only names them, `-v` adds a line per test with its time and the
    /// slowest tests at the end, `--tap <file>` writes a TAP report beside the console's.
    package struct Selection: Equatable, Sendable {
        package var pattern: String?
        public var list = false
        package var verbose = false
        package var tap: String?

        public init(pattern: String? = nil, list: Bool = false, verbose: Bool = false) {
            self.pattern = pattern
            self.list = list
            self.verbose = verbose
        }
    }

    /// Runs the tests; with `junit`, also writes a JUnit XML report there (console unchanged).
    public func run(
        paths: [String], update: Bool, record: Bool = false, junit: String? = nil, selection: Selection = Selection()
    ) -> ClosetCommand.ExitStatus {
        let inCI = ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
        for (asked, flag) in [(update, "--update"), (record, "--record")] where asked && inCI {
            output(
                "error: 'closet test \(flag)' refuses to run with CI=true: golden files are re-recorded on purpose, not in CI\n"
            )
            return .usage
        }
        var files: [String]
        do {
            let home = environment["HOME"] ?? NSHomeDirectory()
            files = try Self.collect(
                paths.isEmpty ? [Self.defaultFolder] : paths.map { ScriptFile.expandingTilde($0, home: home) })
        } catch {
            output("error: \(error.message)\n0 passed, 0 failed\n")
            return .failure
        }
        guard !files.isEmpty else {
            output(
                "error: no golden tests (*.closet) found in \((paths.isEmpty ? [Self.defaultFolder] : paths).joined(separator: ", "))\n0 passed, 0 failed\n"
            )
            return .failure
        }
        if let pattern = selection.pattern {
            files = files.filter { $0.contains(pattern) }
            guard !files.isEmpty else {
                output(
                    "error: no golden test's path contains '\(TerminalText.visible(pattern))' (-k)\n0 passed, 0 failed\n"
                )
                return .failure
            }
        }
        if selection.list {
            output(files.map { $0 + "\n" }.joined())
            return .success
        }
        var result = Result()
        var report = JUnitReport()
        var times: [(file: String, seconds: Double)] = []
        for file in files {
            let started = Date()
            let failed = result.failed.count
            var captured = ""
            check(file, update: update, record: record, into: &result) { text in
                captured += text
                output(text)
            }
            let seconds = Date().timeIntervalSince(started)
            times.append((file, seconds))
            let failure =
                result.failed.count > failed
                ? (message: captured.split(separator: "\n").first.map(String.init) ?? "failed", details: captured) : nil
            if selection.verbose, failure == nil { output("ok   \(file) (\(Self.milliseconds(seconds)))\n") }
            report.cases.append(.init(file: file, seconds: seconds, failure: failure))
        }
        if selection.verbose, times.count > 1 {
            let slowest = times.sorted { $0.seconds > $1.seconds }.prefix(3)
            output(
                "slowest: " + slowest.map { "\($0.file) (\(Self.milliseconds($0.seconds)))" }.joined(separator: ", ")
                    + "\n")
        }
        for (file, text, kind) in [(junit, { report.xml() }, "JUnit"), (selection.tap, { report.tap() }, "TAP")] {
            guard let file else { continue }
            do {
                try ScriptFile.write(Array(text().utf8), to: file, relativeTo: nil, creatingFolder: false)
            } catch {
                // In closet's words (no such folder, permission denied), not Foundation's.
                output("error: \((error as? Diagnostic)?.message ?? "cannot write the \(kind) report '\(file)'")\n")
                return .failure
            }
        }
        var summary = "\(result.passed.count) passed, \(result.failed.count) failed"
        if update {
            // Recorded files are not tests that passed: said apart, before the closing line.
            func files(_ count: Int) -> String { "\(count) file\(count == 1 ? "" : "s")" }
            summary =
                "created \(files(result.created.count)), updated \(files(result.updated.count)), \(result.passed.count) unchanged\n"
                + summary
        }
        output(summary + "\n")
        return result.failed.isEmpty ? .success : .failure
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.0f ms", seconds * 1000) }

    package struct CollectError: Error { var message: String }

    /// Every `*.closet` under the given files and folders, sorted, each once.
    package static func collect(_ paths: [String]) throws(CollectError) -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CollectError(message: "no such file or folder '\(path)'")
            }
            if isDirectory.boolValue {
                let found = (manager.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                    .filter { $0.hasSuffix(".closet") }.sorted()
                files += found.map { FilePath.join(path, $0) }
            } else {
                guard path.hasSuffix(".closet") else { throw CollectError(message: "'\(path)' is not a .closet file") }
                files.append(path)
            }
        }
        var seen = Set<String>()
        return files.filter { seen.insert($0).inserted }
    }

    /// The recordings a golden test replays: the `http` folder beside it.
    package static func recordingsFolder(of file: String) -> String {
        FilePath.join(FilePath.parent(of: file), "http")
    }

    /// Runs one script the golden way and returns its transcript and line owners. Requests
    /// are answered from the `http` folder beside it (none: the network is off); `record`
    /// sends them to the network and re-records that folder.
    /// `network` overrides all that (tests that run a golden against a live server);
    /// `registry`, the installed packs (a test adds a pack and runs every golden).
    package static func transcript(
        of file: String, record: Bool = false, environment: [String: String] = [:],
        network: SessionFactory.NetworkMode? = nil, registry: CommandRegistry? = nil
    ) throws -> (text: String, owners: [StatementLocation?], unmarkedFailures: [Int], markedSuccesses: [Int]) {
        let script = try ScriptFile.read(file, relativeTo: nil)
        let host = TranscriptHost(baseDirectory: FilePath.parent(of: file))
        var configuration = SessionFactory.Configuration.golden
        let recordings = recordingsFolder(of: file)
        if record {
            configuration.network = .record(folder: recordings)
            configuration.environment = environment
        } else if FileManager.default.fileExists(atPath: recordings) {
            configuration.network = .replay(folder: recordings)
        }
        if let network {
            configuration.network = network
            configuration.environment = environment
        }
        var store = SessionFactory.memoryStore()
        if let registry {
            configuration.registry = registry
            store = MemoryStore(registry.packs.flatMap(\.tables))
        }
        let session = try SessionFactory.makeSession(store: store, host: host, configuration)
        host.session = session
        let name = FilePath.lastComponent(of: file)
        _ = session.runScript(script.text, name: name)
        _ = session.commit()
        return (
            host.text, host.lineOwners, session.unmarkedFailures.filter { $0.origin == name }.map(\.line),
            session.markedSuccesses.filter { $0.origin == name }.map(\.line)
        )
    }

    private func check(
        _ file: String, update: Bool, record: Bool, into result: inout Result, output: (String) -> Void
    ) {
        let expectedPath = String(file.dropLast(".closet".count)) + ".expected"
        let name = FilePath.lastComponent(of: file)
        let actual: (text: String, owners: [StatementLocation?], unmarkedFailures: [Int], markedSuccesses: [Int])
        do {
            actual = try Self.transcript(of: file, record: record, environment: environment)
        } catch {
            let message = (error as? Diagnostic)?.message ?? (error as? NetworkError)?.message ?? "\(error)"
            output("FAIL \(file): \(message)\n")
            result.failed.append(file)
            return
        }
        // A statement marked `!` that succeeded fails the test whatever the transcript says.
        if !actual.markedSuccesses.isEmpty {
            let lines = actual.markedSuccesses.map { "\(name):\($0)" }.joined(separator: ", ")
            output("FAIL \(file): marked '!' (must fail) but succeeded: \(lines)\n")
            result.failed.append(file)
            return
        }
        let expected = FileManager.default.contents(atPath: expectedPath).flatMap { String(data: $0, encoding: .utf8) }
        if expected == actual.text {
            result.passed.append(file)
            return
        }
        if update {
            do {
                try actual.text.write(toFile: expectedPath, atomically: true, encoding: .utf8)
                output("\(expected == nil ? "created" : "updated") \(expectedPath)\n")
                // Said loudly: an error recorded for a statement not marked `!` may be an accident.
                let lines = actual.unmarkedFailures
                if !lines.isEmpty {
                    let shown = lines.prefix(5).map { "\(name):\($0)" }.joined(separator: ", ")
                    output(
                        "warning: recorded \(lines.count) error\(lines.count == 1 ? "" : "s") of statements not marked '!' (\(shown)\(lines.count > 5 ? ", ..." : "")); mark each that must fail with a leading '!'\n"
                    )
                }
                if expected == nil {
                    result.created.append(file)
                } else {
                    result.updated.append(file)
                }
            } catch {
                output("FAIL \(file): cannot write \(expectedPath): \(error.localizedDescription)\n")
                result.failed.append(file)
            }
            return
        }
        result.failed.append(file)
        guard let expected else {
            output(
                "FAIL \(file): missing \(FilePath.lastComponent(of: expectedPath)); record it on purpose with 'closet test --update \(file)'\n"
            )
            return
        }
        let oldLines = Self.lines(expected)
        let newLines = Self.lines(actual.text)
        var firstDifferenceAt = ""
        let common = min(oldLines.count, newLines.count)
        let firstDifference = (0..<common).first { oldLines[$0] != newLines[$0] } ?? common
        let ownerIndex = min(firstDifference, actual.owners.count - 1)
        if ownerIndex >= 0, let owner = actual.owners[ownerIndex] {
            firstDifferenceAt = ": output first differs at \(name):\(owner.line)"
        }
        output("FAIL \(file)\(firstDifferenceAt)\n")
        output(
            UnifiedDiff.render(
                old: oldLines, new: newLines, oldName: FilePath.lastComponent(of: expectedPath), newName: "actual"))
    }

    /// A transcript's lines as the diff shows them: differences a reader cannot see are made
    /// visible (a carriage return as `␍`, trailing blanks as `·` and `→`), and a missing final
    /// newline is a line of its own, as `diff` prints it.
    static func lines(_ text: String) -> [String] {
        // Split on the scalar: "\r\n" is one Character, so a Character split keeps CRLF lines whole.
        var lines = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { String($0) }
        let endsWithNewline = lines.last == ""
        if endsWithNewline { lines.removeLast() }
        lines = lines.map(visible)
        if !endsWithNewline, !lines.isEmpty { lines.append("\\ No newline at end of file") }
        return lines
    }

    private static func visible(_ line: String) -> String {
        var body = Substring(line)
        var marks = ""
        if body.unicodeScalars.last == "\r" {
            body = Substring(String(body.unicodeScalars.dropLast()))
            marks = "␍"
        }
        var trailing = ""
        while let last = body.last, last == " " || last == "\t" {
            trailing = (last == " " ? "·" : "→") + trailing
            body = body.dropLast()
        }
        return String(body) + trailing + marks
    }
}
