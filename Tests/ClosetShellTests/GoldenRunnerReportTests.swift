import Foundation
import Testing

@testable import ClosetShell

/// Issue 45, item 5: what the runner reports, held to the exact words it prints, for each
/// case it once hid or lost.
@Suite struct GoldenRunnerReportTests {
    let helper = GoldenRunnerTests()

    func runner(_ printed: UnsafeMutablePointer<String>, ask: (@Sendable (String) -> String?)? = nil) -> GoldenRunner {
        GoldenRunner(environment: [:], output: { printed.pointee += $0 }, ask: ask)
    }

    /// An empty shard and a `-k` that matches nothing still write their (empty) reports, so a
    /// CI step that publishes them finds a file.
    @Test func anEmptySelectionStillWritesItsReports() throws {
        let dir = try helper.folder(["a.closet": "count clothes\n"])
        var selection = GoldenRunner.Selection()
        selection.shard = GoldenRunner.Shard("2/2")
        selection.tap = dir + "/shard.tap"
        var printed = ""
        let status = withUnsafeMutablePointer(to: &printed) { pointer in
            runner(pointer).run(paths: [dir], update: false, junit: dir + "/shard.xml", selection: selection)
        }
        #expect(status == .success)
        #expect(printed == "shard 2/2 has no tests\n0 passed, 0 failed\n", "\(printed)")
        #expect(try String(contentsOfFile: dir + "/shard.xml", encoding: .utf8).contains("tests=\"0\""))
        #expect(try String(contentsOfFile: dir + "/shard.tap", encoding: .utf8).hasPrefix("TAP version 13\n1..0"))
        var unmatched = GoldenRunner.Selection()
        unmatched.pattern = "nothing-like-this"
        var said = ""
        let refused = withUnsafeMutablePointer(to: &said) { pointer in
            runner(pointer).run(paths: [dir], update: false, junit: dir + "/k.xml", selection: unmatched)
        }
        #expect(refused == .failure)
        #expect(said == "error: no golden test's path contains 'nothing-like-this' (-k)\n0 passed, 0 failed\n")
        #expect(FileManager.default.fileExists(atPath: dir + "/k.xml"))
    }

