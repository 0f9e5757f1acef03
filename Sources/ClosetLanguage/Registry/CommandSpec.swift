import ClosetCore
import Foundation

/// One command: its words, help, what it accepts and what it does. One file per command
/// builds one of these; the registry collects them, and help, completion, suggestions and the
/// docs all read from it.
public struct CommandSpec: Sendable {
    /// The words that name it: `["add", "item"]`, `["cache", "stats"]`.
    public var path: [String]
    /// Other names: `[["filter", "items"]]`.
    public var aliases: [[String]]
    public var summary: String
    public var parameters: [ParameterSpec] {
        get { details.value.parameters }
        set { change { $0.parameters = newValue } }
    }
    public var keys: [KeySpec] {
        get { details.value.keys }
        set { change { $0.keys = newValue } }
    }
    /// Free text after the keys in `.help`, when the keys do not say everything.
    public var notes: [String] {
        get { details.value.notes }
        set { change { $0.notes = newValue } }
    }
    public var examples: [String]
    /// Whether a key may be given more than once (filters apply in the order written).
    public var keysRepeat: Bool
    /// Keys of which at least one must be given (`cache limit`: count=, bytes= or both); the
    /// binder refuses a statement without any.
    public var needsOneOf: [String]
    /// Its listing comes a page at a time and `next` continues it. Every paged listing takes
    /// `limit=`: a command without a `limit` key of its own gets the engine's, which shows at
    /// most that many rows at a time from the pages the command fetches.
    public var pages: Bool
    /// Whether `limit=` is the engine's window over the command's pages.
    package var windowsPages: Bool { pages && keys.contains { $0 == Self.pageLimit } }

    /// The engine's `limit=` for a paged listing that has none of its own.
    package static let pageLimit = KeySpec("limit", .count, "show at most N rows at a time (next shows the next N)")
    public var run: @Sendable (Invocation) throws -> Outcome

    /// What the command takes, made when first read: a statement reads its own command's,
    /// and start-up (which declares every installed pack's commands) builds none of them.
    struct Details: Sendable {
        var parameters: [ParameterSpec]
        var keys: [KeySpec]
        var notes: [String]
    }
    private var details: Deferred<Details>

    private mutating func change(_ body: (inout Details) -> Void) {
        var changed = details.value
        body(&changed)
        details = Deferred(value: changed)
    }

    public init(
        path: [String], aliases: [[String]] = [], summary: String,
        parameters: @autoclosure @escaping @Sendable () -> [ParameterSpec] = [],
        keys: @autoclosure @escaping @Sendable () -> [KeySpec] = [],
        notes: @autoclosure @escaping @Sendable () -> [String] = [], examples: [String], keysRepeat: Bool = false,
        needsOneOf: [String] = [], pages: Bool = false, run: @escaping @Sendable (Invocation) throws -> Outcome
    ) {
        self.path = path
        self.aliases = aliases
        self.summary = summary
        details = Deferred {
            var keys = keys()
            if pages, !keys.contains(where: { $0.name == Self.pageLimit.name }) { keys.append(Self.pageLimit) }
            return Details(parameters: parameters(), keys: keys, notes: notes())
        }
        self.examples = examples
        self.keysRepeat = keysRepeat
        self.needsOneOf = needsOneOf
        self.pages = pages
        self.run = run
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
        parts += parameters.map(\.kind.placeholder)
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
