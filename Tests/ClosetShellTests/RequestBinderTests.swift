import ClosetCore
import ClosetShell
import ClosetTables
import Foundation
import TestSupport
import Testing

@testable import ClosetLanguage

/// Requests bound straight from their arguments (`RequestBinder`: an import's rows, served
/// forms) do exactly what the general binder does with them: the same outcome, the same
/// failure (message and key), the same store, on generated requests of every pack's adds
/// (right and wrong values, unknown and repeated keys, keys left out, empty values, pictures by
/// path, references that hold or not, a number a rule refuses, a command that is not one).
@Suite struct RequestBinderTests {
    static let picture = QuickBinderTests.picture

    /// Each command's keys with values to draw from: right ones, then wrong ones. Values are as
    /// a request gives them: never quoted, so `?` is a password, not a question.
    static let commands: [(words: [String], keys: [(name: String, right: [String], wrong: [String])])] = [
        (
            ["add", "clothes"],
            [
                ("category", ["top", "outer", "상의", "TOP"], ["hat", "to", ""]),
                ("season", ["fall", "가을", "all", "Fall"], ["never", "가"]),
                ("description", ["knit", "navy knit", "", "니트 🧥", "red,white", "say \"hi\""], []),
                ("created", ["2024-11-02", "2024-11-02T10:00:00Z"], ["2024-13-01", "yesterday"]),
                ("id", (1...300).map { String(format: "00000000-0000-4000-8000-%012d", $0) }, ["bad"]),
                ("image", [picture], ["/no/such/picture.png", "none"]), ("colour", [], ["red"]),
                ("Category", [], ["top"]),
            ]
        ),
        (
            ["add", "product"],
            [
                ("title", ["wool", "wool coat"], [""]), ("price", ["1000", "2000"], ["-5", "abc"]),
                ("currency", ["KRW", "usd"], ["XXX"]), ("stock", ["0", "7"], ["many"]),
                ("description", ["warm", "a warm coat"], []), ("image", [picture], ["/no/such/picture.png"]),
                ("discounted", ["500"], ["5000"]), ("password", ["1234", "p w", "?"], [""]),
                ("id", (1...300).map(String.init), ["x"]), ("registered", ["2024-01-01"], ["soon"]),
            ]
        ),
        (
            ["add", "story"],
            [
                ("title", ["walk", "morning walk"], []), ("content", ["every morning", "good"], []),
                ("id", (1...300).map(String.init), ["x"]), ("author", ["민지", "user1"], []),
                ("created", ["2024-05-17"], ["later"]), ("dog", [], ["1", "99"]),
            ]
        ),
        (
            ["add", "comment"],
            [
                ("story", ["1", "2"], ["99", "none"]), ("text", ["축하해요!", "nice"], []),
                ("id", (1...300).map(String.init), []), ("author", ["민지"], []),
                ("created", ["2024-05-17T09:30:00Z"], []),
            ]
        ),
        // A number its key's rule must admit: always bound the general way.
        (["donate"], [("amount", ["1000", "2000"], ["1500", "abc"]), ("message", ["힘내요"], [])]),
        (["add", "jar"], [("label", ["x"], [])]),
    ]

    /// A request of `command`: most keys with a right value, now and then a wrong one, a key
    /// left out or given twice.
    static func request(_ command: Int, _ random: inout SeededRandom) -> CommandRequest {
        var arguments: [(key: String, value: String)] = []
        for key in commands[command].keys where Int.random(in: 0..<16, using: &random) > 0 {
            let wrong = key.right.isEmpty || (!key.wrong.isEmpty && Int.random(in: 0..<12, using: &random) == 0)
            if wrong, key.wrong.isEmpty || Int.random(in: 0..<4, using: &random) > 0 && key.right.isEmpty { continue }
            arguments.append((key.name, (wrong ? key.wrong : key.right).randomElement(using: &random)!))
            if Int.random(in: 0..<40, using: &random) == 0, let last = arguments.last { arguments.append(last) }
        }
        // Mostly in the order of the request before (an import's rows), now and then not.
        if Int.random(in: 0..<8, using: &random) == 0 { arguments.shuffle(using: &random) }
        return CommandRequest(commands[command].words, arguments: arguments)
    }

