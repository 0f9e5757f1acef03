import ClosetCore
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing
import WardrobePack

@testable import ClosetLanguage

@Suite struct SessionTests {
    @Test func addThenListPrintsTwoJSONValues() {
        let harness = Harness()
        #expect(harness.run("add clothes category=top season=fall description=\"navy knit\""))
        #expect(harness.run("list clothes"))
        let lines = harness.host.standardOutput.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("{\"id\":\""))
        #expect(
            lines[0].hasSuffix(
                "\"createdAt\":\"2024-01-01T00:00:00Z\",\"category\":\"top\",\"season\":\"fall\",\"description\":\"navy knit\",\"image\":null}"
            ))
        #expect(lines[1] == "[" + lines[0] + "]")
    }

    /// What a statement's first two words name is remembered from the statement before only
    /// when no longer command starts with them: `cache stats` then `cache stats posters` and
    /// `cache stats dogs` each run their own command, and removes by id one after another each
    /// remove their own row.
    @Test func twoWordsRememberedNeverHideALongerCommand() throws {
        let statements = ["cache stats", "cache stats posters", "cache stats dogs", "cache stats", "cache stats dogs"]
        let alone = statements.map { Harness().output($0) }
        let harness = Harness()
        let together = statements.map { harness.output($0) }
        #expect(together == alone)
        #expect(Set(alone).count == 3)
        for description in ["a", "b", "c"] {
            #expect(harness.run("add clothes category=top season=fall description=\(description)"))
        }
        let listed = try #require(
            try JSONSerialization.jsonObject(with: Data(harness.output("list clothes sort=old").utf8))
                as? [[String: Any]])
        let ids = listed.compactMap { $0["id"] as? String }
        #expect(ids.count == 3)
        #expect(harness.run("remove clothes \(ids[0])"))
        #expect(harness.run("remove clothes \(ids[2])"))
        #expect(!harness.run("remove clothes \(ids[0])"))
        let left = try #require(
            try JSONSerialization.jsonObject(with: Data(harness.output("list clothes").utf8)) as? [[String: Any]])
        #expect(left.compactMap { $0["id"] as? String } == [ids[1]])
    }

    @Test func aFailingStatementChangesNothingAndSaysWhere() {
        let harness = Harness()
        harness.run("add clothes category=top season=fall")
        let before = harness.store.fetchAllClothes()
        let error = harness.error("add clothes category=top season=fall description=x created=never")
        #expect(
            error == """
                error: 'never' is not a date; write 2024-05-17 or 2024-05-17T09:30:00Z
                add clothes category=top season=fall description=x created=never
                                                                           ^^^^^

                """)
        #expect(harness.store.fetchAllClothes() == before)
        #expect(harness.session.tally.failures == 1)
    }

    @Test func ambiguousPrefixNamesTheCandidates() throws {
        let harness = Harness()
        let a = UUID(uuidString: "ABCD0000-0000-4000-8000-000000000001")!
        let b = UUID(uuidString: "ABCD1111-0000-4000-8000-000000000002")!
        try harness.store.save(clothes: Clothes(id: a, category: .top, weatherType: .fall))
        try harness.store.save(clothes: Clothes(id: b, category: .top, weatherType: .fall))
        let error = harness.error("show clothes abcd")
        #expect(error.hasPrefix("error: 'abcd' matches 2 clothes (ABCD0000, ABCD1111); type more of the id\n"))
        #expect(harness.output("show clothes abcd1").contains(b.uuidString))
    }

    @Test func variablesFollowTheEntityAsItChanges() {
        let harness = Harness()
        harness.run("let $k = add clothes category=top season=fall description=old")
        harness.run("edit clothes $k description=new")
        #expect(harness.output("show clothes $k").contains("\"description\":\"new\""))
    }

    @Test func rowReferencesUseTheLastListing() {
        let harness = Harness()
        harness.run("add clothes category=bottom season=fall description=jeans")
        harness.run("add clothes category=top season=fall description=knit")
        harness.run("list clothes")
        #expect(harness.output("show clothes @1").contains("knit"))
        #expect(harness.output("show clothes @2").contains("jeans"))
    }

    @Test func bailRollsBackTheWholeScript() {
        let harness = Harness()
        harness.session.settings.bail = true
        let result = harness.session.runScript(
            "add clothes category=top season=fall\nadd clothes category=nope season=fall\nadd clothes category=top season=fall\n",
            name: "s.closet")
        #expect(result == Session.ScriptResult(failures: 1, stopped: true, statements: 2))
        #expect(harness.store.clothesCount == 0)
    }

    @Test func withoutBailFailuresAreSkippedAndTheRestKept() {
        let harness = Harness()
        let result = harness.session.runScript(
            "add clothes category=top season=fall\nadd clothes category=nope season=fall\nadd clothes category=top season=fall\n",
            name: "s.closet")
        #expect(result.failures == 1)
        #expect(harness.store.clothesCount == 2)
        #expect(harness.host.standardError.hasPrefix("s.closet:2:22: error: unknown category 'nope'"))
    }

    @Test func readRunsNestedScriptsAndStopsAtALoop() {
        let harness = Harness()
        harness.host.files["a.closet"] = "add clothes category=top season=fall\n.read a.closet\n"
        harness.run(".read a.closet")
        #expect(harness.store.clothesCount == Session.maximumReadDepth)
        #expect(harness.host.standardError.contains("nested more than \(Session.maximumReadDepth) deep"))
    }

    @Test func modeChangesTheFormat() {
        let harness = Harness(format: .table)
        harness.run("add clothes category=top season=fall")
        harness.run(".mode csv")
        #expect(harness.output("count clothes") == "count\r\n1\r\n")
        harness.run(".mode line")
        #expect(harness.output("count clothes") == "count = 1\n")
    }

    @Test func quitStopsAScript() {
        let harness = Harness()
        harness.session.runScript(
            "add clothes category=top season=fall\n.quit\nadd clothes category=top season=fall\n", name: "q")
        #expect(harness.store.clothesCount == 1)
        #expect(harness.session.quitRequested)
    }

    @Test func everyRegisteredCommandHasHelpAndAWorkingExampleShape() throws {
        let registry = InstalledPacks.registry
        for spec in registry.commands {
            #expect(HelpText.topic(spec.name, registry)?.contains(spec.usage) == true)
            for example in spec.examples {
                guard case .command(let call)? = try Parser.parse(example)?.kind else {
                    Issue.record("example does not parse: \(example)")
                    continue
                }
                #expect(try registry.resolve(call.words).0.name == spec.name, "\(example)")
            }
        }
        for spec in registry.dotCommands {
            #expect(HelpText.overview(registry).contains(spec.usage))
        }
    }

    @Test func deterministicRunsAreByteIdentical() {
        func transcript() -> String {
            let harness = Harness()
            harness.session.runScript(
                "add clothes category=top season=fall\nadd style top=@1\nlist clothes\nlist styles\n", name: "d")
            return harness.host.transcript
        }
        #expect(transcript() == transcript())
    }
}

