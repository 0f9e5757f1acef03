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

    /// An imported CSV row's arguments bound from its file's bytes bind as the same request
    /// given as strings: the same keys, values and ranges, or declined both ways.
    @Test func argumentsGivenAsBytesBindAsTheirText() throws {
        var random = SeededRandom(seed: 20_261_201)
        let (session, host) = try session(quick: true)
        defer { withExtendedLifetime(host) {} }
        session.runScript("add story id=1 title=a content=b", name: "setup")
        var bound = 0
        for number in 0..<2_000 {
            let command = (number / 50) % Self.commands.count
            let request = Self.request(command, &random)
            let keys = request.arguments.map(\.key)
            let values = request.arguments.map { Array($0.value.utf8) }
            let fromText = RequestBinder.invocation(request, session: session)
            let fromBytes = Self.withBuffers(values) { buffers in
                RequestBinder.invocation(
                    request.words, keys: keys, arguments: buffers.enumerated().map { ($0, $1) }, session: session)
            }
            #expect((fromText == nil) == (fromBytes == nil), "\(request.words) \(request.arguments)")
            guard let fromText, let fromBytes else { continue }
            bound += 1
            #expect("\(fromBytes.arguments)" == "\(fromText.arguments)")
            #expect(fromBytes.call.range == fromText.call.range)
        }
        #expect(bound > 500, "\(bound) bound")
    }

    /// Arguments read with no session on another thread (`RequestBinder.ByteBinding`: an
    /// import's reading thread) bind as the same arguments read on the session's: the same
    /// keys, values and ranges, or declined both ways. A command one of whose keys given only
    /// the session converts (a count, a reference) is not read there at all.
    @Test func argumentsReadOnAnotherThreadBindAsOnTheSessions() throws {
        var random = SeededRandom(seed: 20_261_204)
        let (session, host) = try session(quick: true)
        defer { withExtendedLifetime(host) {} }
        session.runScript("add story id=1 title=a content=b", name: "setup")
        var readThere = 0
        var notReadThere = 0
        for number in 0..<2_000 {
            let command = (number / 50) % Self.commands.count
            var request = Self.request(command, &random)
            // Mostly without the keys a session converts (as a CSV file of clothes has none).
            if Int.random(in: 0..<4, using: &random) > 0 {
                request.arguments.removeAll { ["id", "image", "price", "stock", "discounted"].contains($0.key) }
            }
            let keys = request.arguments.map(\.key)
            let values = request.arguments.map { Array($0.value.utf8) }
            let fromBytes = Self.withBuffers(values) { buffers in
                RequestBinder.invocation(
                    request.words, keys: keys, arguments: buffers.enumerated().map { ($0, $1) }, session: session)
            }
            guard
                let binding = RequestBinder.byteBinding(
                    request.words, keys: keys, given: Array(keys.indices), session: session)
            else {
                notReadThere += 1
                continue
            }
            let read = Self.onAnotherThread { [values] () -> (arguments: [ReadArgument], length: Int)? in
                var read: [ReadArgument] = []
                let length = Self.withBuffers(values) { buffers in
                    binding.read(buffers.enumerated().map { ($0, $1) }, into: &read)
                }
                return length.map { (read, $0) }
            }
            let fromRead = read.flatMap { read in
                RequestBinder.invocation(request.words, read: read.arguments, length: read.length, session: session)
            }
            #expect((fromRead == nil) == (fromBytes == nil), "\(request.words) \(request.arguments)")
            guard let fromRead, let fromBytes else { continue }
            readThere += 1
            #expect("\(fromRead.arguments)" == "\(fromBytes.arguments)")
            #expect(fromRead.call.range == fromBytes.call.range)
        }
        #expect(readThere > 150 && notReadThere > 300, "\(readThere) read there, \(notReadThere) not")
    }

    /// `body`'s result, run on a thread of its own.
    private static func onAnotherThread<Result: Sendable>(_ body: @escaping @Sendable () -> Result) -> Result {
        let box = ResultBox<Result>()
        let done = DispatchSemaphore(value: 0)
        Thread {
            box.result = body()
            done.signal()
        }.start()
        done.wait()
        return box.result!
    }

    /// Each of `values` as a buffer of its bytes, for `body`.
    private static func withBuffers<Result>(
        _ values: [[UInt8]], _ body: ([UnsafeBufferPointer<UInt8>]) -> Result
    ) -> Result {
        guard let first = values.first else { return body([]) }
        return first.withUnsafeBufferPointer { buffer in
            withBuffers(Array(values.dropFirst())) { body([buffer] + $0) }
        }
    }

    /// A CSV import whose rows are bound from the file's bytes leaves the store and says what
    /// the general binding of each row as a request does: quoted values with doubled quotes,
    /// empty fields, Hangul, CRLF, and rows the binding refuses (their problems listed alike).
    @Test func aCSVImportBoundFromItsBytesDoesWhatTheGeneralBindingDoes() throws {
        var random = SeededRandom(seed: 20_261_202)
        // Right values, then wrong ones (given in every fourth file only: one bad row fails
        // the whole import).
        let categories = (right: ["top", "outer", "상의", "TOP"], wrong: ["hat", ""])
        let seasons = (right: ["fall", "가을", "Fall"], wrong: ["never", ""])
        let descriptions = ["knit", "navy knit", "", "니트 🧥", "red,white", "say \"hi\"", "two\nlines", "\"\""]
        let dates = (right: ["2024-11-02", "2024-11-02T10:00:00Z", ""], wrong: ["2024-13-01", "soon"])
        var imported = 0
        for round in 0..<24 {
            var text = round % 3 == 0 ? "\u{FEFF}" : ""
            text += "category,season,description,createdAt\n"
            func pick(_ values: (right: [String], wrong: [String])) -> String {
                round % 4 == 0 && Int.random(in: 0..<20, using: &random) == 0
                    ? values.wrong.randomElement(using: &random)! : values.right.randomElement(using: &random)!
            }
            for _ in 0..<40 {
                let fields = [
                    pick(categories), pick(seasons), descriptions.randomElement(using: &random)!, pick(dates),
                ]
                let quoted = fields.map { field in
                    field.contains(where: { ",\"\n".contains($0) }) || Bool.random(using: &random)
                        ? "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : field
                }
                text += quoted.joined(separator: ",") + (Bool.random(using: &random) ? "\n" : "\r\n")
            }
            let outcomes = try [false, true].map { try importOutcome(text, quick: $0) }
            if outcomes[1].contains("add clothes") { imported += 1 }
            #expect(outcomes[0] == outcomes[1], "\(text.debugDescription)")
        }
        // Most files are imported; some fail on a bad row.
        #expect(imported >= 16 && imported < 24, "\(imported) imported")
        // An import that gives every row an argument of its own (the password's hash).
        var outcomes: [String] = []
        for quick in [false, true] {
            let (session, host) = try session(quick: quick)
            host.binaryFiles["/import/accounts.csv"] = Array("user,createdAt\n민지,2024-05-01\n\"준 \"\"호\"\"\",\n".utf8)
            session.runScript("import accounts from=/import/accounts.csv password=\"dog lover 1\"", name: "import")
            outcomes.append(try Dump.script(of: session, imageFolder: nil) { _, _ in } + host.standardError)
        }
        #expect(outcomes[0] == outcomes[1])
        #expect(outcomes[1].contains("add account user=\"준 \\\"호\\\"\" hash=\"pbkdf2"), "\(outcomes[1])")
    }

    /// A CSV file larger than a piece is read on a second thread, which reads each row's
    /// arguments too: the import leaves the store and says what the general binding of each row
    /// does (rows it declines there, with doubled quotes, bound as they are added; a bad row
    /// fails the import alike).
    @Test func aCSVFileReadOnASecondThreadImportsAsTheGeneralBindingDoes() throws {
        var random = SeededRandom(seed: 20_261_204)
        var text = "category,season,description,createdAt\n"
        let descriptions = ["knit", "navy knit", "", "니트 🧥", "\"red,white\"", "\"say \"\"hi\"\"\""]
        for _ in 0..<40_000 {
            text +=
                [
                    ["top", "outer", "상의", "TOP"].randomElement(using: &random)!,
                    ["fall", "가을", "Fall"].randomElement(using: &random)!, descriptions.randomElement(using: &random)!,
                    ["2024-11-02", "2024-11-02T10:00:00Z", ""].randomElement(using: &random)!,
                ].joined(separator: ",") + "\n"
        }
        #expect(text.utf8.count > 1 << 20)  // more than a piece: read on a second thread
        for file in [text, text + "hat,fall,x,\n"] {
            let outcomes = try [false, true].map { try importOutcome(file, quick: $0, then: "count clothes") }
            #expect(outcomes[0] == outcomes[1])
            #expect(
                outcomes[1].contains(file == text ? "40000" : "unknown category 'hat'"), "\(outcomes[1].suffix(300))")
        }
    }

    /// What importing `text` as a CSV file of clothes (then `then`) leaves and says, in a
    /// session binding quickly or not: the ids are the session's own (seeded alike), so the
    /// dumps compare whole.
    func importOutcome(_ text: String, quick: Bool, then: String = "") throws -> String {
        let (session, host) = try session(quick: quick)
        host.binaryFiles["/import/clothes.csv"] = Array(text.utf8)
        session.runScript("import clothes from=/import/clothes.csv\n" + then, name: "import")
        let dumped = try Dump.script(of: session, imageFolder: nil) { _, _ in }
        return dumped + "\n---\n" + host.standardError + host.standardOutput
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

/// A result handed from a thread to the one waiting for it (after a semaphore's signal).
private final class ResultBox<Result>: @unchecked Sendable {
    var result: Result?
}
