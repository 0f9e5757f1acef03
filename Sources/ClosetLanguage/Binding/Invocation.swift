import ClosetCore
import Foundation

/// A command call after binding: every key known and every value checked, refs resolved.
/// Handlers read it through the typed accessors, and reach their pack's state, the clock,
/// the ids and the host's files through it; never the session's other parts.
public final class Invocation {
    package let session: Session
    public let spec: CommandSpec
    public let call: CommandCall
    public let parameters: [BoundArgument]
    /// In the order written (filters apply in that order).
    public let arguments: [BoundArgument]

    public var clock: Clock { session.clock }

    /// A fresh id that `isTaken` does not know. Seeded ids (`--deterministic --seed`) repeat
    /// from one process to the next, so a new row must never take an id already stored.
    public func newID(unless isTaken: (UUID) -> Bool) -> UUID {
        var id = ids.next()
        while ids.mayRepeat, isTaken(id) { id = ids.next() }
        return id
    }
    public var ids: IDGenerator { session.ids }
    /// Files and the error stream, for pictures, exports and imports.
    public var host: SessionHost { session.host }

    /// The calling pack's per-session state (its repositories, view models, caches).
    /// Made on first use; a pack that cannot start on the store fails the statement.
    public func state<State: PackState>(_ type: State.Type) throws -> State {
        // The running command's pack is looked up only the first time (made states are checked first).
        guard let state = try session.packs.state(State.self, preferring: { session.registry.packNumber(of: spec) })
        else {
            throw Diagnostic.packNotInstalled(command: spec.name, at: call.range)
        }
        return state
    }

    /// The engine's missing-key diagnostic for one of this command's keys, for a value given
    /// empty where the command needs one (the binder has already refused a key left out).
    public func missing(_ key: String) -> Diagnostic {
        let spec = spec.keys.first { $0.name == key } ?? KeySpec(key, .text, "")
        return .missingKey(spec, command: self.spec.name, at: call.range)
    }

    /// An edit given nothing to change, naming what it takes: the command's own keys (derived
    /// from its entity's schema), but for those that only authorize it (`password`).
    public func nothingToChange(besides authorizing: Set<String> = []) -> Diagnostic {
        .nothingToChange(keys: spec.keys.map(\.name).filter { !authorizing.contains($0) }, at: call.range)
    }

    /// What the app says once this succeeds (`.localized("", korean: "등록 완료")`: nothing in
    /// English, the app's words under `.lang ko`), printed under the result for people.
    public func notify(_ text: FieldValue) { session.notice = text }

    public func argument(_ key: String) -> BoundArgument? { lastIndex(of: key).map { arguments[$0] } }

    /// Where the value given for `key` is (the last one, when given more than once).
    @inlinable func lastIndex(of key: String) -> Int? {
        // Lengths first (key names are ASCII, `RegistryValidator`): most keys differ in
        // length, and two strings that differ take `==` down its slow path.
        let length = key.utf8.count
        var index = arguments.endIndex
        while index > arguments.startIndex {
            index -= 1
            if arguments[index].key.utf8.count == length, arguments[index].key == key { return index }
        }
        return nil
    }

    /// What `body` makes of the value given for `key`, read in place: commands read every
    /// argument this way, and copying each `BoundArgument` out was most of a seed script's
    /// argument reads.
    @inlinable func lastValue<T>(_ key: String, _ body: (ArgumentValue) -> T?) -> T? {
        lastIndex(of: key).flatMap { body(arguments[$0].value) }
    }

    /// A secret key's value; when it was left out and a person is at the terminal, asked for
    /// there with echo off (as psql asks for a password). Nil when neither.
    public func secret(_ key: String) -> String? {
        if let given = text(key) { return given }
        return session.host.readSecret(prompt: prompt(forSecret: key))
    }

    /// A secret asked for at the terminal asked for once more, after the app said why (`wrong
    /// password`, in the session's language), as the app asks again; nil when it was written in
    /// the statement or no person answers.
    public func askedAgain(_ key: String, because english: String, korean: String) -> String? {
        guard arguments.last(where: { $0.key == key })?.askedAtTerminal == true else { return nil }
        let reason = session.settings.language.isKorean ? korean : english
        return session.host.readSecret(prompt: reason + "\n" + prompt(forSecret: key))
    }

    private func prompt(forSecret key: String) -> String {
        let spec = spec.keys.first { $0.name == key }
        return spec?.secretPrompt(korean: session.settings.language.isKorean) ?? key + ": "
    }