    /// An expected file whose test is gone is reported (and fails the run) instead of lying there.
    @Test func anExpectedFileWithNoTestIsReported() throws {
        let dir = try helper.folder([
            "a.closet": "count clothes\n", "a.expected": "closet> count clothes\ncount\n-----\n    0\n",
            "renamed.expected": "closet> count clothes\n",
        ])
        let (status, printed) = helper.run([dir])
        #expect(status == .failure)
        #expect(
            printed
                == "FAIL \(dir)/renamed.expected: no renamed.closet beside it (the test was renamed or removed: remove it, or restore the test)\n1 passed, 1 failed\n",
            "\(printed)")
    }

    /// Files that differ are shown as diffs, and a transcript that differs too is shown as well.
    @Test func differingFilesAreShownAsDiffsBesideTheTranscript() throws {
        let dir = try helper.folder([
            "a.closet": ".output notes.txt\ncount clothes\n.output\ncount styles\n",
            "a.expected":
                "closet> .output notes.txt\ncloset> count clothes\ncloset> .output\ncloset> count styles\nold\n",
            "a.files/notes.txt": "count\n-----\n    7\n",
        ])
        let (status, printed) = helper.run([dir + "/a.closet"])
        #expect(status == .failure)
        #expect(
            printed.hasPrefix("FAIL \(dir)/a.closet: the files it wrote differ from a.files/: notes.txt (differs)\n"))
        #expect(printed.contains("--- a.files/notes.txt\n+++ written/notes.txt\n"), "\(printed)")
        #expect(printed.contains("-    7\n+    0\n"), "\(printed)")
        // The transcript's own difference, after the files'.
        #expect(printed.contains("FAIL \(dir)/a.closet: output first differs at a.closet:4\n"), "\(printed)")
        #expect(printed.contains("-old\n+count\n"), "\(printed)")
        #expect(printed.hasSuffix("0 passed, 1 failed\n"))
    }

    /// `--update` filling a `.files/` folder says so once, counted once.
    @Test func updatingFilesIsSaidOnceAndCountedOnce() throws {
        let dir = try helper.folder(["a.closet": ".output notes.txt\ncount clothes\n.output\n"])
        try FileManager.default.createDirectory(atPath: dir + "/a.files", withIntermediateDirectories: true)
        let (_, first) = helper.run([dir], update: true)
        #expect(
            first
                == "created \(dir)/a.expected and \(dir)/a.files/\ncreated 1 file, updated 0 files, 0 unchanged\n0 passed, 0 failed\n",
            "\(first)")
        try "count\n-----\n    7\n".write(toFile: dir + "/a.files/notes.txt", atomically: true, encoding: .utf8)
        let (_, printed) = helper.run([dir], update: true)
        #expect(
            printed == "updated \(dir)/a.files/\ncreated 0 files, updated 1 file, 0 unchanged\n0 passed, 0 failed\n",
            "\(printed)")
        let (_, again) = helper.run([dir], update: true)
        #expect(again == "created 0 files, updated 0 files, 1 unchanged\n1 passed, 0 failed\n", "\(again)")
    }

    /// Lines a `(re)` pattern or an any-order block accepts are not shown as changed beside a
    /// real change.
    @Test func aDiffShowsOnlyWhatReallyChanged() throws {
        let dir = try helper.folder([
            "a.closet": ".clock\n* list clothes\nadd clothes category=top season=fall description=b\ncount clothes\n",
            "a.expected": """
            closet> .clock
            2024-01-01T00:00:00Z (re)
            closet> * list clothes
            #  id  category  season  description  created
            -  --  --------  ------  -----------  -------
            (0 rows)
            closet> add clothes category=top season=fall description=b
            id        category  season  description  created
            --------  --------  ------  -----------  --------------------
            E220A839  top       fall    b            2024-01-01T00:00:00Z
            closet> count clothes
            count
            -----
                9

            """,
        ])
        let (status, printed) = helper.run([dir])
        #expect(status == .failure)
        #expect(printed.contains("-    9\n+    1\n"), "\(printed)")
        #expect(!printed.contains("-2024-01-01T00:00:00Z (re)"), "\(printed)")
    }

    /// `--review` warns, as `--update` does, when what it records holds an error of a
    /// statement not marked `!`.
    @Test func reviewWarnsOfUnmarkedErrorsItRecords() throws {
        let dir = try helper.folder(["a.closet": "count clothez\n", "a.expected": "closet> count clothez\nold\n"])
        var selection = GoldenRunner.Selection()
        selection.review = true
        var printed = ""
        _ = withUnsafeMutablePointer(to: &printed) { pointer in
            runner(pointer, ask: { _ in "a" }).run(paths: [dir], update: false, selection: selection)
        }
        #expect(
            printed.contains(
                "accepted: updated \(dir)/a.expected\nwarning: recorded 1 error of statements not marked '!' (a.closet:1); mark each that must fail with a leading '!'\n"
            ), "\(printed)")
    }

    /// Issue 45, item 6: a test carries its input files after its statements (txtar), written
    /// beside it for the run only; one that is not base64 where it says so is a failure named.
    @Test func inlineFilesAreReadAsFilesBesideTheTest() throws {
        let png = try #require(FileManager.default.contents(atPath: ServeTests.fixtures + "/knit.png"))
        let dir = try helper.folder([
            "a.closet": """
            import clothes from=in/clothes.csv
            count clothes
            add clothes category=top season=fall image=knit.png
            -- in/clothes.csv --
            category,season,description
            top,fall,navy knit
            -- knit.png (base64) --
            \(png.base64EncodedString(options: .lineLength76Characters))

            """,
            "bad.closet": "count clothes\n-- x.png (base64) --\nnot base64!\n",
        ])
        let (_, first) = helper.run([dir], update: true)
        #expect(
            first.contains("FAIL \(dir)/bad.closet: line 2: 'x.png' is marked (base64) but is not base64\n"), "\(first)"
        )
        let expected = try String(contentsOfFile: dir + "/a.expected", encoding: .utf8)
        #expect(expected.contains("       1  in/clothes.csv") && expected.contains("png 3x2 86B"), "\(expected)")
        // Nothing is left beside the test, and its inline files are not "files it wrote".
        #expect(
            !FileManager.default.fileExists(atPath: dir + "/in")
                && !FileManager.default.fileExists(atPath: dir + "/knit.png"))
        try FileManager.default.createDirectory(atPath: dir + "/a.files", withIntermediateDirectories: true)
        #expect(helper.run([dir + "/a.closet"]).0 == .success)
    }

    /// Issue 45, item 6: `.skip if <condition>` skips a test when it holds, said and counted apart.
    @Test func skipConditionsSkipWhenTheyHold() throws {
        let dir = try helper.folder([
            "long.closet": ".skip if short\ncount clothes\n",
            "tool.closet": ".skip if missing no-such-tool-for-closet\ncount clothes\n",
            "sh.closet": ".skip if missing sh\ncount clothes\n",
            "odd.closet": ".skip if tuesday\ncount clothes\n",
        ])
        var selection = GoldenRunner.Selection()
        selection.short = true
        var printed = ""
        _ = withUnsafeMutablePointer(to: &printed) { pointer in
            runner(pointer).run(paths: [dir], update: true, selection: selection)
        }
        #expect(printed.contains("skip \(dir)/long.closet: short\n"), "\(printed)")
        #expect(printed.contains("skip \(dir)/tool.closet: missing no-such-tool-for-closet\n"), "\(printed)")
        #expect(
            printed.contains(
                "FAIL \(dir)/odd.closet: line 1: '.skip if tuesday' names no condition; they are short, ci, no-helper and missing <tool>\n"
            ), "\(printed)")
        #expect(
            printed.hasSuffix(
                "created 1 file, updated 0 files, 0 unchanged\n2 skipped (.skip if)\n0 passed, 1 failed\n"),
            "\(printed)")
        // A `.skip if` line inside an inline file is that file's text, not a condition.
        let inside = try helper.folder(["c.closet": ".read notes.closet\n-- notes.closet --\n.skip if short\n"])
        var insidePrinted = ""
        _ = withUnsafeMutablePointer(to: &insidePrinted) { pointer in
            runner(pointer).run(paths: [inside], update: true, selection: selection)
        }
        #expect(insidePrinted.hasPrefix("created \(inside)/c.expected"), "\(insidePrinted)")
        // Without --short the long test runs; its line stays a comment, numbering kept.
        let (_, full) = helper.run([dir + "/long.closet"], update: true)
        #expect(full.hasPrefix("created \(dir)/long.expected"), "\(full)")
    }

    /// Issue 45, item 6: `--unreferenced` lists the expected files no test has; with
    /// `--update` it removes them.
    @Test func unreferencedListsAndRemovesExpectedFilesWithNoTest() throws {
        let dir = try helper.folder([
            "a.closet": "count clothes\n", "a.expected": "x\n", "old.expected": "y\n", "sub/gone.expected": "z\n",
        ])
        var selection = GoldenRunner.Selection()
        selection.unreferenced = true
        var listed = ""
        let status = withUnsafeMutablePointer(to: &listed) { pointer in
            runner(pointer).run(paths: [dir], update: false, selection: selection)
        }
        #expect(status == .success)
        #expect(listed == "\(dir)/old.expected\n\(dir)/sub/gone.expected\n2 unreferenced expected files\n", "\(listed)")
        var removed = ""
        _ = withUnsafeMutablePointer(to: &removed) { pointer in
            runner(pointer).run(paths: [dir], update: true, selection: selection)
        }
        #expect(removed.hasSuffix("2 unreferenced expected files removed\n"), "\(removed)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/old.expected"))
        #expect(try String(contentsOfFile: dir + "/a.expected", encoding: .utf8) == "x\n")
    }

    /// Issue 45, item 6: `--pending` keeps a failing test's new transcript as
    /// `NAME.expected.new` (or under `--pending-dir`, a CI artefact), and `--review` later
    /// reviews those without running anything.
    @Test func pendingTranscriptsAreKeptAndReviewedLater() throws {
        let dir = try helper.folder([
            "a.closet": "count clothes\n", "a.expected": "closet> count clothes\nold\n",
            "b.closet": "count clothes\n", "b.expected": "closet> count clothes\nold\n",
        ])
        var selection = GoldenRunner.Selection()
        selection.pending = .besideTests
        var printed = ""
        let status = withUnsafeMutablePointer(to: &printed) { pointer in
            runner(pointer).run(paths: [dir], update: false, selection: selection)
        }
        #expect(status == .failure)
        #expect(
            printed.contains("pending \(dir)/a.expected.new\n") && printed.contains("pending \(dir)/b.expected.new\n"))
        #expect(try String(contentsOfFile: dir + "/a.expected.new", encoding: .utf8).hasSuffix("    0\n"))
        // Later, from the kept files: accept a, reject b; nothing runs.
        var answers = ["a", "r"]
        var reviewed = ""
        var review = GoldenRunner.Selection()
        review.review = true
        _ = withUnsafeMutablePointer(to: &reviewed) { pointer in
            GoldenRunner(
                environment: [:], output: { pointer.pointee += $0 },
                ask: { _ in answers.isEmpty ? nil : answers.removeFirst() }
            ).run(paths: [dir], update: false, selection: review)
        }
        #expect(
            reviewed.hasPrefix("pending \(dir)/a.expected.new\n--- a.expected\n+++ a.expected.new\n"), "\(reviewed)")
        #expect(reviewed.hasSuffix("reviewed: 1 accepted, 1 rejected, 0 skipped\n"), "\(reviewed)")
        #expect(try String(contentsOfFile: dir + "/a.expected", encoding: .utf8).hasSuffix("    0\n"))
        #expect(try String(contentsOfFile: dir + "/b.expected", encoding: .utf8) == "closet> count clothes\nold\n")
        #expect(!FileManager.default.fileExists(atPath: dir + "/a.expected.new"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/b.expected.new"))
        // A CI artefact folder holds them by the tests' paths.
        let artefacts = try helper.folder([:])
        selection.pending = .folder(artefacts)
        _ = helper.run([dir])
        var ci = ""
        _ = withUnsafeMutablePointer(to: &ci) { pointer in
            runner(pointer).run(paths: [dir + "/b.closet"], update: false, selection: selection)
        }
        #expect(FileManager.default.fileExists(atPath: artefacts + dir + "/b.expected.new"), "\(ci)")
    }

    /// Issue 45, item 6: a JSON line that changed is also said by the paths of what changed.
    @Test func aChangedJSONLineIsSaidByItsPaths() throws {
        let dir = try helper.folder([
            "a.closet": ".mode json\nadd clothes category=top season=fall description=b\n",
            "a.expected": """
            closet> .mode json
            closet> add clothes category=top season=fall description=b
            {"id":"E220A839-7B1D-4DAF-AE78-9E6AA1B965F4","createdAt":"2024-01-01T00:00:00Z","category":"bottom","season":"fall","description":"b","image":null,"old":1}

            """,
        ])
        let (status, printed) = helper.run([dir])
        #expect(status == .failure)
        #expect(printed.contains("json: category: \"bottom\" -> \"top\"\njson: old: 1 -> (gone)\n"), "\(printed)")
        #expect(
            GoldenRunner.jsonChanges(old: [#"[{"a":[1,2]}]"#], new: [#"[{"a":[1,3,4]}]"#])
                == "json: [0].a[1]: 2 -> 3\njson: [0].a[2]: (new) -> 4\n")
    }
}
