import ClosetCore
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// A long script read on a second thread (`ScriptReadAhead`) runs exactly as one read in place:
/// the same output, errors, line numbers, failures and store, on generated scripts that switch
/// commands, join lines, fail, and stop.
@Suite struct ScriptReadAheadTests {
    func session(readingAhead: Bool, bail: Bool = false) throws -> (Session, RecordingHost) {
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.bail = bail
        let host = RecordingHost()
        let session = try SessionFactory.makeSession(
            store: MemoryStore(SessionFactory.tables), host: host, configuration)
        session.readsScriptsAheadFrom = readingAhead ? 0 : .max
        return (session, host)
    }

    /// A script of `count` statements: long runs of one command (its statements mostly right,
    /// so read ahead, some wrong), other commands' statements amid them (the run's statements
    /// after one were read for the run's command, which is then no longer the session's last),
    /// lines joined by `\`, comments, blank lines, CRLF endings, `!` statements, other commands,
    /// and no newline at the end.
    static func script(_ count: Int, _ random: inout SeededRandom) -> String {
        let commands = QuickBinderTests.commands
        var lines = ["add story id=1 title=a content=b", "add story id=2 title=c content=d"]
        var command = 0
        for number in 0..<count {
            if number % 500 == 0 { command = Int.random(in: 0..<commands.count, using: &random) }
            var statement = rightStatement(command, &random)
            switch Int.random(in: 0..<60, using: &random) {
            case 0: statement = "count clothes"
            case 1: statement = "# a comment"
            case 2: statement = ""
            case 3: statement = statement.replacingOccurrences(of: " ", with: " \\\n  ")
            case 4: statement = "! " + statement
            case 5: statement += "\r"
            case 6: statement = "list clothes limit=2"
            case 7, 8, 9:
                let other = (command + Int.random(in: 1..<commands.count, using: &random)) % commands.count
                statement = rightStatement(other, &random)
            case 10, 11: statement = QuickBinderTests.statement(command, &random)
            default: break
            }
            lines.append(statement)
        }
        return lines.joined(separator: "\n")
    }

    /// A statement of command `command` (of `QuickBinderTests.commands`) with right values for
    /// its keys but ids and pictures, in any order.
    static func rightStatement(_ command: Int, _ random: inout SeededRandom) -> String {
        let (words, keys) = QuickBinderTests.commands[command]
        let items = keys.filter { !$0.right.isEmpty && $0.name != "id" && $0.name != "image" }
            .map { "\($0.name)=\($0.right.randomElement(using: &random)!)" }
        return ([words] + items.shuffled(using: &random)).joined(separator: " ")
    }

    @Test func aScriptReadAheadRunsAsOneReadInPlace() throws {
        var random = SeededRandom(seed: 20_261_205)
        for round in 0..<3 {
            let text = Self.script(3000, &random)
            let (inPlace, inPlaceHost) = try session(readingAhead: false)
            let (ahead, aheadHost) = try session(readingAhead: true)
            let expected = inPlace.runScript(text, name: "seed.closet")
            let result = ahead.runScript(text, name: "seed.closet")
            #expect(result.statements == expected.statements && result.failures == expected.failures)
            #expect(result.stopped == expected.stopped)
            // Many statements are read ahead: those of the commands whose values read without
            // the binder (clothes, stories; a product's price and a comment's story need it).
            #expect(result.readAhead > result.statements / 5 && expected.readAhead == 0, "\(result.readAhead)")
            #expect(aheadHost.standardOutput == inPlaceHost.standardOutput, "round \(round)")
            #expect(aheadHost.standardError == inPlaceHost.standardError, "round \(round)")
            #expect(ahead.tally.failures == inPlace.tally.failures)
            #expect(expected.failures > 0 && expected.statements > 3000)
            let dumped = try Dump.script(of: ahead, imageFolder: nil) { _, _ in }
            #expect(dumped == (try Dump.script(of: inPlace, imageFolder: nil) { _, _ in }), "round \(round)")
        }
    }

    @Test func aScriptThatStopsStopsAtTheSamePlaceAndKeepsTheSame() throws {
        let lines = (0..<3000).map { _ in "add clothes category=top season=fall description=\"knit\"" }
        for (stopAt, statement) in [(1200, "add clothes category=hat season=fall"), (2500, ".quit")] {
            var script = lines
            script[stopAt] = statement
            let text = script.joined(separator: "\n")
            let (inPlace, inPlaceHost) = try session(readingAhead: false, bail: true)
            let (ahead, aheadHost) = try session(readingAhead: true, bail: true)
            let expected = inPlace.runScript(text, name: "seed.closet")
            let result = ahead.runScript(text, name: "seed.closet")
            #expect(result.statements == expected.statements && result.failures == expected.failures)
            #expect(result.stopped == expected.stopped)
            #expect(aheadHost.standardError == inPlaceHost.standardError)
            #expect(aheadHost.standardOutput == inPlaceHost.standardOutput)
            #expect(result.statements == stopAt + 1)
            #expect(ahead.quitRequested == inPlace.quitRequested)
            #expect(
                try Dump.script(of: ahead, imageFolder: nil) { _, _ in }
                    == (try Dump.script(of: inPlace, imageFolder: nil) { _, _ in }))
        }
    }

    /// Read for the session's command, a statement's arguments make the invocation its own text
    /// makes; statements read before the command was passed on, or for another, are not read.
    @Test func statementsAreReadForTheCommandTheSessionFoundLast() throws {
        let (session, host) = try session(readingAhead: false)
        session.runScript("add clothes category=top season=fall", name: "first")
        #expect(host.standardError == "")
        let statements = [
            "add clothes season=가을 category=outer created=2024-11-02 description=\"navy knit\"",
            "add clothes category=shoes season=all",
            "list clothes season=fall",
            "add clothes category=top \\",
            "  season=fall",
            "add product title=wool price=1000",
            "add clothes category=hat season=fall",
        ]
        let text = Array(repeating: statements.joined(separator: "\n"), count: 400).joined(separator: "\n")
        let ahead = ScriptReadAhead(text)
        ahead.follow(session.lastCommand)
        ahead.start()
        defer { ahead.stop() }
        var read = 0
        var lines: [Int] = []
        while let batch = ahead.next() {
            for index in batch.statements.indices {
                let (source, placed) = ahead.statement(index, of: batch)
                lines.append(source.firstLine)
                let expected = QuickBinder.invocation(source.text, session: session)
                guard let placed else {
                    #expect(expected == nil || source.lines.count > 1, "\(source.text)")
                    continue
                }
                read += 1
                let invocation = try #require(
                    QuickBinder.invocation(source.text, placed: placed.arguments, range: placed.range, session: session)
                )
                let wanted = try #require(expected)
                #expect(invocation.arguments.map(\.key) == wanted.arguments.map(\.key))
                #expect("\(invocation.arguments.map(\.value))" == "\(wanted.arguments.map(\.value))")
                #expect(invocation.arguments.map(\.range) == wanted.arguments.map(\.range))
                #expect(invocation.call.range == wanted.call.range)
            }
        }
        #expect(read == 800)
        #expect(lines.count == 6 * 400)
        #expect(lines.prefix(7) == [1, 2, 3, 4, 6, 7, 8])
    }
}
