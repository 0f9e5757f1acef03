import ClosetCore
import ClosetLanguage
import ClosetNetwork
import ClosetServing
import ClosetShell
import ClosetStore
import ClosetTables
import Foundation
import TestSupport
import Testing

/// A pack written inside this test target only, from `docs/writing-a-pack.md`, with no edit to
/// the engine: one entity (a jar) declared once for output and input, one vocabulary (its
/// size, English and Korean), one stored table, two commands, and a served API of two routes
/// whose write runs the pack's own `add jar`. If adding a pack ever needs an engine change,
/// this file stops compiling or these tests fail.
enum Pantry {
    enum Size: Int, Vocabulary, Codable {
        case small, large
        static let vocabularyName = "size"
        static let info = makeInfo()
        var englishName: String { self == .small ? "small" : "large" }
        var korean: String { self == .small ? "작은" : "큰" }
    }

    /// Stored with the default codec (`CodableRows`): the pack writes no codec.
    struct Jar: Hashable, Sendable, Codable, Identifiable {
        var id: UUID
        var size: Size
        var label: String
        var created: Date
    }

    typealias Jars = CodableRows<Jar>
    static let jarTable = TableSchema<Jars>(name: "pantry.jars")

    /// The jar, declared once: its words, and the fields columns, JSON, csv and records come from.
    static let jar: EntityKind = EntityKind(
        singular: "jar", plural: "jars", korean: "병", indefinite: "a jar", columns: { schema.columns })
    static let schema = EntitySchema<Jar>(
        kind: jar,
        fields: [
            .field("id", input: .restoring("id", .newID, "pin the id")) { .key(.uuid($0.id)) },
            .field("size", word: true, input: .optional("size", .vocabulary(Size.info, many: false), "how big")) {
                .text($0.size.englishName)
            },
            .field("label", input: .required("label", .text, "what is in it", api: "label")) { .text($0.label) },
            .field("created", input: .restoring("created", .date, "when")) { .date($0.created) },
        ],
        listing: ["id", "size", "label"],
        restore: ["id", "size", "label", "created"])

    final class State: PackState {
        let jars: Table<Jars>
        init(_ services: PackServices) throws { jars = try services.store.tables.table(jarTable) }
        var counts: [(EntityKind, Int)] { [(Pantry.jar, jars.count)] }
        func keys(of kind: EntityKind) -> [EntityKey] { jars.rows.map { .uuid($0.id) } }
        func contains(_ key: EntityKey, kind: EntityKind) -> Bool { key.uuid.map(jars.contains) ?? false }
        func violation(of constraint: ReferenceConstraint, by key: EntityKey, kind: EntityKind) -> String? { nil }
        func label(of key: EntityKey, kind: EntityKind) -> String? { key.uuid.flatMap { jars[$0]?.label } }
        func completionLabel(of key: EntityKey, kind: EntityKind) -> String { label(of: key, kind: kind) ?? "" }
        func dump(into writer: inout DumpWriter) throws {
            for jar in jars.rows { writer.line(DumpWriter.statement("add jar", schema, jar)) }
        }
    }

    static func record(_ jar: Jar) -> Record { schema.record(jar) }

    static let add = CommandSpec(
        path: ["add", "jar"], summary: "put a jar in the pantry",
        keys: schema.keys(.add) + [
            KeySpec(
                "copy", .reference(jar, many: false, allowsNone: false, constraint: nil), "take the size of this jar")
        ] + schema.keys(.restoring),
        examples: ["add jar size=small label=jam", "add jar copy=@1 label=honey"],
        run: { invocation in
            let state = try invocation.state(State.self)
            var size = invocation.value(Size.self, "size") ?? .small
            if case .references(_, let keys)? = invocation.argument("copy")?.value, let id = keys.first?.uuid,
                let other = state.jars[id]
            {
                size = other.size
            }
            let id = invocation.id("id") ?? invocation.newID { state.jars.contains($0) }
            let jar = Jar(
                id: id, size: size, label: invocation.text("label") ?? "",
                created: invocation.date("created") ?? invocation.clock.now())
            state.jars.upsert(jar)
            // Written first, refused after: the statement must leave nothing behind.
            if jar.label.isEmpty {
                throw Diagnostic("pantry.needs-label", "a jar needs a label", at: invocation.argument("label")?.range)
            }
            return .entity(Pantry.jar, .uuid(jar.id)) { record(jar) }
        })