@Suite struct CommitFailureTests {
    @Test func aStatementThatCannotBeSavedIsReportedUndoneAndCounted() {
        let store = FailingStore()
        let host = RecordingHost()
        var configuration = SessionFactory.Configuration()
        configuration.settings.holdResultsUntilCommit = true
        let session = try! SessionFactory.makeSession(store: store, host: host, configuration)
        #expect(!session.executeAndCommit(StatementSource("add clothes category=top season=fall")))
        #expect(session.wardrobe.clothesCount == 0)
        #expect(session.tally.failures == 1)
        // The store's own failure, in the engine's words (not the app's Korean alert text).
        #expect(host.standardError == "error: could not save: disk full\n")
        // Results are held until their commit: nothing was printed as done.
        #expect(host.standardOutput == "")
        store.failCommits = false
        #expect(session.executeAndCommit(StatementSource("add clothes category=top season=fall")))
        #expect(session.wardrobe.clothesCount == 1)
        #expect(host.standardOutput.contains("top"))
    }
}

@Suite struct HeldOutputTests {
    func session(_ store: Store) -> (Session, RecordingHost) {
        var configuration = SessionFactory.Configuration()
        configuration.settings.holdResultsUntilCommit = true
        let host = RecordingHost()
        return (try! SessionFactory.makeSession(store: store, host: host, configuration), host)
    }

    /// A statement alone that has written nothing reports nothing a commit could undo: its
    /// output goes out as it is made (a listing of a million rows is never held whole). A
    /// statement that wrote, and anything after it until the commit, is held; so is a script's
    /// statement, written or not (the script may still write or be undone).
    @Test func onlyWhatACommitCouldUndoIsHeld() {
        let (session, host) = session(MemoryStore(SessionFactory.tables))
        #expect(session.execute(StatementSource("count clothes")))
        #expect(host.standardOutput.contains("0"), "shown before any commit")
        #expect(session.output.held.isEmpty)
        let shown = host.standardOutput
        #expect(session.execute(StatementSource("add clothes category=top season=fall")))
        #expect(session.execute(StatementSource("count clothes")))
        #expect(host.standardOutput == shown, "held until the add is committed")
        #expect(session.commit())
        #expect(host.standardOutput.contains("top") && host.standardOutput.hasSuffix("1\n"))
        let committed = host.standardOutput
        session.runScript("count clothes\n", name: "f")
        #expect(host.standardOutput == committed, "a script's output waits for its commit")
        #expect(session.commit())
        #expect(host.standardOutput != committed)
    }