    public func text(_ key: String) -> String? {
        lastValue(key) { if case .text(let text) = $0 { text } else { nil } }
    }

    init(
        session: Session, spec: CommandSpec, call: CommandCall, parameters: [BoundArgument], arguments: [BoundArgument]
    ) {
        self.session = session
        self.spec = spec
        self.call = call
        self.parameters = parameters
        self.arguments = arguments
    }

    /// The same statement with `key`'s value replaced (or given), for the engine to run a
    /// listing again (`next` after a listing's own `limit=`).
    func replacing(_ key: String, with value: ArgumentValue) -> Invocation {
        var arguments = arguments
        if let index = lastIndex(of: key) {
            arguments[index].value = value
        } else {
            arguments.append(BoundArgument(key: key, value: value, range: call.range))
        }
        return Invocation(session: session, spec: spec, call: call, parameters: parameters, arguments: arguments)
    }

    /// The one term of a single-valued vocabulary key.
    @inlinable public func value<V: Vocabulary>(_ type: V.Type, _ key: String) -> V? {
        lastValue(key) { if case .terms(_, let codes) = $0, let code = codes.first { V(code: code) } else { nil } }
    }

    /// Every term of a vocabulary argument's value, in the order written.
    @inlinable public static func values<V: Vocabulary>(_ type: V.Type, of value: ArgumentValue) -> [V]? {
        guard case .terms(let vocabulary, let codes) = value, vocabulary == V.vocabularyName else { return nil }
        return codes.compactMap(V.init(code:))
    }

    public func date(_ key: String) -> Date? {
        lastValue(key) { if case .date(let date) = $0 { date } else { nil } }
    }

    public func count(_ key: String) -> Int? {
        lastValue(key) { if case .count(let count) = $0 { count } else { nil } }
    }

    public func id(_ key: String) -> UUID? {
        lastValue(key) { if case .id(let id) = $0 { id } else { nil } }
    }

    public func size(_ key: String) -> Int? {
        lastValue(key) { if case .size(let size) = $0 { size } else { nil } }
    }

    /// The entity named by the first parameter (the binder has already resolved it).
    public func referenceParameter() throws(Diagnostic) -> EntityKey {
        guard let first = parameters.first, case .references(_, let keys) = first.value, let key = keys.first else {
            throw .needsReference(command: spec.name, at: call.range)
        }
        return key
    }

    /// Whether the statement restores a row as `.dump` wrote it (it gives a restoring key).
    public var restores: Bool {
        arguments.contains { argument in spec.keys.contains { $0.restores && $0.name == argument.key } }
    }

    /// Reads a picture file for `image=<path>` and checks it, before anything is written.
    public func readPicture(_ path: String, range: SourceRange) throws(Diagnostic) -> (bytes: [UInt8], info: ImageInfo)
    {
        let bytes: [UInt8]
        do {
            if let attached = session.attachments[path] {
                guard attached.count <= ImageHeader.maximumBytes else {
                    throw Diagnostic.fileTooLarge(path, bytes: attached.count, limit: ImageHeader.maximumBytes)
                }
                bytes = attached
            } else {
                bytes = try host.readFile(at: path, limit: ImageHeader.maximumBytes)
            }
        } catch let error as Diagnostic {
            throw error.at(range)
        } catch {
            throw .cannotRead(path, because: "\(error)", at: range)
        }
        // A new picture must decode; one a dump restores is taken as closet kept it (an older
        // closet took a picture whose structure read), so a backup replays exactly.
        do throws(PictureBytes.Problem) {
            var info = try restores ? PictureBytes.inspectStructure(bytes) : PictureBytes.inspect(bytes)
            info.checksum = Checksum.crc32(bytes)
            return (bytes, info)
        } catch {
            throw .notAPicture(path, problem: error.message, at: range)
        }
    }
}

/// A dot command's call: its words, unchecked (each dot command reads its own).
package struct DotInvocation {
    public let session: Session
    public let spec: DotCommandSpec
    public let call: DotCall

    /// The one `on|off` word of `.echo`, `.bail`, `.timer`.
    package func onOff() throws -> Bool {
        guard call.arguments.count == 1 else {
            throw Diagnostic.usage(spec.usage, at: call.arguments.dropFirst().first?.range ?? call.name.range)
        }
        let word = call.arguments[0]
        switch word.text.lowercased() {
        case "on", "1", "true", "yes": return true
        case "off", "0", "false", "no": return false
        default:
            throw Diagnostic.unknown("setting", word.text, at: word.range, among: ["on", "off"], hint: "use on or off")
        }
    }
}