    static let list = CommandSpec(
        path: ["list", "jars"], summary: "list the jars",
        keys: [KeySpec("size", .vocabulary(Size.info, many: true), "keep these sizes")],
        examples: ["list jars", "list jars size=큰"],
        run: { invocation in
            let state = try invocation.state(State.self)
            var jars = state.jars.rows
            if let value = invocation.argument("size")?.value, let sizes = Invocation.values(Size.self, of: value) {
                jars = jars.filter { sizes.contains($0.size) }
            }
            let shown = jars
            return .listing(Pantry.jar, shown.map { .uuid($0.id) }) { shown.map(record) }
        })

    static let pack = Pack(
        name: "pantry", summary: "jars on a shelf", vocabularies: [Size.info], entityKinds: [jar],
        tables: [AnyTableSchema(jarTable)], commands: [add, list], makeState: { try State($0) })

    /// The pantry's own API: the jars as `show` gives them (the schema's JSON), and a new jar
    /// from a form whose fields are the schema's API names, through `add jar` itself.
    static let served: [ServedAPI] = [
        ServedAPI(
            name: "pantry",
            routes: [
                ServedRoute(["GET"], [.word("jars")]) { _, _, context in
                    guard let state = context.session.state(State.self) else { return unavailable }
                    return json(schema.json(list: state.jars.rows), status: 200)
                },
                ServedRoute(["POST"], [.word("jar")]) { _, request, context in
                    let names = Dictionary(uniqueKeysWithValues: schema.apiNames.map { ($0.api, $0.key) })
                    let fields = (request.multipart ?? []).compactMap { part in
                        names[part.name].map { (key: $0, value: String(decoding: part.data, as: UTF8.self)) }
                    }
                    do throws(CommandFailure) {
                        let outcome = try context.session.run(CommandRequest(["add", "jar"], arguments: fields))
                        guard case .entities(let added) = outcome, let id = added.keys.first?.uuid,
                            let state = context.session.state(State.self), let jar = state.jars[id]
                        else { return unavailable }
                        return json(schema.json(jar), status: 201)
                    } catch {
                        return json(
                            Array("{\"error\":\"\(error.id)\",\"key\":\"\(error.key ?? "")\"}".utf8), status: 400)
                    }
                },
            ])
    ]

    static let unavailable = HTTPResponse.text("the pantry cannot be read\n", status: 500)

    static func json(_ bytes: [UInt8], status: Int) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(bytes))
    }
}

@Suite struct ThrowawayPackTests {
    func session(_ store: Store = MemoryStore(Pantry.pack.tables), format: OutputFormat = .table) throws -> (
        Session, RecordingHost
    ) {
        var configuration = SessionFactory.Configuration.golden
        configuration.settings.echo = false
        configuration.settings.format = format
        configuration.registry = CommandRegistry(packs: [Pantry.pack])
        let host = RecordingHost()
        return (try SessionFactory.makeSession(store: store, host: host, configuration), host)
    }

    func run(_ session: Session, _ host: RecordingHost, _ line: String) -> (ok: Bool, out: String, err: String) {
        host.clear()
        let ok = session.executeAndCommit(StatementSource(line))
        return (ok, host.standardOutput, host.standardError)
    }

