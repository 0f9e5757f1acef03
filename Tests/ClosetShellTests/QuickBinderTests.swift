import ClosetCore
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// Statements bound straight from their text (`QuickBinder`) do exactly what the general path
/// does with them: the same output, the same errors, the same store, on generated seed
/// statements of every pack with stored data (valid and wrong values, unknown, repeated and
/// capitalized keys, keys left out, pictures, secrets asked for, references that hold or not).
@Suite struct QuickBinderTests {
    static let picture = repositoryRoot + "/Examples/pictures/kong.png"

    /// Each command's keys with values to draw from: right ones, then wrong ones.
    static let commands: [(words: String, keys: [(name: String, right: [String], wrong: [String])])] = [
        (
            "add clothes",
            [
                ("category", ["top", "outer", "상의", "TOP", "\"outer\""], ["hat", "to"]),
                ("season", ["fall", "가을", "all", "Fall"], ["never", "가"]),
                ("description", ["knit", "\"navy knit\"", "\"\"", "\"니트 🧥\""], []),
                ("created", ["2024-11-02", "2024-11-02T10:00:00Z"], ["2024-13-01", "yesterday"]),
                ("id", (1...300).map { String(format: "00000000-0000-4000-8000-%012d", $0) }, ["bad"]),
                ("image", [picture], ["/no/such/picture.png"]), ("colour", [], ["red"]), ("Category", [], ["top"]),
            ]
        ),
        (
            "add product",
            [
                ("title", ["wool", "\"wool coat\""], []), ("price", ["1000", "2000"], ["-5", "abc"]),
                ("currency", ["KRW", "usd"], ["XXX"]), ("stock", ["0", "7"], ["many"]),
                ("description", ["warm", "\"a warm coat\""], []), ("image", [picture], ["/no/such/picture.png"]),
                ("discounted", ["500"], ["5000"]), ("password", ["1234", "\"p w\""], ["?"]),
                ("id", (1...300).map(String.init), ["x"]), ("registered", ["2024-01-01"], ["soon"]),
            ]
        ),
        (
            "add story",
            [
                ("title", ["walk", "\"morning walk\""], []), ("content", ["\"every morning\"", "good"], []),
                ("id", (1...300).map(String.init), ["x"]), ("author", ["민지", "user1"], []),
                ("created", ["2024-05-17"], ["later"]),
                ("dog", [], ["1", "99"]),
            ]
        ),
        (
            "add comment",
            [
                ("story", ["1", "2"], ["99"]), ("text", ["\"축하해요!\"", "nice"], []),
                ("id", (1...300).map(String.init), []),
                ("author", ["민지"], []), ("created", ["2024-05-17T09:30:00Z"], []),
            ]
        ),
    ]

    /// A statement of `command`: most keys with a right value, now and then a wrong one, a
    /// key left out or given twice.
    static func statement(_ command: Int, _ random: inout SeededRandom) -> String {
        var items: [String] = []
        for key in commands[command].keys where Int.random(in: 0..<16, using: &random) > 0 {
            let wrong = key.right.isEmpty || (!key.wrong.isEmpty && Int.random(in: 0..<12, using: &random) == 0)
            if wrong, key.wrong.isEmpty || Int.random(in: 0..<4, using: &random) > 0 && key.right.isEmpty { continue }
            items.append("\(key.name)=\((wrong ? key.wrong : key.right).randomElement(using: &random)!)")
            if Int.random(in: 0..<40, using: &random) == 0 { items.append(items.last!) }
        }
        items.shuffle(using: &random)
        return ([commands[command].words] + items).joined(separator: Bool.random(using: &random) ? " " : "  ")
    }

    func session(quick: Bool) throws -> (Session, RecordingHost) {
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        let host = RecordingHost()
        host.binaryFiles[Self.picture] = Array(try Data(contentsOf: URL(fileURLWithPath: Self.picture)))
        let session = try SessionFactory.makeSession(
            store: MemoryStore(SessionFactory.tables), host: host, configuration)
        session.quickBinding = quick
        return (session, host)
    }

