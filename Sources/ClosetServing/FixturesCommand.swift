import ClosetCore
import ClosetLanguage
import ClosetNetwork
import Foundation

/// `export fixtures <api> to=<folder> [base=<url>]`: the JSON an app's unit tests read
/// (`MockURLProtocol` data, an item list, a story page), each file exactly the body
/// `closet serve` would answer for its request: the API's own routes make it, from the store
/// as this session sees it. Every answer is made before anything is written; one that is not
/// a 200 writes nothing.
public enum FixturesCommand {
    /// The command over the APIs this build serves (the shell installs it), made only when the
    /// command runs: a process that exports no fixtures never builds the APIs' routes.
    public static func spec(apis makeAPIs: @escaping @Sendable () -> [ServedAPI]) -> CommandSpec {
        CommandSpec(
            path: ["export", "fixtures"],
            summary: "write an API's answers as the JSON files an app's tests read",
            parameters: [ParameterSpec("api", .text, "the API, as closet serve names it (a wrong name lists them)")],
            keys: [
                KeySpec(
                    "to", .path(allowsNone: false), "the folder (made if missing)", required: true,
                    placeholder: "<folder>"),
                KeySpec("base", .text, "the server's base URL the answers name (default \(defaultBase))"),
                KeySpec(
                    "replay", .path(allowsNone: false),
                    "the recordings an API answered from recordings replays (as closet serve --replay)",
                    placeholder: "<folder>"),
            ],
            notes: ["Each file is the body closet serve answers for its request, byte for byte."],
            examples: [
                "export fixtures market to=Fixtures",
                "export fixtures community to=Fixtures base=http://localhost:9000",
            ],
            run: { invocation in
                let apis = makeAPIs()
                let names = apis.filter { $0.fixtures != nil }.map(\.name)
                var name = ""
                if case .text(let given)? = invocation.parameters.first?.value { name = given }
                guard let api = apis.first(where: { $0.name == name && $0.fixtures != nil }),
                    let fixtures = api.fixtures
                else {
                    throw Diagnostic(
                        "serve.no-fixtures",
                        "'\(TerminalText.visible(name))' is not an API with fixtures; export fixtures takes \(names.joined(separator: ", "))",
                        at: invocation.parameters.first?.range ?? invocation.call.range)
                }
                guard let argument = invocation.argument("to"), case .path(let folder) = argument.value else {
                    throw invocation.missing("to")
                }
                let base = invocation.text("base") ?? defaultBase
                var recordings: ServedRecordings?
                if let argument = invocation.argument("replay"), case .path(let folder) = argument.value {
                    do throws(NetworkError) {
                        recordings = ServedRecordings(try RecordingFolder(path: folder).load())
                    } catch {
                        throw Diagnostic("serve.recordings", error.message, at: argument.range)
                    }
                }
                let context = ServedContext(session: invocation.session, baseURL: base, recordings: recordings)
                var files: [(name: String, bytes: [UInt8])] = []
                let requests: [ServedFixture]
                do {
                    requests = try fixtures(context)
                } catch let refusal as Diagnostic where refusal.range == nil {
                    throw refusal.at(invocation.parameters.first?.range ?? invocation.call.range)
                } catch let missing as FixturesNeedRecordings {
                    throw Diagnostic("serve.no-recordings", missing.message, at: invocation.call.range)
                }
                for fixture in requests {
                    let answer = try api.answer(fixture.request, context)
                    guard let answer, answer.status == 200 else {
                        throw Diagnostic(
                            "serve.fixture-refused",
                            "\(fixture.request.method) \(fixture.request.path) is answered \(answer?.status ?? 404): \(TerminalText.visible(String(String(decoding: answer?.body ?? Data(), as: UTF8.self).prefix(200))))",
                            at: invocation.call.range)
                    }
                    files.append((fixture.file, [UInt8](answer.body)))
                }
                for file in files {
                    let path = folder + "/" + file.name
                    do {
                        try invocation.host.writeFile(at: path, bytes: file.bytes, creatingFolder: true)
                    } catch let error as Diagnostic {
                        throw error.at(argument.range)
                    } catch {
                        throw Diagnostic.cannotWrite(path, because: "\(error)", at: argument.range)
                    }
                }
                return .fields([
                    Field("exported", .integer(files.count)), Field("to", .text(folder)),
                    Field("files", .text(files.map(\.name).joined(separator: " "))),
                    Field("bytes", .integer(files.reduce(0) { $0 + $1.bytes.count })),
                ])
            })
    }

    /// Where `closet serve` listens by default.
    public static let defaultBase = "http://127.0.0.1:8080"
}