    /// The quick binder's sessions: the same packs, pictures and settings (the host too: a
    /// session holds its host unowned).
    func session(quick: Bool) throws -> (Session, RecordingHost) { try QuickBinderTests().session(quick: quick) }

    /// What a request did, to compare: the outcome's JSON, or the failure's message and key.
    static func result(of request: CommandRequest, in session: Session) -> String {
        do {
            return "ok " + (JSONRenderer.render(try session.run(request)) ?? "-")
        } catch {
            return "failed \(error.id) \(error.key ?? "-"): \(error.diagnostic.messageAndSuggestion)"
        }
    }

    @Test func boundQuicklyOrNotARequestDoesTheSame() throws {
        var random = SeededRandom(seed: 20_261_129)
        var taken = 0
        var requests = 0
        var failures = 0
        for _ in 0..<40 {
            let (general, generalHost) = try session(quick: false)
            let (quick, quickHost) = try session(quick: true)
            for session in [general, quick] {
                session.runScript(
                    "add story id=1 title=a content=b\nadd story id=2 title=c content=d", name: "setup")
            }
            var command = 0
            for number in 0..<40 {
                if number % 10 == 0 { command = Int.random(in: 0..<Self.commands.count, using: &random) }
                let request = Self.request(command, &random)
                requests += 1
                if RequestBinder.invocation(request, session: quick) != nil { taken += 1 }
                let expected = Self.result(of: request, in: general)
                #expect(Self.result(of: request, in: quick) == expected, "\(request.words) \(request.arguments)")
                if expected.hasPrefix("failed") { failures += 1 }
            }
            let dumped = try Dump.script(of: quick, imageFolder: nil) { _, _ in }
            #expect(dumped == (try Dump.script(of: general, imageFolder: nil) { _, _ in }))
            #expect(quickHost.standardError == generalHost.standardError)
        }
        // Both paths are exercised, and requests that fail too.
        #expect(taken > requests / 4 && taken < requests * 9 / 10, "\(taken) of \(requests)")
        #expect(failures > requests / 10, "\(failures) of \(requests)")
    }

    @Test func keysFoundByTheirPlaceFollowARequestWhoseOrderChanged() throws {
        let (session, host) = try session(quick: true)
        defer { withExtendedLifetime(host) {} }
        let first = CommandRequest(
            ["add", "clothes"], arguments: [("category", "top"), ("season", "fall"), ("description", "a")])
        let swapped = CommandRequest(
            ["add", "clothes"], arguments: [("season", "winter"), ("category", "bottom"), ("description", "b")])
        for request in [first, swapped] {
            let invocation = try #require(RequestBinder.invocation(request, session: session))
            #expect(invocation.arguments.map(\.key) == request.arguments.map(\.key))
            _ = try Evaluator(session: session).perform(invocation)
        }
        let listed = try #require(JSONRenderer.render(try session.run(CommandRequest(["list", "clothes"]))))
        #expect(listed.contains("winter") && listed.contains("bottom") && listed.contains("fall"))
        #expect(
            RequestBinder.invocation(
                CommandRequest(
                    ["add", "clothes"], arguments: [("category", "top"), ("season", "fall"), ("colour", "red")]),
                session: session) == nil)
        // The ranges a general request's words have: a value quoted, after its key and `=`.
        let invocation = try #require(RequestBinder.invocation(first, session: session))
        #expect(invocation.arguments.map(\.range) == [SourceRange(12, 26), SourceRange(27, 40), SourceRange(41, 56)])
        #expect(invocation.call.range == SourceRange(0, 56))
    }
}