    @Test func boundQuicklyOrNotAStatementDoesTheSame() throws {
        var random = SeededRandom(seed: 20_261_126)
        var taken = 0
        var statements = 0
        for _ in 0..<60 {
            let (general, generalHost) = try session(quick: false)
            let (quick, quickHost) = try session(quick: true)
            // Stories for the comments to be on.
            for session in [general, quick] {
                session.runScript("add story id=1 title=a content=b\nadd story id=2 title=c content=d", name: "setup")
            }
            // Runs of one command, as seed scripts have, then another.
            var command = 0
            for number in 0..<40 {
                if number % 10 == 0 { command = Int.random(in: 0..<Self.commands.count, using: &random) }
                let text = Self.statement(command, &random)
                statements += 1
                if quick.store.tables.hasPendingChanges && QuickBinder.invocation(text, session: quick) != nil {
                    taken += 1
                }
                general.runScript(text, name: "script")
                quick.runScript(text, name: "script")
                #expect(quickHost.standardOutput == generalHost.standardOutput, "\(text)")
                #expect(quickHost.standardError == generalHost.standardError, "\(text)")
            }
            let dumped = try Dump.script(of: quick, imageFolder: nil) { _, _ in }
            #expect(dumped == (try Dump.script(of: general, imageFolder: nil) { _, _ in }))
            #expect(quick.tally.failures == general.tally.failures)
        }
        // Both paths are exercised: many statements are taken quickly, many are not.
        #expect(taken > statements / 5 && taken < statements * 4 / 5, "\(taken) of \(statements)")
    }

    @Test func takesTheSameCommandAgainAndDeclinesTheRest() throws {
        let (session, host) = try session(quick: true)
        // Nothing found yet: the general path finds the command, the quick path the next time.
        let first = "add clothes category=top season=fall description=\"navy knit\""
        #expect(QuickBinder.invocation(first, session: session) == nil)
        session.runScript(first, name: "script")
        #expect(host.standardError == "")
        let invocation = try #require(
            QuickBinder.invocation("add clothes season=가을 category=outer created=2024-11-02", session: session))
        #expect(invocation.arguments.map(\.key) == ["season", "category", "created"])
        // The range the parser gives the statement (bytes, as every range).
        #expect(
            invocation.call.range
                == QuickParser.command("add clothes season=가을 category=outer created=2024-11-02")?.range)
        for declined in [
            "add clothes category=top", "add clothes category=hat season=fall", "add clothes Category=top season=fall",
            "add clothes category=top season=fall category=outer", "add clothes category=top season=fall colour=red",
            "add clothes category=top, season=fall", "add clothes category=top season=fall # note",
            "list clothes season=fall", "add clothes top", "let $c = add clothes category=top season=fall",
            "add \"clothes\" category=top season=fall",
        ] {
            #expect(QuickBinder.invocation(declined, session: session) == nil, "\(declined)")
        }
    }

    /// A value read where it lies in the statement finds the term the binder's lookup finds,
    /// or none (the general path then decides), for every spelling of every vocabulary a
    /// key takes, written as it is, capitalized, cut short and lengthened.
    @Test func termsReadAsBytesAreTheTermsTheBinderFinds() throws {
        let (session, _) = try session(quick: true)
        var checked = 0
        for spec in session.registry.commands {
            for key in spec.keys {
                guard case .vocabulary(let info, _) = key.kind else { continue }
                let spellings = info.lowercasedSpellings
                for term in info.terms {
                    for spelling in term.spellings {
                        for written in [
                            spelling, spelling.uppercased(), spelling.capitalized, String(spelling.dropLast()),
                            spelling + "s", spelling + "É", "É" + spelling.uppercased(),
                        ] {
                            var text = written
                            let quick = text.withUTF8 { QuickCommand.code($0, among: spellings) }
                            let general = info.code(named: written)
                            #expect(quick == nil || quick == general, "\(info.name): \(written)")
                            if written == spelling.lowercased() { #expect(quick == general, "\(written)") }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked > 500)
    }
}
