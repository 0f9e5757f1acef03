import ClosetCore
import Foundation

/// One command: its words, help, what it accepts and what it does. One file per command
/// builds one of these; the registry collects them, and help, completion, suggestions and the
/// docs all read from it.
public struct CommandSpec: Sendable {
    /// The words that name it: `["add", "item"]`, `["cache", "stats"]`.
    public var path: [String] {
        get { storage.fields.path }
        set { change { $0.path = newValue } }
    }
    /// Other names: `[["filter", "items"]]`.
    public var aliases: [[String]] {
        get { storage.fields.aliases }
        set { change { $0.aliases = newValue } }
    }
    public var summary: String {
        get { storage.fields.summary }
        set { change { $0.summary = newValue } }
    }
    public var parameters: [ParameterSpec] {
        get { storage.fields.details.value.parameters }
        set { changeDetails { $0.parameters = newValue } }
    }
    public var keys: [KeySpec] {
        get { storage.fields.details.value.keys }
        set { changeDetails { $0.keys = newValue } }
    }
    /// Free text after the keys in `.help`, when the keys do not say everything.
    public var notes: [String] {
        get { storage.fields.details.value.notes }
        set { changeDetails { $0.notes = newValue } }
    }
    public var examples: [String] {
        get { storage.fields.examples }
        set { change { $0.examples = newValue } }
    }
    /// Whether a key may be given more than once (filters apply in the order written).
    public var keysRepeat: Bool {
        get { storage.fields.keysRepeat }
        set { change { $0.keysRepeat = newValue } }
    }
    /// Keys of which at least one must be given (`cache limit`: count=, bytes= or both); the
    /// binder refuses a statement without any.
    public var needsOneOf: [String] {
        get { storage.fields.needsOneOf }
        set { change { $0.needsOneOf = newValue } }
    }
    /// Its listing comes a page at a time and `next` continues it. Every paged listing takes
    /// `limit=`: a command without a `limit` key of its own gets the engine's, which shows at
    /// most that many rows at a time from the pages the command fetches.
    public var pages: Bool {
        get { storage.fields.pages }
        set { change { $0.pages = newValue } }
    }
    /// Its outcome is a listing (the rows of a screen), all at once or a page at a time: every
    /// listing takes `limit=`, and `next` continues it (`pages` implies it).
    public var lists: Bool {
        get { storage.fields.lists || storage.fields.pages }
        set { change { $0.lists = newValue } }
    }
    /// Whether `limit=` is the engine's window over the command's rows (or pages).
    package var windowsPages: Bool { lists && keys.contains { $0 == Self.pageLimit } }
    /// Whether `limit=` is the listing's own (a top-N the command makes from an index, say),
    /// which `next` continues by asking for more.
    package var limitsItself: Bool { lists && !pages && keys.contains { $0.name == "limit" && $0 != Self.pageLimit } }

    /// The engine's `limit=` for a listing that has none of its own.
    package static let pageLimit = KeySpec("limit", .count, "show at most N rows at a time (next shows the next N)")
    public var run: @Sendable (Invocation) throws -> Outcome {
        get { storage.fields.run }
        set { change { $0.run = newValue } }
    }

    /// What the command takes, made when first read: a statement reads its own command's,
    /// and start-up (which declares every installed pack's commands) builds none of them.
    struct Details: Sendable {
        var parameters: [ParameterSpec]
        var keys: [KeySpec]
        var notes: [String]
    }

    struct Fields: Sendable {
        var path: [String]
        var aliases: [[String]]
        var summary: String
        var examples: [String]
        var keysRepeat: Bool
        var needsOneOf: [String]
        var pages: Bool
        var lists: Bool
        var run: @Sendable (Invocation) throws -> Outcome
        var details: Deferred<Details>
    }

    /// Every field behind one reference: a spec is copied into each invocation and out of
    /// the registry for every statement, and copying nine references (a seed script's every
    /// `add`) was a fiftieth of running one. Changed only while packs are declared.
    final class Storage: Sendable {
        let fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }
    private var storage: Storage

    private mutating func change(_ body: (inout Fields) -> Void) {
        var fields = storage.fields
        body(&fields)
        storage = Storage(fields)
    }

    private mutating func changeDetails(_ body: (inout Details) -> Void) {
        var details = storage.fields.details.value
        body(&details)
        change { $0.details = Deferred(value: details) }
    }

    public init(
        path: [String], aliases: [[String]] = [], summary: String,
        parameters: @autoclosure @escaping @Sendable () -> [ParameterSpec] = [],
        keys: @autoclosure @escaping @Sendable () -> [KeySpec] = [],
        notes: @autoclosure @escaping @Sendable () -> [String] = [], examples: [String], keysRepeat: Bool = false,
        needsOneOf: [String] = [], pages: Bool = false, lists: Bool = false,
        run: @escaping @Sendable (Invocation) throws -> Outcome
    ) {
        let make: @Sendable () -> Details = {
            var keys = keys()
            if pages || lists, !keys.contains(where: { $0.name == Self.pageLimit.name }) { keys.append(Self.pageLimit) }
            return Details(parameters: parameters(), keys: keys, notes: notes())
        }
        let details = Deferred<Details>(make)
        storage = Storage(
            Fields(
                path: path, aliases: aliases, summary: summary, examples: examples, keysRepeat: keysRepeat,
                needsOneOf: needsOneOf, pages: pages, lists: lists, run: run, details: details))
    }

    /// Joined by hand: the first `joined(separator:)` of a process ran unspecialized and looked
    /// its associated types up through every conformance record (250,000 instructions, a tenth
    /// of a new process's listing).
    public var name: String {
        var name = ""
        for index in path.indices {
            if index > 0 { name += " " }
            name += path[index]
        }
        return name
    }

    /// `add item kind=<kind> [note=<text>] ...`
    package var usage: String {
        var parts = path
        parts += parameters.map(\.placeholder)
        for key in keys {
            let item = "\(key.name)=\(key.placeholder)"
            parts.append(key.isRequired ? item : "[\(item)]")
        }
        return parts.joined(separator: " ")
    }
}

/// A dot command: a shell setting or action, never stored.
package struct DotCommandSpec: Sendable {
    public var name: String
    public var aliases: [String]
    public var summary: String
    /// The words it takes, for usage: `["on|off"]`.
    public var arguments: [String]
    /// Fixed first-argument words, for completion.
    package var choices: [String]
    /// Whether its argument is a file path (completion offers files).
    package var takesPath: Bool
    public var examples: [String]
    public var run: @Sendable (DotInvocation) throws -> Outcome

    public init(
        name: String, aliases: [String] = [], summary: String, arguments: [String] = [],
        choices: [String] = [], takesPath: Bool = false, examples: [String],
        run: @escaping @Sendable (DotInvocation) throws -> Outcome
    ) {
        self.name = name
        self.aliases = aliases
        self.summary = summary
        self.arguments = arguments
        self.choices = choices
        self.takesPath = takesPath
        self.examples = examples
        self.run = run
    }

    package var usage: String { ([name] + arguments).joined(separator: " ") }
}