    @Test func itsCommandsWorkEndToEnd() throws {
        #expect(RegistryValidator.problems(CommandRegistry(packs: [Pantry.pack])) == [])
        let (session, host) = try session()
        // Korean values bind like English ones.
        #expect(run(session, host, "add jar size=큰 label=\"매실청\"").out.contains("large  매실청"))
        #expect(run(session, host, "add jar size=small label=jam").ok)
        // A listing feeds @N; let binds an entity.
        #expect(run(session, host, "list 병 size=large,작은").out.hasSuffix("(2 rows)\n"))
        #expect(run(session, host, "let $big = add jar copy=@1 label=honey").ok)
        #expect(run(session, host, "add jar copy=$big label=rice").out.contains("large  rice"))
        #expect(run(session, host, "add jar copy=@3 label=x").err.contains("there is no row @3"))
        #expect(run(session, host, "add jar size=medium label=x").err.contains("unknown size 'medium'"))
        #expect(host.standardError.contains("use one of small, large"))
        // Undo on failure: the row written before the refusal is gone.
        #expect(!run(session, host, "add jar size=small label=\"\"").ok)
        #expect(run(session, host, "list jars").out.hasSuffix("(4 rows)\n"))
        #expect(run(session, host, ".vars").out.contains("$big  jar   "))
        #expect(run(session, host, ".help pantry").out.contains("Entities: jar (병)"))
        #expect(run(session, host, ".store").out.contains("jars      4"))
    }

    @Test func itsRecordsRenderInEveryFormat() throws {
        let (session, host) = try session(format: .json)
        let added = run(session, host, "add jar size=small label=jam").out
        #expect(
            added.hasPrefix("{\"id\":\"")
                && added.hasSuffix("\",\"size\":\"small\",\"label\":\"jam\",\"created\":\"2024-01-01T00:00:00Z\"}\n"),
            "\(added)")
        let json = run(session, host, "list jars").out
        #expect(
            json.hasPrefix("[{\"id\":\"")
                && json.hasSuffix("\"size\":\"small\",\"label\":\"jam\",\"created\":\"2024-01-01T00:00:00Z\"}]\n"),
            "\(json)")
        session.settings.format = .csv
        let csv = run(session, host, "list jars").out
        #expect(
            csv.hasPrefix("id,size,label,created\r\n") && csv.hasSuffix(",small,jam,2024-01-01T00:00:00Z\r\n"), "\(csv)"
        )
        session.settings.format = .table
        #expect(run(session, host, "list jars").out.hasPrefix("#  id        size   label\n"))
    }

    @Test func completionOffersItsWordsAndKeys() throws {
        let (session, host) = try session()
        #expect(run(session, host, "add jar size=large label=jam").ok)
        let completer = Completer(session: session) { _ in [] }
        let sizes = completer.complete(line: "add jar size=", cursor: 13).candidates.map(\.text)
        #expect(sizes == ["size=small", "size=작은", "size=large", "size=큰"])
        #expect(completer.complete(line: "li", cursor: 2).candidates.map(\.text) == ["list"])
        #expect(completer.complete(line: "list ", cursor: 5).candidates.map(\.text) == ["jars"])
        let jars = completer.complete(line: "add jar copy=", cursor: 13).candidates
        #expect(jars.count == 1 && jars[0].display.hasSuffix("  jam"))
    }

    /// A served route is one declaration: what the prompt added, the API lists; what the API
    /// adds went through `add jar`, with its rules (a label is required).
    @Test func itsServedRoutesRunItsOwnCommands() throws {
        #expect(
            ServedAPINames.problems(
                [("pantry", Pantry.served)] + InstalledPacks.installed.map { ($0.pack.name, $0.apis) }) == [])
        let (session, host) = try session()
        #expect(run(session, host, "add jar size=큰 label=\"매실청\"").ok)
        let context = ServedContext(session: session, baseURL: "http://127.0.0.1:8080")
        func answer(_ request: ServedRequest) throws -> (Int, String) {
            let response = try session.serving { try Pantry.served[0].answer(request, context) }
            return (response?.status ?? 0, String(decoding: response?.body ?? Data(), as: UTF8.self))
        }
        let listed = try answer(ServedRequest(method: "GET", path: "/jars"))
        #expect(
            listed.0 == 200 && listed.1.hasPrefix("[{\"id\":\"")
                && listed.1.hasSuffix("\"size\":\"large\",\"label\":\"매실청\",\"created\":\"2024-01-01T00:00:00Z\"}]"),
            "\(listed)")
        func form(_ fields: [(String, String)]) -> ServedRequest {
            let (body, type) = HTTPBody.multipart(fields.map { MultipartPart.field($0.0, $0.1) })
                .encoded(boundary: "b")
            return ServedRequest(method: "POST", path: "/jar", headers: [HTTPHeader("Content-Type", type)], body: body)
        }
        let added = try answer(form([("label", "jam")]))
        #expect(added.0 == 201 && added.1.contains("\"size\":\"small\",\"label\":\"jam\""), "\(added)")
        let refused = try answer(form([("label", "")]))
        #expect(refused.0 == 400 && refused.1.contains("\"key\":\"label\""), "\(refused)")
        #expect(run(session, host, "list jars").out.hasSuffix("(2 rows)\n"))
    }

    @Test func itsDumpReplaysToTheSameStoreAndSurvivesADurableReopen() throws {
        let folder = NSTemporaryDirectory() + "closet-pantry-\(UUID().uuidString)"
        let store = try DurableStore(path: folder, tables: Pantry.pack.tables) { _ in }
        let (first, host) = try session(store)
        for line in ["add jar size=small label=\"jam \\\"strawberry\\\"\"", "add jar size=큰 label=\"김치\""] {
            #expect(run(first, host, line).ok)
        }
        let dump = run(first, host, ".dump").out
        #expect(dump.hasPrefix("# closet dump: 2 jars\n"))
        // The statement comes from the schema's `restore`: labels as keys, vocabulary words bare.
        #expect(
            dump.contains(
                #" size=large label="김치" created=2024-01-01T00:00:01Z"# + "\n"), "\(dump)")
        let (second, secondHost) = try session()
        second.runScript(dump, name: "dump")
        #expect(secondHost.standardError == "")
        #expect(run(second, secondHost, ".dump").out == dump)

        // The durable store kept the pack's table: a copy of its files opens with the same rows.
        let (third, thirdHost) = try session(try reopenedStore(folder))
        #expect(run(third, thirdHost, ".dump").out == dump)
    }

    /// Copies a store's files to a new folder (the original still holds its lock) and opens that.
    func reopenedStore(_ folder: String) throws -> Store {
        let copy = folder + "-reopened"
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        for file in ["closet-store", "snapshot", "journal"] {
            try FileManager.default.copyItem(atPath: folder + "/" + file, toPath: copy + "/" + file)
        }
        return try DurableStore(path: copy, tables: Pantry.pack.tables) { _ in }
    }
}

