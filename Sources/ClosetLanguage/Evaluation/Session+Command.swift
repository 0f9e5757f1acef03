import ClosetCore
import ClosetTables

/// A command given as data rather than typed (a served request's form): its words, parameters
/// and `key=value` arguments, and the files its arguments name by attachment instead of path.
public struct CommandRequest: Sendable {
    public var words: [String]
    public var parameters: [String]
    public var arguments: [(key: String, value: String)]
    /// Bytes by the name an argument gives instead of a path (`image=upload-1`).
    public var attachments: [String: [UInt8]]
    /// Who the command is by (a served request's signed-in member), as `.user` would say;
    /// nil: the session's user.
    public var user: String?

    public init(
        _ words: [String], parameters: [String] = [], arguments: [(key: String, value: String)] = [],
        attachments: [String: [UInt8]] = [:], user: String? = nil
    ) {
        self.words = words
        self.parameters = parameters
        self.arguments = arguments
        self.attachments = attachments
        self.user = user
    }
}

/// Why a command given as data failed: the engine's diagnostic, and the argument it is about.
public struct CommandFailure: Error, Sendable {
    public var diagnostic: Diagnostic
    /// The key of the argument the diagnostic points at; nil when it is about the whole command.
    public var key: String?

    public var id: String { diagnostic.id.rawValue }
    public var message: String { diagnostic.message }
}

extension Session {
    /// Runs a command given as data through the one door a typed statement goes through: it
    /// is made into the syntax tree the parser makes of the statement `.dump` would write for
    /// it (every value one quoted word, so any text is taken exactly as given; a parameter
    /// bare when it is plain ASCII, as the dump writes it), then resolved, bound, checked and
    /// run as one, inside the caller's transaction. So a served write or an imported row can
    /// be refused for nothing the prompt would refuse, nor accepted for anything it would
    /// refuse. (Written as text and parsed again, a row of an import cost twice as much.)
    public func run(_ request: CommandRequest) throws(CommandFailure) -> Outcome {
        if quickBinding, let invocation = RequestBinder.invocation(request, session: self) {
            return try perform(invocation)
        }
        // Each word its own range, as in the statement's text, so a diagnostic names its argument.
        var offset = 0
        func word(_ text: String, quoted: Bool) -> Word {
            let start = offset
            offset += text.utf8.count + (quoted ? 2 : 0) + 1
            return Word(text: text, isQuoted: quoted, range: SourceRange(start, offset - 1))
        }
        var words: [Word] = []
        words.reserveCapacity(request.words.count + request.parameters.count)
        for text in request.words { words.append(word(text, quoted: false)) }
        for parameter in request.parameters {
            let plain = !parameter.isEmpty && parameter.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != 0x22 }
            words.append(word(parameter, quoted: !plain))
        }
        var arguments: [Argument] = []
        arguments.reserveCapacity(request.arguments.count)
        for (key, value) in request.arguments {
            let name = word(key, quoted: false)
            let given = word(value, quoted: true)
            arguments.append(
                Argument(key: name, values: [given], range: SourceRange(name.range.lower, given.range.upper)))
        }
        let call = CommandCall(words: words, arguments: arguments, range: SourceRange(0, max(0, offset - 1)))
        attachments = request.attachments
        let sessionUser = user
        if let requester = request.user { user = requester }
        defer {
            attachments = [:]
            user = sessionUser
        }
        do {
            return try Evaluator(session: self).run(call)
        } catch {
            throw Self.failure(error, arguments: arguments.lazy.map { ($0.key.text, $0.range) })
        }
    }

    /// Runs a command the request binder has bound (`RequestBinder`), as `run` would.
    func perform(_ invocation: Invocation) throws(CommandFailure) -> Outcome {
        do {
            return try Evaluator(session: self).perform(invocation)
        } catch {
            throw Self.failure(error, arguments: invocation.arguments.lazy.map { ($0.key, $0.range) })
        }
    }

    /// A command's error as the failure of a request, with the key of the argument it is about.
    private static func failure(
        _ error: any Error, arguments: some BidirectionalCollection<(key: String, range: SourceRange)>
    ) -> CommandFailure {
        let diagnostic: Diagnostic =
            switch error {
            case let diagnostic as Diagnostic: diagnostic
            case let error as StoreError: .storeFailed(error, at: nil)
            default: .appMessage("\(error)", at: nil)
            }
        // An argument's own problem lies within its range; one about the whole command does not.
        let key = diagnostic.range.flatMap { at in
            arguments.last { $0.range.lower <= at.lower && max(at.upper, at.lower + 1) <= $0.range.upper }?.key
        }
        return CommandFailure(diagnostic: diagnostic, key: diagnostic.missingKey ?? key)
    }
}