    @Test func aFileWhoseCommitFailsShowsItsErrorsButNoResults() {
        let store = FailingStore()
        let (session, host) = session(store)
        session.runScript(
            "add clothes category=top season=fall\nlsit\nadd clothes category=top season=winter\n", name: "f")
        #expect(host.transcript.isEmpty)  // nothing shown before the commit
        #expect(!session.commit())
        #expect(host.standardOutput == "")
        #expect(host.standardError.contains("unknown command 'lsit'"))
        #expect(host.standardError.hasSuffix("error: could not save: disk full\n"))
        // Undone whole: nothing is pending (a durable store has let go of its lock).
        #expect(!store.tables.hasPendingChanges)
    }

    /// Issue 28, item 7: a file undone by bail shows the results of the statements before the
    /// failing one (as sqlite3's -bail does), then the error, then a note that they were undone;
    /// nothing of the file is kept. Ctrl-C shows none of them.
    @Test func aFileUndoneByBailShowsItsResultsAndSaysTheyWereUndone() {
        let store = MemoryStore(SessionFactory.tables)
        let (session, host) = session(store)
        session.settings.bail = true
        session.runScript("add clothes category=top season=fall\nlsit\ncount clothes\n", name: "f")
        #expect(session.commit())
        #expect(host.standardOutput.contains("top       fall"), "\(host.standardOutput)")
        #expect(!host.standardOutput.contains("count"), "nothing after the failing statement ran")
        #expect(host.standardError.contains("unknown command 'lsit'"))
        #expect(
            host.standardError.hasSuffix(
                "note: 'f' stopped at its first error (bail); nothing of it was kept (the results above were undone)\n"),
            "\(host.standardError)")
        #expect(host.transcript.range(of: "top       fall")!.lowerBound < host.transcript.range(of: "lsit")!.lowerBound)
        let (counting, counted) = self.session(store)
        counting.runScript("count clothes\n", name: "g")
        #expect(counting.commit())
        #expect(counted.standardOutput.hasSuffix("    0\n"), "undone: \(counted.standardOutput)")
    }

    @Test func committedResultsAndErrorsKeepTheirOrder() {
        let (session, host) = session(MemoryStore(SessionFactory.tables))
        session.runScript("count clothes\nlsit\ncount clothes\n", name: "f")
        #expect(session.commit())
        let transcript = host.transcript
        let error = transcript.range(of: "unknown command")
        let counts = transcript.ranges(of: "count")
        #expect(error != nil && counts.count >= 2)
        if let error, counts.count >= 2 {
            #expect(counts.first!.lowerBound < error.lowerBound && error.lowerBound < counts.last!.lowerBound)
        }
    }
}

@Suite struct TimerTests {
    @Test func turningTheTimerOnIsNotTimedAndJSONKeepsTimesOffStandardOutput() {
        let harness = Harness(format: .json)
        harness.run(".timer on")
        #expect(harness.host.transcript == "")
        harness.run("count clothes")
        #expect(harness.host.standardOutput == "{\"count\":0}\n")
        #expect(harness.host.standardError == "time: (hidden by --deterministic)\n")
    }
}

/// Issue 23, item 9: `remove` typed at the prompt asks first, as the apps ask; a no leaves
/// everything; scripts and `.confirm off` never ask; with no one to ask it goes ahead.
@Suite struct RemoveConfirmationTests {
    @Test func thePromptAsksAndANoRemovesNothing() throws {
        let harness = Harness(format: .table)
        #expect(harness.run("add clothes category=top season=fall description=knit"))
        harness.host.confirmation = false
        #expect(
            harness.error("remove clothes E220").contains("'remove clothes' was not confirmed: nothing was removed"))
        #expect(harness.host.questions == ["remove clothes E220A839 'knit'? [y/N] "])
        #expect(harness.output("count clothes").contains("1"))
        // A no is not a mistake in the statement: no caret under it.
        #expect(!harness.error("remove clothes E220").contains("^"))
        harness.session.settings.language = .ko
        // Answered in the question's language.
        #expect(harness.error("remove clothes E220") == "error: 삭제하지 않았습니다: 'remove clothes'\n")
        #expect(harness.host.questions.last == "정말 삭제하시겠습니까? (옷 E220A839 'knit') [y/N] ")
        // A script never asks, whatever the person would answer.
        harness.host.files["r.closet"] = "remove clothes E220\n"
        let asked = harness.host.questions.count
        #expect(harness.run(".read r.closet"))
        #expect(harness.host.questions.count == asked)
        #expect(harness.output("count clothes").contains("0"))
    }

    @Test func yesRemovesAndConfirmOffDoesNotAsk() throws {
        let harness = Harness(format: .table)
        #expect(harness.run("add clothes category=top season=fall description=a"))
        #expect(harness.run("add clothes category=top season=fall description=b"))
        harness.host.confirmation = true
        #expect(harness.run("remove clothes E220"))
        #expect(harness.host.questions.count == 1)
        #expect(harness.run(".confirm off"))
        harness.host.confirmation = false
        #expect(harness.run("remove clothes 06C4"))
        #expect(harness.host.questions.count == 1)
        #expect(harness.output("count clothes").contains("0"))
    }
}
