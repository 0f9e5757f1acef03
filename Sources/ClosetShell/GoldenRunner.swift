import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetStore
import ClosetTables
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
    /// `--short` for this run (set from the selection): `.skip if short` holds.
    var short = false
    /// `--pending` for this run (set from the selection).
    var pending: Selection.Pending?
    var output: (String) -> Void = { text in ProcessHost.writeAll(Array(text.utf8), to: 1) }
    /// `--review`: asks the person a question and returns the line they answer (nil at the end
    /// of input).
    var ask: ((String) -> String?)?

    public init(
        environment: [String: String], output: ((String) -> Void)? = nil, ask: ((String) -> String?)? = nil
    ) {
        self.environment = environment
        if let output { self.output = output }
        self.ask = ask
    }

    public struct Result: Equatable, Sendable {
        /// Matched their expected output (with `--update`: left unchanged).
        public var passed: [String] = []
        public var failed: [String] = []
        /// `--update` wrote a new expected file, or rewrote one that differed.
        public var created: [String] = []
        public var updated: [String] = []
        /// `--review`: what the person answered for each failing test (a rejected or skipped
        /// test still counts as failed; an accepted one as recorded, not passed).
        public var accepted: [String] = []
        public var rejected: [String] = []
        public var skipped: [String] = []
        /// Skipped by a `.skip if` condition that held (neither passed nor failed).
        public var conditionSkipped: [String] = []

        /// Adds one test's part, in the order the tests are listed.
        mutating func absorb(_ other: Result) {
            passed += other.passed
            failed += other.failed
            created += other.created
            updated += other.updated
            accepted += other.accepted
            rejected += other.rejected
            skipped += other.skipped
            conditionSkipped += other.conditionSkipped
        }
    }

    /// One of n parts of a suite, for n CI machines: test k (counting from 0, in the sorted
    /// order every machine sees) belongs to part k mod n + 1, so every test is in exactly one
    /// part and the parts differ by at most one test.
    package struct Shard: Equatable, Sendable {
        package var index: Int
        package var count: Int

        /// `2/4`; nil unless 1 ≤ i ≤ n ≤ 1000.
        package init?(_ text: String) {
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), (1...1000).contains(count),
                (1...count).contains(index)
            else { return nil }
            self.index = index
            self.count = count
        }

        package func containsTest(at position: Int) -> Bool { position % count == index - 1 }
    }

    /// Which tests run and how they are reported: `-k` keeps the tests whose path contains the
    /// pattern, `--list` only names them, `-v` adds a line per test with its time and the
    /// slowest tests at the end, `--tap <file>` writes a TAP report beside the console's.
    package struct Selection: Equatable, Sendable {
        package var pattern: String?
        public var list = false
        package var verbose = false
        /// `--short`: tests marked `.skip if short` are skipped (the long ones).
        package var short = false
        /// `--unreferenced`: lists the `.expected` files no test has (with `--update`, removes
        /// them) and runs nothing.
        package var unreferenced = false
        /// `--pending` / `--pending-dir <folder>`: a failing test's new transcript is kept as
        /// `NAME.expected.new` (beside it, or under the folder by its path: a CI artefact), and
        /// `--review` reviews those later without running anything.
        package var pending: Pending?

        package enum Pending: Equatable, Sendable {
            case besideTests
            case folder(String)

            /// Where a test's pending transcript goes.
            func path(for expected: String) -> String {
                switch self {
                case .besideTests: expected + ".new"
                case .folder(let folder):
                    FilePath.join(folder, expected.hasPrefix("/") ? String(expected.dropFirst()) : expected) + ".new"
                }
            }
        }
        package var tap: String?
        /// `-j`: how many tests run at once (default: the machine's cores). Tests of one folder
        /// run one after another (they may share its `out` and `http` folders); folders run side
        /// by side; the console shows every test's output in the order of `-j 1`.
        package var jobs: Int?
        /// `--shard i/n`: this machine's part of the suite.
        package var shard: Shard?
        /// `--review`: each failing test's diff, then accept (record it), reject or skip.
        package var review = false

        public init(pattern: String? = nil, list: Bool = false, verbose: Bool = false, jobs: Int? = nil) {
            self.pattern = pattern
            self.list = list
            self.verbose = verbose
            self.jobs = jobs
        }
    }

    /// Runs the tests; with `junit`, also writes a JUnit XML report there (console unchanged).
    public func run(
        paths: [String], update: Bool, record: Bool = false, junit: String? = nil, selection: Selection = Selection()
    ) -> ClosetCommand.ExitStatus {
        var runner = self
        runner.short = selection.short
        runner.pending = selection.pending
        return runner.running(paths: paths, update: update, record: record, junit: junit, selection: selection)
    }

    private func running(
        paths: [String], update: Bool, record: Bool, junit: String?, selection: Selection
    ) -> ClosetCommand.ExitStatus {
        let inCI = ["true", "1", "yes"].contains(environment["CI"]?.lowercased() ?? "")
        for (asked, flag) in [(update, "--update"), (record, "--record"), (selection.review, "--review")]
        where asked && inCI {
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
                output("error: no golden test's path contains '\(TerminalText.visible(pattern))' (-k)\n")
                // The reports still exist, empty: a CI step that reads them finds them.
                _ = writeReports(JUnitReport(), junit: junit, tap: selection.tap)
                output("0 passed, 0 failed\n")
                return .failure
            }
        }
        if let shard = selection.shard {
            files = files.enumerated().filter { shard.containsTest(at: $0.offset) }.map(\.element)
            guard !files.isEmpty else {
                output("shard \(shard.index)/\(shard.count) has no tests\n")
                let written = writeReports(JUnitReport(), junit: junit, tap: selection.tap)
                output("0 passed, 0 failed\n")
                return written ? .success : .failure
            }
        }
        if selection.list {
            output(files.map { $0 + "\n" }.joined())
            return .success
        }
        if selection.review {
            let waiting = files.map {
                (test: $0, new: (selection.pending ?? .besideTests).path(for: Self.expectedPath(of: $0)))
            }
            .filter { FileManager.default.fileExists(atPath: $0.new) }
            if !waiting.isEmpty { return reviewPending(waiting) }
        }
        if selection.unreferenced {
            let orphans = Self.orphanedExpectations(paths.isEmpty ? [Self.defaultFolder] : paths, tests: files)
            for orphan in orphans {
                if update {
                    do {
                        try FileManager.default.removeItem(atPath: orphan)
                        output("removed \(orphan)\n")
                    } catch {
                        output("error: cannot remove \(orphan): \(error.localizedDescription)\n")
                        return .failure
                    }
                } else {
                    output(orphan + "\n")
                }
            }
            output(
                "\(orphans.count) unreferenced expected file\(orphans.count == 1 ? "" : "s")\(update ? " removed" : "")\n"
            )
            return .success
        }
        var result = Result()
        var report = JUnitReport()
        var times: [(file: String, seconds: Double)] = []
        // A review asks about one test at a time, in order.
        let jobs = selection.review ? 1 : selection.jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let outcomes: [TestOutcome]
        if jobs > 1, files.count > 1 {
            outcomes = runInParallel(files, jobs: jobs, update: update, record: record)
        } else {
            // One at a time, each test's output shown as it runs.
            outcomes = files.map { file in
                runOne(file, update: update, record: record, review: selection.review, streaming: output)
            }
        }
        for (file, outcome) in zip(files, outcomes) {
            if jobs > 1, files.count > 1 { output(outcome.text) }
            result.absorb(outcome.result)
            times.append((file, outcome.seconds))
            let failure =
                outcome.result.failed.isEmpty
                ? nil
                : (
                    message: outcome.text.split(separator: "\n").first.map(String.init) ?? "failed",
                    details: outcome.text
                )
            if selection.verbose, failure == nil { output("ok   \(file) (\(Self.milliseconds(outcome.seconds)))\n") }
            report.cases.append(.init(file: file, seconds: outcome.seconds, failure: failure))
        }
        if selection.verbose, times.count > 1 {
            let slowest = times.sorted { $0.seconds > $1.seconds }.prefix(3)
            output(
                "slowest: " + slowest.map { "\($0.file) (\(Self.milliseconds($0.seconds)))" }.joined(separator: ", ")
                    + "\n")
        }
        // Expected files whose test is gone (renamed or removed): stale, and said so.
        let wholeSuite = selection.pattern == nil && (selection.shard?.index ?? 1) == 1
        for orphan in wholeSuite
            ? Self.orphanedExpectations(paths.isEmpty ? [Self.defaultFolder] : paths, tests: files) : []
        {
            output(
                "FAIL \(orphan): no \(FilePath.lastComponent(of: Self.testPath(of: orphan))) beside it (the test was renamed or removed: remove it, or restore the test)\n"
            )
            result.failed.append(orphan)
            report.cases.append(
                .init(file: orphan, seconds: 0, failure: (message: "no test for this expected file", details: "")))
        }
        guard writeReports(report, junit: junit, tap: selection.tap) else { return .failure }
        var summary = "\(result.passed.count) passed, \(result.failed.count) failed"
        if !result.conditionSkipped.isEmpty {
            summary = "\(result.conditionSkipped.count) skipped (.skip if)\n" + summary
        }
        if selection.review {
            summary =
                "reviewed: \(result.accepted.count) accepted, \(result.rejected.count) rejected, \(result.skipped.count) skipped\n"
                + summary
        }
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

    /// Writes the JUnit and TAP reports asked for; false (said) when one cannot be written.
    private func writeReports(_ report: JUnitReport, junit: String?, tap: String?) -> Bool {
        for (file, text, kind) in [(junit, { report.xml() }, "JUnit"), (tap, { report.tap() }, "TAP")] {
            guard let file else { continue }
            do {
                try ScriptFile.write(Array(text().utf8), to: file, relativeTo: nil, creatingFolder: false)
            } catch {
                // In closet's words (no such folder, permission denied), not Foundation's.
                output("error: \((error as? Diagnostic)?.message ?? "cannot write the \(kind) report '\(file)'")\n")
                return false
            }
        }
        return true
    }

    /// What recording a transcript says of errors of statements not marked `!` (none: nothing).
    static func unmarkedWarning(_ lines: [Int], name: String) -> String {
        guard !lines.isEmpty else { return "" }
        let shown = lines.prefix(5).map { "\(name):\($0)" }.joined(separator: ", ")
        return
            "warning: recorded \(lines.count) error\(lines.count == 1 ? "" : "s") of statements not marked '!' (\(shown)\(lines.count > 5 ? ", ..." : "")); mark each that must fail with a leading '!'\n"
    }

    static func expectedPath(of test: String) -> String { String(test.dropLast(".closet".count)) + ".expected" }

    /// `--review` of transcripts `--pending` kept: each one's diff from its expected file, then
    /// accept (it becomes the expected file), reject (it is removed) or skip (it stays).
    private func reviewPending(_ waiting: [(test: String, new: String)]) -> ClosetCommand.ExitStatus {
        var result = Result()
        for (test, new) in waiting {
            let expectedPath = Self.expectedPath(of: test)
            guard let text = FileManager.default.contents(atPath: new).map({ String(decoding: $0, as: UTF8.self) })
            else {
                continue
            }
            let expected = FileManager.default.contents(atPath: expectedPath).map {
                String(decoding: $0, as: UTF8.self)
            }
            output("pending \(new)\n")
            output(
                UnifiedDiff.render(
                    old: Self.lines(expected ?? ""), new: Self.lines(text),
                    oldName: FilePath.lastComponent(of: expectedPath), newName: FilePath.lastComponent(of: new)))
            result.failed.append(test)
            review(test, text, expectedPath, warning: "", into: &result, output: output)
            if result.accepted.last == test || result.rejected.last == test {
                try? FileManager.default.removeItem(atPath: new)
            }
        }
        output(
            "reviewed: \(result.accepted.count) accepted, \(result.rejected.count) rejected, \(result.skipped.count) skipped\n"
        )
        return .success
    }

    /// The test a `.expected` file belongs to.
    static func testPath(of expected: String) -> String { String(expected.dropLast(".expected".count)) + ".closet" }

    /// `.expected` files under the given folders (not single files) with no test beside them,
    /// when every test of that folder was collected (a `-k` or `--shard` run looks at its own).
    static func orphanedExpectations(_ paths: [String], tests: [String]) -> [String] {
        let collected = Set(tests)
        var orphans: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue
            else { continue }
            let found = (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? [])
                // A `.files/` folder holds what a test wrote, whatever its names.
                .filter { $0.hasSuffix(".expected") && !$0.contains(".files/") }.sorted()
            for name in found {
                let expected = FilePath.join(path, name)
                let test = testPath(of: expected)
                if !collected.contains(test), !FileManager.default.fileExists(atPath: test) { orphans.append(expected) }
            }
        }
        return orphans
    }

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
    /// What a golden printed, and what the runner needs to judge it.
    package struct Transcript {
        package var text: String
        /// The statement that printed each line (for "first differs at").
        var owners: [StatementLocation?]
        /// Lines of the test's statements that failed without a `!`, and that had one and succeeded.
        var unmarkedFailures: [Int]
        var markedSuccesses: [Int]
        /// The echo lines of statements whose output may come in any order.
        var anyOrderEchoes: Set<String>
        /// The files it wrote inside its folder, by path relative to it (they went to a scratch
        /// folder, removed once read here).
        var files: [String: [UInt8]] = [:]
        /// The `.skip if` condition that held: the test did not run.
        var skipped: String?
    }

    /// Every regular file under a folder, by path relative to it.
    static func filesUnder(_ folder: String) -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return files }
        for case let relative as String in walker {
            var isFolder: ObjCBool = false
            let path = folder + "/" + relative
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                let data = FileManager.default.contents(atPath: path)
            else { continue }
            files[relative] = [UInt8](data)
        }
        return files
    }

    /// A comment line that says the next statement's output lines may come in any order
    /// (sqllogictest's `rowsort`): they are compared as a multiset.
    static let anyOrderDirective = "# rows in any order"

    /// The lines of the statements that follow an any-order directive.
    static func anyOrderLines(in script: String) -> Set<Int> {
        var marked = Set<Int>()
        var pending = false
        for (index, line) in script.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed == anyOrderDirective {
                pending = true
            } else if pending, !trimmed.isEmpty, !trimmed.hasPrefix("#") {
                marked.insert(index + 1)
                pending = false
            }
        }
        return marked
    }

    package static func transcript(
        of file: String, record: Bool = false, environment: [String: String] = [:],
        network: SessionFactory.NetworkMode? = nil, registry: CommandRegistry? = nil, short: Bool = false
    ) throws -> Transcript {
        let read = try ScriptFile.read(file, relativeTo: nil)
        let (withFiles, fixtures) = try InlineFixtures.separating(read.text)
        // Its `.skip if` lines (not inside an inline file) decide first; then they are comments.
        let (text, skip) = try SkipConditions.read(withFiles, environment: environment, short: short)
        if let skip {
            return Transcript(
                text: "", owners: [], unmarkedFailures: [], markedSuccesses: [], anyOrderEchoes: [], skipped: skip)
        }
        let script = (text: text, displayName: read.displayName)
        let host = TranscriptHost(baseDirectory: FilePath.parent(of: file))
        host.allowsShell = TranscriptHost.allowsShell(in: script.text)
        // The test's inline files, in its scratch folder before it runs.
        for fixture in fixtures {
            try host.writeFile(at: fixture.name, bytes: fixture.bytes, creatingFolder: true)
        }
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
        _ = session.runScript(script.text, name: testLabel)
        _ = session.commit()
        let anyOrder = anyOrderLines(in: script.text)
        var echoes = Set<String>()
        if !anyOrder.isEmpty {
            for (line, owner) in zip(Self.rawLines(host.text), host.lineOwners) {
                guard let owner, owner.origin == testLabel, anyOrder.contains(owner.line), line.hasPrefix(echoPrefix)
                else { continue }
                echoes.insert(line)
            }
        }
        var files: [String: [UInt8]] = [:]
        if let scratch = host.scratch {
            files = filesUnder(scratch)
            // Inline files it did not change are the test's own, not what it wrote.
            for fixture in fixtures where files[fixture.name] == fixture.bytes { files[fixture.name] = nil }
            try? FileManager.default.removeItem(atPath: scratch)
        }
        return Transcript(
            text: host.text, owners: host.lineOwners,
            unmarkedFailures: session.tally.unmarkedFailures.filter { $0.origin == testLabel }.map(\.line),
            markedSuccesses: session.tally.markedSuccesses.filter { $0.origin == testLabel }.map(\.line),
            anyOrderEchoes: echoes, files: files)
    }

    /// What differs between the files a test wrote and its `<name>.files/` folder, one entry a
    /// file; empty when they agree.
    static func fileDifferences(expected: [String: [UInt8]], actual: [String: [UInt8]]) -> [String] {
        Set(expected.keys).union(actual.keys).sorted().compactMap { name in
            switch (expected[name], actual[name]) {
            case (nil, _): "\(name) (written, not in the folder)"
            case (_, nil): "\(name) (in the folder, not written)"
            case (let old?, let new?) where old != new: "\(name) (differs)"
            default: nil
            }
        }
    }

    /// For lines that differ at the same place and are both JSON (one value a line, as
    /// `.mode json` writes), the paths of what changed: `json: [1].price: 100 -> 120`.
    static func jsonChanges(old: [String], new: [String]) -> String {
        var out: [String] = []
        for index in 0..<min(old.count, new.count) where old[index] != new[index] && out.count < 10 {
            guard let first = old[index].first, first == "{" || first == "[", new[index].first == first,
                let before = try? JSONSerialization.jsonObject(with: Data(old[index].utf8), options: .fragmentsAllowed),
                let after = try? JSONSerialization.jsonObject(with: Data(new[index].utf8), options: .fragmentsAllowed)
            else { continue }
            var changes: [String] = []
            jsonDifferences(before, after, path: "", into: &changes)
            for change in changes.prefix(10 - out.count) { out.append("json: \(change)") }
        }
        return out.map { $0 + "\n" }.joined()
    }

    private static func jsonDifferences(_ old: Any, _ new: Any, path: String, into changes: inout [String]) {
        guard changes.count < 10 else { return }
        switch (old, new) {
        case (let old as [String: Any], let new as [String: Any]):
            for key in Set(old.keys).union(new.keys).sorted() {
                let here = path + "." + key
                switch (old[key], new[key]) {
                case (let a?, let b?): jsonDifferences(a, b, path: here, into: &changes)
                case (let a?, nil): changes.append("\(shown(here)): \(jsonText(a)) -> (gone)")
                case (nil, let b?): changes.append("\(shown(here)): (new) -> \(jsonText(b))")
                default: break
                }
            }
        case (let old as [Any], let new as [Any]):
            for index in 0..<max(old.count, new.count) {
                let here = path + "[\(index)]"
                if index >= old.count {
                    changes.append("\(here): (new) -> \(jsonText(new[index]))")
                } else if index >= new.count {
                    changes.append("\(here): \(jsonText(old[index])) -> (gone)")
                } else {
                    jsonDifferences(old[index], new[index], path: here, into: &changes)
                }
            }
        default:
            let (a, b) = (jsonText(old), jsonText(new))
            if a != b { changes.append("\(shown(path)): \(a) -> \(b)") }
        }
    }

    /// A path as said: `price`, `[1].price`, `$` for the whole value.
    private static func shown(_ path: String) -> String { path.isEmpty ? "$" : String(path.drop { $0 == "." }) }

    private static func jsonText(_ value: Any) -> String {
        if let text = value as? String { return JSONText.string(text) }
        if value is NSNull { return "null" }
        if let data = try? JSONSerialization.data(withJSONObject: value, options: [.fragmentsAllowed, .sortedKeys]) {
            return String(decoding: data, as: UTF8.self)
        }
        return "\(value)"
    }

    /// A unified diff of each file that differs (text files, the first five), for the console.
    static func fileDiffs(expected: [String: [UInt8]], actual: [String: [UInt8]], folder: String) -> String {
        var out = ""
        let changed = Set(expected.keys).union(actual.keys).sorted().filter { expected[$0] != actual[$0] }
        for name in changed.prefix(5) {
            let old = expected[name].map { String(decoding: $0, as: UTF8.self) } ?? ""
            let new = actual[name].map { String(decoding: $0, as: UTF8.self) } ?? ""
            let binary = [expected[name], actual[name]].contains { $0?.contains(0) ?? false }
            if binary {
                out +=
                    "  \(name): binary, \(expected[name]?.count ?? 0) bytes expected, \(actual[name]?.count ?? 0) written\n"
                continue
            }
            out += UnifiedDiff.render(
                old: expected[name] == nil ? [] : lines(old), new: actual[name] == nil ? [] : lines(new),
                oldName: FilePath.lastComponent(of: folder) + "/" + name, newName: "written/" + name)
        }
        return out
    }

    /// The actual transcript with each line a pattern of the expected one matches replaced by
    /// that pattern (in order), and each any-order block's lines put in the expected block's
    /// order where they are the same lines (row numbers aside): for the diff only.
    static func aligned(_ actual: String, to expected: String, anyOrder echoes: Set<String>) -> String {
        let wanted = rawLines(expected)
        var got = rawLines(actual)
        var from = 0
        for line in wanted where line.hasSuffix(patternSuffix) {
            guard let found = got.indices.dropFirst(from).first(where: { lineMatches(line, got[$0]) }) else { continue }
            got[found] = line
            from = found + 1
        }
        func block(_ lines: [String], after echo: Int) -> Range<Int> {
            var end = echo + 1
            while end < lines.count, !lines[end].hasPrefix(echoPrefix), !(end == lines.count - 1 && lines[end].isEmpty)
            {
                end += 1
            }
            return (echo + 1)..<end
        }
        for echo in echoes {
            guard let mine = got.firstIndex(of: echo), let theirs = wanted.firstIndex(of: echo) else { continue }
            let ours = block(got, after: mine)
            var unused = Array(got[ours])
            var ordered: [String] = []
            for line in wanted[block(wanted, after: theirs)] {
                guard let match = unused.firstIndex(where: { withoutRowNumber($0) == withoutRowNumber(line) }) else {
                    continue
                }
                unused.remove(at: match)
                ordered.append(line)
            }
            got.replaceSubrange(ours, with: ordered + unused)
        }
        return got.joined(separator: "\n")
    }

    /// Replaces a `.files/` folder's contents with what the test wrote.
    static func record(_ files: [String: [UInt8]], into folder: String) throws {
        for name in filesUnder(folder).keys where files[name] == nil {
            try FileManager.default.removeItem(atPath: folder + "/" + name)
        }
        for (name, bytes) in files {
            let path = folder + "/" + name
            try FileManager.default.createDirectory(
                atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        }
    }

    static let echoPrefix = "closet> "

    /// A line without the leading row number a table listing gives it (`12  E220A839  top`).
    static func withoutRowNumber(_ line: String) -> String {
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        let rest = line.dropFirst(digits.count)
        guard !digits.isEmpty, rest.hasPrefix(" ") else { return line }
        return String(rest.drop { $0 == " " })
    }

    static func rawLines(_ text: String) -> [String] {
        text.components(separatedBy: "\n")
    }

    /// The transcript with the output of each any-order statement sorted (the lines after its
    /// echo, up to the next echo, each without a listing's row number), so two transcripts that
    /// differ only in those orders compare equal.
    package static func sortingAnyOrderBlocks(_ text: String, echoes: Set<String>) -> String {
        guard !echoes.isEmpty else { return text }
        var lines = rawLines(text)
        var index = 0
        while index < lines.count {
            guard echoes.contains(lines[index]) else {
                index += 1
                continue
            }
            var end = index + 1
            while end < lines.count, !lines[end].hasPrefix(echoPrefix), !(end == lines.count - 1 && lines[end].isEmpty)
            {
                end += 1
            }
            // A listing's `#` column numbers rows by position: in any order it says nothing.
            for position in (index + 1)..<end { lines[position] = Self.withoutRowNumber(lines[position]) }
            lines[(index + 1)..<end].sort()
            index = end
        }
        return lines.joined(separator: "\n")
    }

    /// What a golden's diagnostics call the test's own script (`<test>:8:12: error: ...`, as
    /// piped statements are `<stdin>`): not its file name, so a copied test passes unchanged.
    /// Other files it reads keep their names.
    package static let testLabel = "<test>"

    /// What one test came to: its console text, its part of the result, its time.
    struct TestOutcome: Sendable {
        var text = ""
        var result = Result()
        var seconds = 0.0
    }

    private func runOne(
        _ file: String, update: Bool, record: Bool, review: Bool = false, streaming: (String) -> Void
    ) -> TestOutcome {
        let started = Date()
        var outcome = TestOutcome()
        check(file, update: update, record: record, review: review, into: &outcome.result) { text in
            outcome.text += text
            streaming(text)
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// Runs folders side by side on `jobs` threads, each folder's tests in order; returns the
    /// outcomes in the order of `files`, so the console reads as with one job.
    private func runInParallel(_ files: [String], jobs: Int, update: Bool, record: Bool) -> [TestOutcome] {
        var folders: [[Int]] = []
        var folderOf: [String: Int] = [:]
        for (index, file) in files.enumerated() {
            let folder = FilePath.parent(of: file)
            if let number = folderOf[folder] {
                folders[number].append(index)
            } else {
                folderOf[folder] = folders.count
                folders.append([index])
            }
        }
        // The biggest folders first, so a long one does not start last.
        let order = folders.indices.sorted { folders[$0].count > folders[$1].count }
        let shared = ParallelOutcomes(count: files.count, folders: order.map { folders[$0] })
        // Workers read only `environment`; the console (`output`) is written after they finish.
        let runner = UncheckedRunner(runner: self)
        DispatchQueue.concurrentPerform(iterations: min(jobs, folders.count)) { _ in
            while let folder = shared.nextFolder() {
                for index in folder {
                    shared.set(index, runner.runner.runOne(files[index], update: update, record: record) { _ in })
                }
            }
        }
        return shared.outcomes
    }

    private func check(
        _ file: String, update: Bool, record: Bool, review: Bool = false, into result: inout Result,
        output: (String) -> Void
    ) {
        let expectedPath = String(file.dropLast(".closet".count)) + ".expected"
        let name = FilePath.lastComponent(of: file)
        let actual: Transcript
        do {
            actual = try Self.transcript(of: file, record: record, environment: environment, short: short)
        } catch {
            let message = (error as? Diagnostic)?.message ?? (error as? NetworkError)?.message ?? "\(error)"
            output("FAIL \(file): \(message)\n")
            result.failed.append(file)
            return
        }
        if let condition = actual.skipped {
            output("skip \(file): \(condition)\n")
            result.conditionSkipped.append(file)
            return
        }
        // A statement marked `!` that succeeded fails the test whatever the transcript says.
        if !actual.markedSuccesses.isEmpty {
            let lines = actual.markedSuccesses.map { "\(name):\($0)" }.joined(separator: ", ")
            output("FAIL \(file): marked '!' (must fail) but succeeded: \(lines)\n")
            result.failed.append(file)
            return
        }
        // With a `<name>.files/` folder beside it, the files it wrote must be exactly those.
        let filesFolder = String(file.dropLast(".closet".count)) + ".files"
        var isFolder: ObjCBool = false
        // Recorded with --update, else each differing file shown; the transcript is compared
        // either way, so a test that differs in both shows both.
        var filesUpdated = false
        var filesDiffer = false
        if FileManager.default.fileExists(atPath: filesFolder, isDirectory: &isFolder), isFolder.boolValue {
            let recorded = Self.filesUnder(filesFolder)
            let differences = Self.fileDifferences(expected: recorded, actual: actual.files)
            if !differences.isEmpty {
                if update {
                    do {
                        try Self.record(actual.files, into: filesFolder)
                        filesUpdated = true
                    } catch {
                        output("FAIL \(file): cannot write \(filesFolder): \(error.localizedDescription)\n")
                        result.failed.append(file)
                        return
                    }
                } else {
                    filesDiffer = true
                    let shown = differences.prefix(10).joined(separator: ", ")
                    output(
                        "FAIL \(file): the files it wrote differ from \(FilePath.lastComponent(of: filesFolder))/: \(shown)\n"
                    )
                    output(Self.fileDiffs(expected: recorded, actual: actual.files, folder: filesFolder))
                }
            }
        }
        let filesNote = filesUpdated ? " and \(filesFolder)/" : ""
        let expected = FileManager.default.contents(atPath: expectedPath).flatMap { String(data: $0, encoding: .utf8) }
        var transcriptMatches =
            expected.map { $0 == actual.text || Self.matches(expected: $0, actual: actual.text) } ?? false
        if let expected, !transcriptMatches, !actual.anyOrderEchoes.isEmpty {
            let (sortedExpected, sortedActual) = (
                Self.sortingAnyOrderBlocks(expected, echoes: actual.anyOrderEchoes),
                Self.sortingAnyOrderBlocks(actual.text, echoes: actual.anyOrderEchoes)
            )
            transcriptMatches =
                sortedExpected == sortedActual || Self.matches(expected: sortedExpected, actual: sortedActual)
        }
        if transcriptMatches {
            if filesDiffer {
                result.failed.append(file)
            } else if filesUpdated {
                output("updated \(filesFolder)/\n")
                result.updated.append(file)
            } else {
                result.passed.append(file)
                // A transcript kept pending from an earlier run is stale once the test passes.
                if let pending { try? FileManager.default.removeItem(atPath: pending.path(for: expectedPath)) }
            }
            return
        }
        if update {
            do {
                let recorded = expected.map { Self.keepingPatterns(of: $0, in: actual.text) } ?? actual.text
                try recorded.write(toFile: expectedPath, atomically: true, encoding: .utf8)
                output("\(expected == nil ? "created" : "updated") \(expectedPath)\(filesNote)\n")
                // Said loudly: an error recorded for a statement not marked `!` may be an accident.
                output(Self.unmarkedWarning(actual.unmarkedFailures, name: name))
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
        if let pending {
            let path = pending.path(for: expectedPath)
            do {
                try FileManager.default.createDirectory(
                    atPath: FilePath.parent(of: path), withIntermediateDirectories: true)
                try actual.text.write(toFile: path, atomically: true, encoding: .utf8)
                output("pending \(path)\n")
            } catch {
                output("error: cannot write \(path): \(error.localizedDescription)\n")
            }
        }
        defer {
            if review {
                self.review(
                    file, actual.text, expectedPath, warning: Self.unmarkedWarning(actual.unmarkedFailures, name: name),
                    into: &result, output: output)
            }
        }
        guard let expected else {
            output(
                "FAIL \(file): missing \(FilePath.lastComponent(of: expectedPath)); record it on purpose with 'closet test --update \(file)'\n"
            )
            return
        }
        let oldLines = Self.lines(expected)
        // Lines a pattern or an any-order block accepts are shown as the expected file has
        // them, so the diff shows only what really changed.
        let newLines = Self.lines(Self.aligned(actual.text, to: expected, anyOrder: actual.anyOrderEchoes))
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
        // A JSON line that changed is also said by the paths of what changed in it.
        output(Self.jsonChanges(old: oldLines, new: newLines))
    }

    /// `--review`, after a failing test's diff: accept (record the new output, keeping the
    /// patterns that still match), reject, or skip; anything else asks again.
    private func review(
        _ file: String, _ actual: String, _ expectedPath: String, warning: String, into result: inout Result,
        output: (String) -> Void
    ) {
        while true {
            guard let answer = ask?("\(file): [a]ccept the new output, [r]eject it, or [s]kip? ") else {
                result.skipped.append(file)
                return
            }
            switch answer.trimmingCharacters(in: .whitespaces).lowercased() {
            case "a", "accept":
                let expected = FileManager.default.contents(atPath: expectedPath)
                    .flatMap { String(data: $0, encoding: .utf8) }
                do {
                    let recorded = expected.map { Self.keepingPatterns(of: $0, in: actual) } ?? actual
                    try recorded.write(toFile: expectedPath, atomically: true, encoding: .utf8)
                } catch {
                    output("cannot write \(expectedPath): \(error.localizedDescription)\n")
                    result.skipped.append(file)
                    return
                }
                output("accepted: \(expected == nil ? "created" : "updated") \(expectedPath)\n" + warning)
                result.failed.removeAll { $0 == file }
                result.accepted.append(file)
                return
            case "r", "reject":
                result.rejected.append(file)
                return
            case "s", "skip", "":
                result.skipped.append(file)
                return
            default:
                continue
            }
        }
    }

    /// A transcript's lines as the diff shows them: differences a reader cannot see are made
    /// visible (a carriage return as `␍`, trailing blanks as `·` and `→`), and a missing final
    /// newline is a line of its own, as `diff` prints it.
    /// An expected line ending in ` (re)` is a regular expression the whole actual line must
    /// match (cram's convention): for what varies from run to run, such as a time.
    static let patternSuffix = " (re)"

    /// Whether the transcript matches line for line, patterns by their expression.
    package static func matches(expected: String, actual: String) -> Bool {
        let wanted = expected.components(separatedBy: "\n")
        let got = actual.components(separatedBy: "\n")
        guard wanted.count == got.count, wanted.contains(where: { $0.hasSuffix(patternSuffix) }) else { return false }
        return zip(wanted, got).allSatisfy { line, actual in line == actual || lineMatches(line, actual) }
    }

    package static func lineMatches(_ line: String, _ actual: String) -> Bool {
        guard line.hasSuffix(patternSuffix),
            let expression = try? NSRegularExpression(pattern: "^(?:" + line.dropLast(patternSuffix.count) + ")$")
        else { return false }
        return expression.firstMatch(in: actual, range: NSRange(actual.startIndex..., in: actual)) != nil
    }

    /// What `--update` records: the new transcript, keeping each pattern line whose new line
    /// it still matches (when the line counts agree), so a pattern is not lost to one run's value.
    static func keepingPatterns(of expected: String, in actual: String) -> String {
        let wanted = expected.components(separatedBy: "\n")
        var got = actual.components(separatedBy: "\n")
        guard wanted.count == got.count else { return actual }
        for index in got.indices where lineMatches(wanted[index], got[index]) { got[index] = wanted[index] }
        return got.joined(separator: "\n")
    }

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

/// The outcomes of a parallel run and the folders still to take, behind one lock.
private final class ParallelOutcomes: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [GoldenRunner.TestOutcome]
    private var folders: [[Int]]
    private var next = 0

    init(count: Int, folders: [[Int]]) {
        results = Array(repeating: GoldenRunner.TestOutcome(), count: count)
        self.folders = folders
    }

    func nextFolder() -> [Int]? {
        lock.lock()
        defer { lock.unlock() }
        guard next < folders.count else { return nil }
        next += 1
        return folders[next - 1]
    }

    func set(_ index: Int, _ outcome: GoldenRunner.TestOutcome) {
        lock.lock()
        results[index] = outcome
        lock.unlock()
    }

    var outcomes: [GoldenRunner.TestOutcome] {
        lock.lock()
        defer { lock.unlock() }
        return results
    }
}

/// The runner as workers see it: they call only what reads its environment.
private struct UncheckedRunner: @unchecked Sendable {
    let runner: GoldenRunner
}