/// Issue 23, item 7: installing a pack changes no other pack's goldens. Every golden of the
/// suite and the examples runs with the pantry installed beside the five packs; only `.help`
/// (it lists every pack) and messages that list the entity words may differ.
@Suite struct NewPackChangesNothingElseTests {
    @Test func everyGoldenPassesWithAnotherPackInstalled() throws {
        let registry = CommandRegistry(
            packs: InstalledPacks.all + [Pantry.pack], engineCommands: InstalledPacks.hostCommands)
        #expect(RegistryValidator.problems(registry) == [])
        let goldens = try GoldenRunner.collect([repositoryRoot + "/Tests/Golden", repositoryRoot + "/Examples"])
        #expect(goldens.count > 90)
        var changed: [String] = []
        for file in goldens {
            let expected = try String(
                contentsOfFile: String(file.dropLast(".closet".count)) + ".expected", encoding: .utf8)
            let actual = try GoldenRunner.transcript(of: file, registry: registry).text
            guard actual != expected, !GoldenRunner.matches(expected: expected, actual: actual) else { continue }
            // What may differ: an error that lists every entity word (now with `jars`).
            let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
            let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
            let differing = zip(old, new).filter { $0 != $1 }.map { String($0.1) }
            let allowed =
                old.count == new.count
                && differing.allSatisfy { $0.contains(": error: ") && $0.contains(", jars") }
            if !allowed && !file.hasSuffix("/dot/help.closet") { changed.append(file) }
        }
        #expect(changed == [], "goldens another pack changed: \(changed)")
    }
}
